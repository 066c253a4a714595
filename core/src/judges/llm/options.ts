// Options of the LLM judge (createLlmJudge, ./llmJudge.ts).

/** Default judge window, tokens (system prompt + user message of one call, plus the reply's bound). */
export const DEFAULT_CONTEXT_TOKENS = 32_000;

/** Options of {@link createLlmJudge}. */
export interface LlmJudgeOptions {
  /** OpenAI-compatible endpoint, e.g. `http://127.0.0.1:8000/v1`. */
  readonly baseURL: string;
  readonly apiKey?: string;
  readonly model: string;
  /**
   * Time budget of one judgment, ms (`RAGMETER_JUDGE_TIMEOUT_MS`, default 60,000): all its calls
   * and their retries together, time queued behind the concurrency limit not counted.
   */
  readonly timeoutMs?: number;
  /**
   * Retries of a retriable HTTP failure (408, 409, 429, 5xx, connection), default 3: the one retry
   * helper's (@ragmeter/runtime `retry`, JUDGE_BACKOFF in ./transport.ts, `retry-after-ms`/`Retry-After`
   * honoured when longer; the `openai` client's own retries are off), all within the judgment's time budget.
   */
  readonly maxRetries?: number;
  /** Attempts when a reply cannot be parsed or validated (default 2). */
  readonly maxParseAttempts?: number;
  /**
   * Send the zod schema as `response_format: json_schema` (default true). An endpoint answering 400
   * with an error about `response_format` is asked again without it, and this judge stops sending it.
   */
  readonly structuredOutput?: boolean;
  /**
   * The judge window, tokens, for system prompt + user message (o200k_base plus a 20% margin) plus
   * the reply's output bound (default 32,000). A context-size 400 of the endpoint shrinks it.
   */
  readonly contextTokens?: number;
  /** Cap of every call's output bound, tokens (`RAGMETER_JUDGE_MAX_OUTPUT_TOKENS`, default 2048). */
  readonly maxOutputTokens?: number;
  /**
   * Tasks of the metric table's LLM forms this judge runs (`RAGMETER_JUDGE_EXTRA_TASKS`, default none):
   * each is one more call per answer, so they are asked for by name.
   */
  readonly extraTasks?: readonly string[];
  /** Judge calls in flight at once (default 8). */
  readonly concurrency?: number;
  /** Judge calls started per minute; unset = unlimited. */
  readonly rpm?: number | null;
}
