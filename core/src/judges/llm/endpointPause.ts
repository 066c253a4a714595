import { setTimeout as sleep } from "node:timers/promises";
import { JudgeCallError } from "../errors.js";

/**
 * The endpoint's Retry-After, for every call of one judge (issue 38): a 429 or 5xx that says how
 * long to wait holds back this judge's next attempts, not only the retry of the call that got it,
 * and a wait longer than what is left of a judgment's time budget (`RAGMETER_JUDGE_TIMEOUT_MS`)
 * ends that judgment at once instead of sleeping past the budget.
 */
export interface EndpointPause {
  /** Waits out the endpoint's pause before an attempt with `leftMs` of budget; throws (not retriable) when the pause is longer. */
  before(leftMs: number): Promise<void>;
  /** Notes a failed attempt's Retry-After; returns the error to throw (not retriable when the wait is longer than `leftMs`). */
  after(e: JudgeCallError, leftMs: number): JudgeCallError;
}

/** The pause of one judge whose judgments have `budgetMs` each. */
export function createEndpointPause(budgetMs: number): EndpointPause {
  // Until when the endpoint asked this judge to wait (its latest Retry-After), performance.now() ms.
  let until = 0;
  const pastBudget = (waitMs: number, leftMs: number) =>
    `the endpoint asked to wait ${(waitMs / 1000).toFixed(1)} s (Retry-After), more than the ${Math.max(0, leftMs)} ms left of the judgment's time budget of ${budgetMs} ms (RAGMETER_JUDGE_TIMEOUT_MS)`;
  return {
    async before(leftMs) {
      const pause = until - performance.now();
      if (pause <= 0) return;
      if (pause >= leftMs) throw new JudgeCallError(`paused by the endpoint: ${pastBudget(pause, leftMs)}`, null, false, null, { timeout: true });
      await sleep(pause);
    },
    after(e, leftMs) {
      if (!e.retriable || e.retryAfterMs === null) return e;
      until = Math.max(until, performance.now() + e.retryAfterMs);
      return e.retryAfterMs >= leftMs ? new JudgeCallError(`${e.message}; ${pastBudget(e.retryAfterMs, leftMs)}`, e.status, false, null, { cause: e }) : e;
    },
  };
}
