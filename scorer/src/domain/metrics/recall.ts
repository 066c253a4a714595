import { normalizeText } from "@ragmeter/golden";

/** A retrieved item as the pipeline recorded it (rank order = array order). */
export interface RetrievedItem {
  readonly id: string;
  readonly document_id: string;
  readonly text: string;
  readonly score: number | null;
}

/** What a hit must match: the expected document and a substring of the chunk text. */
export interface RetrievalExpectation {
  readonly expected_source: string;
  readonly expected_substring: string;
}

/** Recall of one question at each k, and the rank of the first hit. */
export interface RecallResult {
  /** 1 when some item of rank ≤ k is a hit, else 0; keyed by k. */
  readonly recall: Readonly<Record<number, 0 | 1>>;
  /** 1-based rank of the first hit among distinct items, or null when none is a hit. */
  readonly hitRank: number | null;
  /** Reciprocal rank (1/hitRank, 0 when no hit), the per-question term of MRR. */
  readonly reciprocalRank: number;
}

/**
 * recall@k for one question (design §5): an item is a hit when its `document_id` equals the
 * expected source and its text contains the expected substring, both NFC-normalised with
 * whitespace runs folded. Rank is the recorded order (never re-sorted); a duplicated item (same
 * chunk id, or same document and text) counts once and does not take a rank; fewer than k items
 * is not an error.
 */
export function recallAtK(items: readonly RetrievedItem[], expected: RetrievalExpectation, ks: readonly number[]): RecallResult {
  const source = normalizeText(expected.expected_source);
  const needle = normalizeText(expected.expected_substring);
  const seen = new Set<string>();
  let rank = 0;
  let hitRank: number | null = null;
  for (const item of items) {
    const key = `${item.id}\u0000${item.document_id}\u0000${item.text}`;
    if (seen.has(key) || (item.id !== "" && seen.has(`id:${item.id}`))) continue;
    seen.add(key);
    if (item.id !== "") seen.add(`id:${item.id}`); // no chunk id (""): told apart by document id and text
    rank++;
    if (normalizeText(item.document_id) === source && normalizeText(item.text).includes(needle)) {
      hitRank = rank;
      break;
    }
  }
  const recall: Record<number, 0 | 1> = {};
  for (const k of ks) recall[k] = hitRank !== null && hitRank <= k ? 1 : 0;
  return { recall, hitRank, reciprocalRank: hitRank === null ? 0 : 1 / hitRank };
}
