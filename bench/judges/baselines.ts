// The baselines every detection figure is read against (bench/judges/README.md), computed on the
// same answers in the same run: "always hallucinated", and word overlap — the share of the answer's
// content words (word segments, CJK bigrams, minus the stop words) found anywhere in the chunks.
import { STOP_WORDS, wordSegments } from "@ragmeter/golden";

/** Word overlap flags an answer when its share is below this (the development data's README). */
export const OVERLAP_CUT = 0.8;

/** Share of the answer's distinct content words found in the chunks (1 for an answer with none). */
export function wordOverlap(answer: string, chunks: readonly string[]): number {
  const words = (t: string): Set<string> => new Set(wordSegments(t).flatMap((s) => (s.isNumber || !STOP_WORDS.has(s.text) ? [s.text] : [])));
  const a = words(answer);
  if (a.size === 0) return 1;
  const c = new Set<string>();
  for (const k of chunks) for (const w of words(k)) c.add(w);
  let n = 0;
  for (const w of a) if (c.has(w)) n++;
  return n / a.size;
}
