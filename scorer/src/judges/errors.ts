/**
 * Typed errors of the judge layer. Only {@link JudgeCallError} crosses the retry helper; the judges
 * themselves never throw for one item (failures come back as `judge_error` values).
 */
export class JudgeError extends Error {
  override readonly name: string = "JudgeError";
}

/**
 * A failed HTTP call to the judge endpoint.
 * - `status`: HTTP status, or null for timeouts and connection failures.
 * - `retriable`: true for 408, 409, 429, 5xx, timeouts and connection failures (read by {@link withRetry}).
 * - `retryAfterMs`: the server's `Retry-After` / `retry-after-ms` header in ms, when sent.
 */
export class JudgeCallError extends JudgeError {
  override readonly name = "JudgeCallError";
  constructor(
    message: string,
    readonly status: number | null,
    readonly retriable: boolean,
    readonly retryAfterMs: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A configuration problem of the judge layer (e.g. `--max-cost` without a price for the model). */
export class JudgeConfigError extends JudgeError {
  override readonly name = "JudgeConfigError";
}
