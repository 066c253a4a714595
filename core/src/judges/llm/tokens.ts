import { createRequire } from "node:module";

type O200k = typeof import("gpt-tokenizer/encoding/o200k_base");

const load = createRequire(import.meta.url);
let o200k: O200k | null = null;

/**
 * The o200k_base encoding, loaded on first use: its rank table costs about 20 MiB of heap and
 * 55 MiB of RSS, which a run with the heuristic judges never needs (issue 12).
 */
function encoding(): O200k {
  o200k ??= load("gpt-tokenizer/encoding/o200k_base") as O200k;
  return o200k;
}

/**
 * Tokens of `text` with the `o200k_base` encoding (GPT-4o / GPT-4.1 family), via gpt-tokenizer.
 * Other judge models tokenize differently; the window (`RAGMETER_JUDGE_CONTEXT_TOKENS`) should keep
 * a margin.
 */
export function countTokens(text: string): number {
  return encoding().countTokens(text);
}

/**
 * Splits `text` into pieces of at most `maxTokens` tokens each (o200k_base), in order.
 * @throws RangeError when maxTokens < 1.
 */
export function splitByTokens(text: string, maxTokens: number): string[] {
  if (maxTokens < 1) throw new RangeError("maxTokens must be ≥ 1");
  const { encode, decode } = encoding();
  const ids = encode(text);
  if (ids.length <= maxTokens) return [text];
  const out: string[] = [];
  for (let i = 0; i < ids.length; i += maxTokens) out.push(decode(ids.slice(i, i + maxTokens)));
  return out;
}
