import type { CascadeOptions } from "./options.js";

/** Why an answer in the band stayed with tier 1, or null when it may go to the LLM. */
export type BudgetVerdict = string | null;

/**
 * The LLM budget of one cascade judge (one run): counts the grounding answers seen and those sent,
 * and says whether the next answer in the band may go. Synchronous, so concurrent judgments of one
 * run share it without races (JavaScript runs one at a time between awaits).
 */
export class CascadeBudget {
  #seen = 0;
  #sent = 0;
  constructor(private readonly options: Pick<CascadeOptions, "maxShare" | "maxAnswers">) {}

  /** Counts one grounding answer seen (in the band or not). */
  seen(): void {
    this.#seen++;
  }

  /** Takes one LLM slot for an answer in the band: null when taken, else why not. */
  take(): BudgetVerdict {
    const { maxShare, maxAnswers } = this.options;
    if (maxAnswers !== null && this.#sent >= maxAnswers) return `RAGMETER_CASCADE_MAX_ANSWERS ${maxAnswers} reached`;
    if (maxShare !== null && this.#sent >= maxShare * this.#seen) return `RAGMETER_CASCADE_MAX_SHARE ${maxShare} reached (${this.#sent} of ${this.#seen} answers sent)`;
    this.#sent++;
    return null;
  }

  /** Answers seen and sent so far. */
  counts(): { readonly seen: number; readonly sent: number } {
    return { seen: this.#seen, sent: this.#sent };
  }
}
