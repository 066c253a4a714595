import { normalizeText } from "@ragmeter/golden";
import type { RetrievedItem } from "./recall.js";

/** What a retrieved item is matched against: a chunk id, a document, or a document and a substring. */
export interface MatchExpectation {
  readonly expected_source: string | null;
  readonly expected_substring: string | null;
  readonly expected_chunk_id?: string | null;
}

/**
 * The rank of each retrieved item as recall@k counts it (design §5): 1-based in recorded order; a
 * duplicate (same chunk id, or same document and text) takes no rank (null).
 */
export function retrievedRanks(items: readonly RetrievedItem[]): (number | null)[] {
  const seen = new Set<string>();
  let rank = 0;
  return items.map((item) => {
    const key = `${item.id}\u0000${item.document_id}\u0000${item.text}`;
    if (seen.has(key) || seen.has(`id:${item.id}`)) return null;
    seen.add(key);
    seen.add(`id:${item.id}`);
    return ++rank;
  });
}

/**
 * Whether one retrieved item matches the golden expectation: the exact chunk id when one is
 * expected; else its document and (when given) the expected substring, NFC-normalised with
 * whitespace folded. Null when nothing is expected (unanswerable or live traffic).
 */
export function itemMatches(item: RetrievedItem, expect: MatchExpectation | null): boolean | null {
  if (expect === null) return null;
  const chunkId = expect.expected_chunk_id ?? null;
  if (chunkId !== null) return item.id === chunkId;
  if (expect.expected_source === null) return null;
  if (normalizeText(item.document_id) !== normalizeText(expect.expected_source)) return false;
  return expect.expected_substring === null || normalizeText(item.text).includes(normalizeText(expect.expected_substring));
}
