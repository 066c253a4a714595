import { countTokens } from "./tokens.js";

/**
 * Output bounds and window accounting of the LLM judges (issue 13). Every call is sent with an
 * output bound sized from its reply schema and the number of claims sent (issue 40); the window keeps room for that
 * reply and a margin for the model's own tokenizer.
 */

/** Default cap of any one call's output bound, tokens (`RAGMETER_JUDGE_MAX_OUTPUT_TOKENS`). */
export const DEFAULT_MAX_OUTPUT_TOKENS = 2048;

/**
 * Margin on the o200k count of a prompt: a model's own tokenizer counted 10–17% more than o200k on
 * the judge prompts (SmolLM2-135M behind llama.cpp, measured in issue 13), so prompts are
 * counted 20% larger than o200k says.
 */
export const TOKENIZER_MARGIN = 0.2;

/** Tokens of the reply's outer JSON. */
const REPLY_FRAME = 24;
/** Tokens of one verdict object without its passage ids: the verdict word, the keys, punctuation and a server's indentation. */
const VERDICT_BASE = 20;
/** Passage ids one verdict may cite (the reply schema's `maxItems`). */
export const MAX_CITED = 2;
/** Tokens around one cited id: quotes, comma, a line break and indentation. */
const PER_CITED = 4;
/** Bound of the relevance reply: a score and one sentence. */
const RELEVANCE_BOUND = 128;

/** Sentences of a text (. ! ? and their CJK forms, or a line break), at least 1: the expected number of claims. */
export function expectedClaims(text: string): number {
  const n = text
    .split(/[.!?。！？\n]+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0).length;
  return Math.max(1, n);
}

/** Tokens counted for a prompt (system + user), o200k plus {@link TOKENIZER_MARGIN}. */
export function promptTokens(system: string, user: string): number {
  return Math.ceil((countTokens(system) + countTokens(user)) * (1 + TOKENIZER_MARGIN));
}

const withMargin = (n: number) => Math.ceil(n * (1 + TOKENIZER_MARGIN));

/** Output bounds per reply kind, each capped by `cap`. */
export interface OutputBounds {
  /**
   * One verdict object per claim sent (ragmeter's own claims, issue 40): sized from the number of
   * claims and the longest of the passage ids a verdict may cite (at most {@link MAX_CITED}).
   */
  verdicts(claims: number, ids: readonly string[]): number;
  relevance(): number;
  /** One object per fact of the reference. */
  reference(reference: string): number;
  /** The larger bound of the one retry after `finish_reason: length`, or null when already at the cap. */
  retry(bound: number): number | null;
  readonly cap: number;
}

/** The output bounds of one judge, capped by `cap` (≥ 16). */
export function outputBounds(cap: number): OutputBounds {
  const capped = (n: number) => Math.min(cap, withMargin(n));
  return {
    cap,
    verdicts: (n, ids) => {
      const idTokens = Math.max(0, ...ids.map((id) => countTokens(id)));
      return capped(REPLY_FRAME + n * (VERDICT_BASE + Math.min(MAX_CITED, ids.length) * (idTokens + PER_CITED)));
    },
    relevance: () => capped(RELEVANCE_BOUND),
    reference: (reference) => capped(REPLY_FRAME + countTokens(reference) + expectedClaims(reference) * 16),
    retry: (bound) => (bound >= cap ? null : Math.min(cap, bound * 2)),
  };
}
