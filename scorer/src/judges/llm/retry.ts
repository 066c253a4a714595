import { APIConnectionTimeoutError, APIError } from "openai";
import { JudgeCallError } from "../errors.js";

/** Backoff settings of {@link withRetry}. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 = no retry). */
  readonly retries: number;
  /** First backoff ceiling, ms (doubled per retry). Default 500. */
  readonly baseMs?: number;
  /** Largest backoff ceiling, ms. Default 30,000. */
  readonly maxMs?: number;
  /** Longest `Retry-After` honoured, ms (longer waits are capped). Default 120,000. */
  readonly maxRetryAfterMs?: number;
  /** Uniform random in [0, 1) (tests inject a fixed one). Default `Math.random`. */
  readonly random?: () => number;
  /** Sleep (tests may inject). Default `setTimeout`. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Default sleep. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Parses `retry-after-ms` (ms) or `Retry-After` (seconds, or an HTTP date) into ms.
 * @returns null when absent or unreadable.
 */
export function retryAfterMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get("retry-after");
  if (ra === null || ra.trim() === "") return null;
  if (/^\d+(\.\d+)?$/u.test(ra.trim())) return Math.max(0, Number(ra) * 1000);
  const t = Date.parse(ra);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}

/**
 * Classifies an error of the `openai` client: HTTP 408, 409, 429 and 5xx, timeouts and connection
 * failures are retriable; other statuses (400, 401, 404, …) are not.
 */
export function toJudgeCallError(err: unknown): JudgeCallError {
  if (err instanceof JudgeCallError) return err;
  if (err instanceof APIConnectionTimeoutError) return new JudgeCallError(`timed out: ${err.message}`, null, true, null, { cause: err });
  if (err instanceof APIError) {
    const status = typeof err.status === "number" ? err.status : null;
    if (status === null) return new JudgeCallError(err.message, null, true, null, { cause: err });
    const retriable = status === 408 || status === 409 || status === 429 || status >= 500;
    return new JudgeCallError(err.message, status, retriable, retryAfterMs(err.headers as { get(name: string): string | null } | undefined), { cause: err });
  }
  return new JudgeCallError((err as Error)?.message ?? String(err), null, false, null, { cause: err });
}

/**
 * Delay before retry number `attempt` (0-based): the server's Retry-After when given (capped at
 * `maxRetryAfterMs`), else "full jitter" exponential backoff, uniform in [0, min(maxMs, baseMs·2^attempt))
 * (Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog, 2015).
 */
export function backoffDelay(attempt: number, err: JudgeCallError, policy: RetryPolicy): number {
  if (err.retryAfterMs !== null) return Math.min(err.retryAfterMs, policy.maxRetryAfterMs ?? 120_000);
  const ceiling = Math.min(policy.maxMs ?? 30_000, (policy.baseMs ?? 500) * 2 ** attempt);
  return Math.floor((policy.random ?? Math.random)() * ceiling);
}

/**
 * Runs `fn`, retrying {@link JudgeCallError}s whose `retriable` flag is set, at most
 * `policy.retries` times, waiting {@link backoffDelay} between attempts.
 * @throws the last JudgeCallError (non-retriable, or retries exhausted).
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      const err = toJudgeCallError(e);
      if (!err.retriable || attempt >= policy.retries) throw err;
      await (policy.sleep ?? sleep)(backoffDelay(attempt, err, policy));
    }
  }
}
