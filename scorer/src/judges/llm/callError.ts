import { APIConnectionTimeoutError, APIError } from "openai";
import { JudgeCallError } from "../errors.js";

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
 * Classifies an error of the `openai` client (after its own retries): HTTP 408, 409, 429 and 5xx,
 * timeouts and connection failures are retriable; other statuses (400, 401, 404, …) are not.
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
