import { type ErrorCode, RagmeterError, type RagmeterErrorOptions } from "@ragmeter/runtime";

/**
 * Typed errors of the judge layer. Only {@link JudgeCallError} crosses the retry helper; the judges
 * themselves never throw for one item (failures come back as `judge_error` values).
 */
class JudgeError extends RagmeterError {
  override readonly name: string = "JudgeError";
  constructor(message: string, options: { code?: ErrorCode; cause?: unknown } & Pick<RagmeterErrorOptions, "retriable" | "retryAfterMs" | "named"> = {}) {
    super(message, { ...options, code: options.code ?? "internal" });
  }
}

/**
 * A failed HTTP call to the judge endpoint.
 * - `status`: HTTP status, or null for timeouts and connection failures.
 * - `retriable`: true for 408, 409, 429, 5xx, timeouts and connection failures (read by the one retry helper, `retry` of @ragmeter/runtime).
 * - `retryAfterMs`: the server's `Retry-After` / `retry-after-ms` header in ms, when sent (the retry helper waits at least that).
 * - `badRequest`: for a 400, what its body is about (context size, `response_format`, `max_tokens`, `logprobs`, other).
 * - `context`: for a context-size 400, the endpoint's context and the prompt's tokens when the body says them.
 * - `timeout`: the call timed out (or the judgment's time budget ran out).
 */
export class JudgeCallError extends JudgeError {
  override readonly name = "JudgeCallError";
  constructor(
    message: string,
    readonly status: number | null,
    retriable: boolean,
    retryAfterMs: number | null,
    options?: {
      cause?: unknown;
      badRequest?: "context" | "response_format" | "max_tokens" | "logprobs" | "other";
      context?: { nCtx: number | null; promptTokens: number | null };
      timeout?: boolean;
    },
  ) {
    super(message, {
      code: status !== null && status >= 400 && status < 500 && !retriable ? "config" : "unavailable",
      retriable,
      retryAfterMs,
      cause: options?.cause,
      named: true,
    });
    this.badRequest = options?.badRequest ?? null;
    this.context = options?.context ?? null;
    this.timeout = options?.timeout ?? false;
  }
  readonly badRequest: "context" | "response_format" | "max_tokens" | "logprobs" | "other" | null;
  readonly context: { readonly nCtx: number | null; readonly promptTokens: number | null } | null;
  readonly timeout: boolean;
}

/** A configuration problem of the judge layer (e.g. `--max-cost` without a price for the model). */
export class JudgeConfigError extends JudgeError {
  override readonly name = "JudgeConfigError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "config", cause: options?.cause });
  }
}
