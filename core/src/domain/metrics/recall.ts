import { normalizeText } from "@ragmeter/golden";
import { type MechanicalMetric, measured, type RetrievedItem } from "../metric.js";

export type { RetrievedItem } from "../metric.js";

/**
 * What a hit must match (the match modes of issue 12): with `expected_chunk_id`, the exact chunk id;
 * else with `expected_substring`, the expected document and a substring of the chunk text (the
 * precise hit); else any chunk of the expected document (document-level hit).
 */
export interface RetrievalExpectation {
  readonly expected_source: string | null;
  readonly expected_substring: string | null;
  readonly expected_chunk_id?: string | null;
}

/** True when `item` is a hit for `expected` (see {@link RetrievalExpectation}). */
export function isHit(item: RetrievedItem, expected: RetrievalExpectation): boolean {
  const chunkId = expected.expected_chunk_id ?? null;
  if (chunkId !== null) return item.id.trim() === chunkId.trim();
  if (expected.expected_source === null) return false;
  if (normalizeText(item.document_id) !== normalizeText(expected.expected_source)) return false;
  return expected.expected_substring === null || normalizeText(item.text).includes(normalizeText(expected.expected_substring));
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
 * recall@k for one question (design §5): an item is a hit by {@link isHit} — the exact chunk id
 * (`expected_chunk_id`), or its `document_id` equals the expected source and (unless only the
 * document is expected) its text contains the expected substring, both NFC-normalised with
 * whitespace runs folded. Rank is the recorded order (never re-sorted); a duplicated item (same
 * chunk id, or same document and text) counts once and does not take a rank; fewer than k items
 * is not an error.
 */
export function recallAtK(items: readonly RetrievedItem[], expected: RetrievalExpectation, ks: readonly number[]): RecallResult {
  const seen = new Set<string>();
  let rank = 0;
  let hitRank: number | null = null;
  for (const item of items) {
    const key = `${item.id}\u0000${item.document_id}\u0000${item.text}`;
    if (seen.has(key) || (item.id !== "" && seen.has(`id:${item.id}`))) continue;
    seen.add(key);
    if (item.id !== "") seen.add(`id:${item.id}`); // no chunk id (""): told apart by document id and text
    rank++;
    if (isHit(item, expected)) {
      hitRank = rank;
      break;
    }
  }
  const recall: Record<number, 0 | 1> = {};
  for (const k of ks) recall[k] = hitRank !== null && hitRank <= k ? 1 : 0;
  return { recall, hitRank, reciprocalRank: hitRank === null ? 0 : 1 / hitRank };
}

/** `recall@<k>`: 1 when a hit is among the first k distinct items (design §5). */
export function recallMetric(k: number): MechanicalMetric {
  return {
    name: `recall@${k}`,
    kind: "retrieval",
    needs: ["answerable", "retrieval"],
    live: false,
    optional: false,
    headline: true,
    byTag: true,
    trend: true,
    color: "#1f77b4",
    alerted: true,
    evaluationLabel: (value) => (value > 0 ? "hit" : "miss"),
    compute(input) {
      const r = recallAtK(input.contexts, input.expect as RetrievalExpectation, [input.k]);
      return { ...measured(r.recall[input.k] ?? 0), hit_rank: r.hitRank };
    },
  };
}

/** `mrr`: the reciprocal rank of the first hit (0 when none); its mean over questions is MRR. */
export const MRR: MechanicalMetric = {
  name: "mrr",
  kind: "retrieval",
  needs: ["answerable", "retrieval"],
  live: false,
  optional: false,
  label: "MRR",
  headline: false,
  byTag: false,
  trend: true,
  color: "#9467bd",
  evaluationLabel: (value) => (value > 0 ? "hit" : "miss"),
  compute(input) {
    const r = recallAtK(input.contexts, input.expect as RetrievalExpectation, []);
    return { ...measured(r.reciprocalRank), hit_rank: r.hitRank };
  },
};

/**
 * Whether each distinct retrieved item is a hit, in rank order (duplicates take no rank, as for
 * {@link recallAtK}): the ranked relevance list the rank-aware metrics read.
 */
export function rankedHits(items: readonly RetrievedItem[], expected: RetrievalExpectation): boolean[] {
  const seen = new Set<string>();
  const hits: boolean[] = [];
  for (const item of items) {
    const key = `${item.id}\u0000${item.document_id}\u0000${item.text}`;
    if (seen.has(key) || (item.id !== "" && seen.has(`id:${item.id}`))) continue;
    seen.add(key);
    if (item.id !== "") seen.add(`id:${item.id}`);
    hits.push(isHit(item, expected));
  }
  return hits;
}
