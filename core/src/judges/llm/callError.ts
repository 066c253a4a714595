import { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
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

/** What an HTTP 400 of the judge endpoint is about, read from its body. */
export type BadRequestKind = "context" | "response_format" | "max_tokens" | "logprobs" | "other";

/** The fields of an error body (OpenAI envelope `{"error": {...}}`, as the `openai` client exposes it) read here. */
interface ErrorBody {
  readonly type?: unknown;
  readonly code?: unknown;
  readonly param?: unknown;
  readonly message?: unknown;
  readonly n_ctx?: unknown;
  readonly n_prompt_tokens?: unknown;
}

// OpenAI `context_length_exceeded`; llama.cpp `exceed_context_size_error` / "exceeds the available
// context size"; vLLM "maximum context length is N tokens" / max_model_len.
const CONTEXT_TEXT = /context_length_exceeded|exceed_context_size|exceeds the available context size|maximum context length|max[_-]model[_-]len|context window|too many tokens/iu;
const RESPONSE_FORMAT_TEXT = /response_format|json_schema|structured output|grammar/iu;
const LOGPROBS_TEXT = /logprobs/iu;
const MAX_TOKENS_TEXT = /'max_tokens'|"max_tokens"|max_tokens.*(not supported|unsupported)|max_completion_tokens/iu;

/** Classifies a 400 by its body: context size, `response_format`, the `max_tokens` parameter, `logprobs`, or something else. */
export function badRequestKind(message: string, body: ErrorBody | undefined): BadRequestKind {
  const text = [message, body?.type, body?.code, body?.param, body?.message].filter((v) => typeof v === "string").join(" ");
  if (CONTEXT_TEXT.test(text)) return "context";
  if (body?.param === "max_tokens" || MAX_TOKENS_TEXT.test(text)) return "max_tokens";
  if (body?.param === "logprobs" || body?.param === "top_logprobs" || LOGPROBS_TEXT.test(text)) return "logprobs";
  if (body?.param === "response_format" || RESPONSE_FORMAT_TEXT.test(text)) return "response_format";
  return "other";
}

/** The endpoint's context size from a context-size error: llama.cpp's `n_ctx`, or the number in vLLM/OpenAI's message. */
export function contextSizeOf(message: string, body: ErrorBody | undefined): { nCtx: number | null; promptTokens: number | null } {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);
  const fromText = /maximum context length is (\d+)/iu.exec(message) ?? /context size \((\d+) tokens\)/iu.exec(message);
  const promptText = /request \((\d+) tokens\)/iu.exec(message) ?? /requested (\d+) tokens/iu.exec(message);
  return {
    nCtx: num(body?.n_ctx) ?? (fromText ? Number(fromText[1]) : null),
    promptTokens: num(body?.n_prompt_tokens) ?? (promptText ? Number(promptText[1]) : null),
  };
}

/**
 * Classifies an error of the `openai` client (its own retries are off: the retry helper reads `retriable`): HTTP 408, 409, 429 and 5xx,
 * timeouts and connection failures are retriable; other statuses (400, 401, 404, …) are not. A 400
 * carries what its body is about ({@link badRequestKind}); an abort by the judgment's time budget
 * is a timeout.
 */
export function toJudgeCallError(err: unknown): JudgeCallError {
  if (err instanceof JudgeCallError) return err;
  if (err instanceof APIConnectionTimeoutError || err instanceof APIUserAbortError)
    return new JudgeCallError(`timed out: ${err.message}`, null, true, null, { cause: err, timeout: true });
  if (err instanceof APIError) return apiCallError(err);
  return new JudgeCallError((err as Error)?.message ?? String(err), null, false, null, { cause: err });
}

/** An HTTP error of the API: 408, 409, 429 and 5xx (or no status) retriable; a 400 with what its body is about. */
function apiCallError(err: APIError): JudgeCallError {
  const status = typeof err.status === "number" ? err.status : null;
  if (status === null) return new JudgeCallError(err.message, null, true, null, { cause: err });
  const retriable = status === 408 || status === 409 || status === 429 || status >= 500;
  const body = (typeof err.error === "object" && err.error !== null ? err.error : undefined) as ErrorBody | undefined;
  const kind = status === 400 ? badRequestKind(err.message, body) : undefined;
  return new JudgeCallError(err.message, status, retriable, retryAfterMs(err.headers as { get(name: string): string | null } | undefined), {
    cause: err,
    ...(kind !== undefined ? { badRequest: kind } : {}),
    ...(kind === "context" ? { context: contextSizeOf(err.message, body) } : {}),
  });
}
