import type { GoldenItem } from "./schema.js";

/**
 * How a golden item's expectation is matched against retrieved items (issue 12):
 * - `chunk_id`: a retrieved item whose chunk id equals `expected_chunk_id` (exact; breaks when the
 *   documents are re-chunked);
 * - `document`: any retrieved item whose document id equals `expected_source`;
 * - `substring`: a retrieved item of `expected_source` whose text contains `expected_substring`
 *   (the precise hit of design §5);
 * - `lines`: as `substring`, the substring having been resolved from `expected_lines`;
 * - `unanswerable`: no expectation; recall is `not_applicable`, abstention is scored.
 */
export type MatchMode = "chunk_id" | "document" | "substring" | "lines" | "unanswerable";

/** The fields of a golden item that decide its match mode. */
export type MatchFields = Pick<GoldenItem, "expected_source" | "expected_substring" | "expected_chunk_id" | "expected_lines">;

/** Every match mode, in reporting order. */
export const MATCH_MODES: readonly MatchMode[] = ["chunk_id", "document", "substring", "lines", "unanswerable"];

/**
 * The match mode of an item. Items built without the newer optional fields (`expected_chunk_id`,
 * `expected_lines`, e.g. read back from an older store) classify by the fields they have.
 */
export function matchMode(item: MatchFields): MatchMode {
  if (item.expected_chunk_id !== undefined && item.expected_chunk_id !== null) return "chunk_id";
  if (item.expected_source === null) return "unanswerable";
  if (item.expected_substring === null) return "document";
  return item.expected_lines !== undefined && item.expected_lines !== null ? "lines" : "substring";
}

/** True when the item expects something to be retrieved (every mode but `unanswerable`). */
export function isAnswerable(item: MatchFields): boolean {
  return matchMode(item) !== "unanswerable";
}

/** Number of items in each match mode (every mode present, 0 when unused). */
export function countMatchModes(items: readonly GoldenItem[]): Record<MatchMode, number> {
  const out: Record<MatchMode, number> = { chunk_id: 0, document: 0, substring: 0, lines: 0, unanswerable: 0 };
  for (const it of items) out[matchMode(it)]++;
  return out;
}
