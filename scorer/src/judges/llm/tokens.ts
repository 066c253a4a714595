import { countTokens as count, decode, encode } from "gpt-tokenizer/encoding/o200k_base";

/**
 * Tokens of `text` with the `o200k_base` encoding (GPT-4o / GPT-4.1 family), via gpt-tokenizer.
 * Other judge models tokenize differently; the window (`RAGMETER_JUDGE_CONTEXT_TOKENS`) should keep
 * a margin.
 */
export function countTokens(text: string): number {
  return count(text);
}

/**
 * Splits `text` into pieces of at most `maxTokens` tokens each (o200k_base), in order.
 * @throws RangeError when maxTokens < 1.
 */
export function splitByTokens(text: string, maxTokens: number): string[] {
  if (maxTokens < 1) throw new RangeError("maxTokens must be ≥ 1");
  const ids = encode(text);
  if (ids.length <= maxTokens) return [text];
  const out: string[] = [];
  for (let i = 0; i < ids.length; i += maxTokens) out.push(decode(ids.slice(i, i + maxTokens)));
  return out;
}
