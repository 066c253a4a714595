// The LLM judge's calls to the endpoint: the OpenAI client, the rate limiter, retries within the
// judgment's time budget, what the endpoint taught this judge (structured output or not, the name of
// the output bound, its context window), output bounds widened once, replies read and checked.
import { type Backoff, retry } from "@ragmeter/runtime";
import OpenAI from "openai";
import { z } from "zod";
import { JudgeCallError } from "../errors.js";
import { markJudgeCalls } from "../ownCalls.js";
import { DEFAULT_MAX_OUTPUT_TOKENS, type OutputBounds, outputBounds, promptTokens, TOKENIZER_MARGIN } from "./bounds.js";
import { toJudgeCallError } from "./callError.js";
import { createEndpointPause } from "./endpointPause.js";
import { judgeFetch } from "./judgeFetch.js";
import { createRateLimiter, type RateLimiter } from "./limiter.js";
import { DEFAULT_CONTEXT_TOKENS, type LlmJudgeOptions } from "./options.js";
import { readReply } from "./readReply.js";
import { countTokens } from "./tokens.js";

export interface Tally {
  input_tokens: number;
  output_tokens: number;
  calls: number;
  /** Time inside calls, ms (not time queued behind the concurrency limit). */
  busy_ms: number;
}

export type Failure = { ok: false; reason: string; context?: boolean };
/** One generated token with its most likely alternatives (OpenAI `logprobs.content`). */
export interface TokenLogprob {
  readonly token: string;
  readonly logprob: number;
  /** The token's UTF-8 bytes, when the endpoint gives them (a token may hold part of a character). */
  readonly bytes?: readonly number[] | null;
  readonly top_logprobs?: readonly { readonly token: string; readonly logprob: number }[];
}
/** A call's result: the value read, and the reply's token log-probabilities when asked for and given. */
type Call<T> = { ok: true; value: T; content: string; logprobs: readonly TokenLogprob[] | null } | Failure;
interface Reply {
  content: string;
  finish: string | null;
  logprobs: readonly TokenLogprob[] | null;
}

/** Alternatives asked for per generated token when a call wants log-probabilities. */
const TOP_LOGPROBS = 10;

/** Backoff between retries of a judge call (as the `openai` client's: from 0.5 s, doubling, at most 8 s), randomised. */
const JUDGE_BACKOFF: Backoff = { factor: 2, minTimeout: 500, maxTimeout: 8_000, randomize: true };

/** A new, empty tally of one judgment's calls. */
export const newTally = (): Tally => ({ input_tokens: 0, output_tokens: 0, calls: 0, busy_ms: 0 });

/** What a judgment reports of its calls. */
export const costOf = (t: Tally) => ({ input_tokens: t.input_tokens, output_tokens: t.output_tokens, calls: t.calls, latency_ms: t.busy_ms });

/** The judge's line to its endpoint (see {@link createJudgeTransport}). */
export interface JudgeTransport {
  /** The output bounds of each kind of call. */
  readonly bounds: OutputBounds;
  /** The judge window now, tokens (a context-size 400 shrinks it). */
  window(): number;
  /** Whether a call of `system` + `user` with the reply's `bound` fits the window. */
  fits(system: string, user: string, bound: number): boolean;
  /**
   * One judge call: sent (with retries and the endpoint's 400s learnt), its reply read with `read`
   * and `check`, parse attempts repeated, a truncated reply retried once with a larger bound.
   */
  call<T>(
    system: string,
    user: string,
    name: string,
    schema: z.ZodType,
    read: z.ZodType<T>,
    firstBound: number,
    tally: Tally,
    check?: (v: T) => string | null,
    options?: { readonly logprobs?: boolean },
  ): Promise<Call<T>>;
}

/** The reason of a judgment whose time budget ran out. */
const timeoutReason = (budgetMs: number) => `timed out: the judgment used its time budget of ${budgetMs} ms (RAGMETER_JUDGE_TIMEOUT_MS)`;

/** The chat completion request of one judge call: temperature 0, the output bound, and the reply schema and log-probabilities where asked. */
function requestBody(
  model: string,
  system: string,
  user: string,
  o: { name: string; schema: z.ZodType; withFormat: boolean; withLogprobs: boolean; boundParam: "max_tokens" | "max_completion_tokens"; bound: number },
) {
  return {
    model,
    temperature: 0,
    messages: [
      { role: "system" as const, content: system },
      { role: "user" as const, content: user },
    ],
    [o.boundParam]: o.bound,
    ...(o.withLogprobs ? { logprobs: true, top_logprobs: TOP_LOGPROBS } : {}),
    ...(o.withFormat
      ? { response_format: { type: "json_schema" as const, json_schema: { name: o.name, strict: true, schema: z.toJSONSchema(o.schema) as Record<string, unknown> } } }
      : {}),
  };
}

/** A completion's reply, its usage added to the tally. */
function replyOf(res: OpenAI.Chat.ChatCompletion, tally: Tally): Reply {
  tally.input_tokens += res.usage?.prompt_tokens ?? 0;
  tally.output_tokens += res.usage?.completion_tokens ?? 0;
  const choice = res.choices[0];
  return {
    content: choice?.message.content ?? "",
    finish: choice?.finish_reason ?? null,
    logprobs: (choice?.logprobs?.content as TokenLogprob[] | null | undefined) ?? null,
  };
}

/** The call that failed to send: the endpoint's context too small (`shrink` shrinks its window), the budget spent, or the HTTP failure. */
function sendFailed(err: unknown, system: string, user: string, shrink: (err: JudgeCallError, o200k: number) => void): Failure {
  if (err instanceof JudgeCallError && err.badRequest === "context") {
    shrink(err, countTokens(system) + countTokens(user));
    return { ok: false, context: true, reason: `the endpoint's context is too small: ${err.message}` };
  }
  if (err instanceof JudgeCallError && err.timeout) return { ok: false, reason: err.message };
  return { ok: false, reason: `judge call failed: ${(err as Error).message}` };
}

/** The output bound of a call's sends, and whether it was widened once already. */
type Size = { bound: number; widened: boolean };

/** The transport of one LLM judge (its state is the endpoint's: one per judge). */
export function createJudgeTransport(options: LlmJudgeOptions): JudgeTransport {
  const budgetMs = options.timeoutMs ?? 60_000;
  // the client's own fetch: the budget is its only time bound (not undici's 300 s default, ./judgeFetch.ts)
  const http = judgeFetch(budgetMs);
  const client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey ?? "none", timeout: budgetMs, maxRetries: 0, fetch: http });
  const retries = options.maxRetries ?? 3;
  const attempts = options.maxParseAttempts ?? 2;
  let window = options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  const bounds = outputBounds(Math.max(16, options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS));
  const limiter: RateLimiter = createRateLimiter({ concurrency: options.concurrency ?? 8, rpm: options.rpm ?? null });
  let structured = options.structuredOutput ?? true;
  // `max_tokens`, and log-probabilities where a call wants them, until the endpoint's 400 says otherwise
  let boundParam: "max_tokens" | "max_completion_tokens" = "max_tokens";
  let logprobsOn = true;
  const pause = createEndpointPause(budgetMs);
  const marked = markJudgeCalls(options.model);

  async function once(system: string, user: string, name: string, schema: z.ZodType, withFormat: boolean, withLogprobs: boolean, bound: number, tally: Tally): Promise<Reply> {
    const body = requestBody(options.model, system, user, { name, schema, withFormat, withLogprobs, boundParam, bound });
    const sent = countTokens(system) + countTokens(user);
    // Every HTTP request of the call, the client's retries included, is counted; a request that
    // failed without a reply (timed out, reset) stores the prompt tokens it sent (o200k count), as no usage comes back.
    const counted = client.withOptions({
      fetch: async (url, init) => {
        tally.calls++;
        try {
          return await http(url, init);
        } catch (err) {
          tally.input_tokens += sent;
          throw err;
        }
      },
    });
    return limiter.schedule(async () => {
      const t0 = performance.now();
      // What is left of the judgment's budget: the time of earlier calls and of this call's attempts and waits counted.
      const remaining = () => Math.floor(budgetMs - tally.busy_ms - (performance.now() - t0));
      const attempt = async (): Promise<Reply> => {
        // The endpoint's pause (a Retry-After it sent any call of this judge), within the budget.
        await pause.before(remaining());
        const left = remaining();
        if (left <= 0) throw new JudgeCallError(timeoutReason(budgetMs), null, false, null, { timeout: true });
        try {
          const res = await marked(() =>
            counted.chat.completions.create(body as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, {
              timeout: left,
              signal: AbortSignal.timeout(left),
            }),
          );
          return replyOf(res, tally);
        } catch (err) {
          const e = toJudgeCallError(err);
          // a request aborted at the budget's end is the budget running out: not retriable
          if (e.timeout) throw new JudgeCallError(timeoutReason(budgetMs), null, false, null, { cause: e, timeout: true });
          // Every call of this judge holds back for the endpoint's Retry-After, within the budget.
          throw pause.after(e, remaining());
        }
      };
      try {
        return await retry(attempt, { retries, backoff: JUDGE_BACKOFF, keepGoing: () => remaining() > 0 });
      } finally {
        tally.busy_ms += performance.now() - t0;
      }
    });
  }

  /**
   * One judge request with retries. A 400 about `response_format` switches structured output off for
   * this endpoint and asks again; a 400 about `max_tokens` switches to `max_completion_tokens`; a 400
   * about `logprobs` stops asking this endpoint for them.
   */
  async function send(system: string, user: string, name: string, schema: z.ZodType, bound: number, tally: Tally, wantLogprobs: boolean): Promise<Reply> {
    for (let turn = 0; ; turn++) {
      const withFormat = structured;
      const withLogprobs = wantLogprobs && logprobsOn;
      const param = boundParam;
      try {
        return await once(system, user, name, schema, withFormat, withLogprobs, bound, tally);
      } catch (err) {
        if (turn >= 3 || !learnt(err, withFormat, withLogprobs, param)) throw err;
      }
    }
  }

  /**
   * Learns from a 400 what the endpoint does not take (structured output, `max_tokens`, log-probabilities)
   * when the request asked for it, and switches it off; false when the error teaches nothing.
   */
  function learnt(err: unknown, withFormat: boolean, withLogprobs: boolean, param: "max_tokens" | "max_completion_tokens"): boolean {
    if (!(err instanceof JudgeCallError) || err.status !== 400) return false;
    if (err.badRequest === "response_format" && withFormat) structured = false;
    else if (err.badRequest === "max_tokens" && param === "max_tokens") boundParam = "max_completion_tokens";
    else if (err.badRequest === "logprobs" && withLogprobs) logprobsOn = false;
    else return false;
    return true;
  }

  /**
   * Shrinks this endpoint's window after its context-size 400: to its `n_ctx`, and when its
   * tokenizer counted this prompt more than o200k plus the margin, by that ratio. Always shrinks.
   */
  function shrinkWindow(err: JudgeCallError, o200k: number): void {
    const nCtx = err.context?.nCtx ?? window;
    const theirs = err.context?.promptTokens ?? null;
    // at most 2: a count far over ours is not this prompt's (no tokenizer counts 2× o200k on text)
    const ratio = theirs !== null && o200k > 0 ? Math.min(2, theirs / o200k) : 1;
    const next = ratio > 1 + TOKENIZER_MARGIN ? Math.floor((nCtx * (1 + TOKENIZER_MARGIN)) / ratio) : nCtx;
    window = Math.min(next, Math.floor(window * 0.9));
  }

  /**
   * A reply that did not hit its output bound: sent, and sent once more with a larger bound when the
   * reply was truncated (once per call: `size` keeps the bound for the later parse attempts, and that
   * retry is not a parse attempt); a failure to send or a second truncation as a value.
   */
  async function untruncated(system: string, user: string, name: string, schema: z.ZodType, size: Size, tally: Tally, logprobs: boolean): Promise<Reply | Failure> {
    for (;;) {
      let reply: Reply;
      try {
        reply = await send(system, user, name, schema, size.bound, tally, logprobs);
      } catch (err) {
        return sendFailed(err, system, user, shrinkWindow);
      }
      if (reply.finish !== "length") return reply;
      const larger = size.widened ? null : bounds.retry(size.bound);
      if (larger === null) return { ok: false, reason: `reply truncated at ${size.bound} tokens` };
      size.bound = larger;
      size.widened = true;
    }
  }

  async function call<T>(
    system: string,
    user: string,
    name: string,
    schema: z.ZodType,
    read: z.ZodType<T>,
    firstBound: number,
    tally: Tally,
    check?: (v: T) => string | null,
    options?: { readonly logprobs?: boolean },
  ): Promise<Call<T>> {
    let reason = "no attempt made";
    const size: Size = { bound: firstBound, widened: false };
    for (let attempt = 0; attempt < attempts; attempt++) {
      const reply = await untruncated(system, user, name, schema, size, tally, options?.logprobs === true);
      if ("ok" in reply) return reply;
      const got = readReply(reply.content, read, check);
      if (got.ok) return { ...got, content: reply.content, logprobs: reply.logprobs };
      reason = got.reason;
    }
    return { ok: false, reason: `${reason} (after ${attempts} attempts)` };
  }

  return {
    bounds,
    window: () => window,
    fits: (system, user, bound) => promptTokens(system, user) + bound <= window,
    call,
  };
}
