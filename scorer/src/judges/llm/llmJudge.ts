import { type Backoff, retry } from "@ragmeter/runtime";
import OpenAI from "openai";
import { z } from "zod";
import type { Status } from "../../domain/status.js";
import { JudgeCallError } from "../errors.js";
import {
  CLAIMS_PROMPT,
  claimsUserMessage,
  GROUNDING_PROMPT,
  groundingUserMessage,
  promptVersion,
  REFERENCE_PROMPT,
  RELEVANCE_PROMPT,
  referenceUserMessage,
  relevanceUserMessage,
  VERIFY_PROMPT,
  verifyUserMessage,
} from "../prompts.js";
import type {
  ClaimVerdict,
  GroundingInput,
  GroundingJudgment,
  Judge,
  JudgeChunk,
  ReferenceInput,
  ReferenceJudgment,
  RelevanceInput,
  RelevanceJudgment,
  Verdict,
} from "../types.js";
import { DEFAULT_MAX_OUTPUT_TOKENS, outputBounds, promptTokens, TOKENIZER_MARGIN } from "./bounds.js";
import { toJudgeCallError } from "./callError.js";
import { isPlaceholder, verdictProblem } from "./checks.js";
import { createRateLimiter, type RateLimiter } from "./limiter.js";
import { readReply } from "./readReply.js";
import { countTokens, splitByTokens } from "./tokens.js";

const verdictEnum = z.enum(["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"]);

/** One claim of a grounding reply: the claim, a short reasoning, then the verdict and the passages it rests on. */
const claimItemSchema = z.object({
  claim: z.string(),
  reasoning: z.string(),
  verdict: verdictEnum,
  chunk_ids: z.array(z.string()),
});

/** Reply schema of the grounding judge (sent as `response_format`): one object per claim, so verdicts are one to one with claims. */
const groundingReplySchema = z.object({ claims: z.array(claimItemSchema) });

/** The older two-list shape (`claims` strings + `verdicts`), still read when a model answers with it; one-to-one is checked. */
const legacyGroundingSchema = z.object({
  claims: z.array(z.string()),
  verdicts: z.array(z.object({ verdict: verdictEnum, chunk_ids: z.array(z.string()) })),
});

type ClaimItem = z.infer<typeof claimItemSchema>;

/** What a grounding or verification reply is read as: one item per claim, or the problem of a legacy reply. */
const groundingReadSchema = z.union([
  groundingReplySchema.transform((v): ClaimItem[] | string => v.claims),
  legacyGroundingSchema.transform((v): ClaimItem[] | string =>
    v.verdicts.length !== v.claims.length
      ? `${v.verdicts.length} verdicts for ${v.claims.length} claims`
      : v.claims.map((claim, i) => ({ claim, reasoning: "", ...(v.verdicts[i] as { verdict: Verdict; chunk_ids: string[] }) })),
  ),
  z.object({ verdicts: legacyGroundingSchema.shape.verdicts }).transform((v): ClaimItem[] | string => v.verdicts.map((x) => ({ claim: "", reasoning: "", ...x }))),
]);

/** Reply schema of the claim-extraction step (long contexts). */
const claimsReplySchema = z.object({ claims: z.array(z.string()) });

/** Reply schema of the verification step (long contexts): one object per given claim (as the grounding reply). */
const verifyReplySchema = groundingReplySchema;

/** Reply schema of the relevance judge: an integer 0–4 in `score` (7 is an error, not a 4). */
const relevanceReplySchema = z.object({
  score: z.number().int().min(0).max(4),
  reason: z.string(),
});

/** Reply schema of the reference-based judge. */
const referenceReplySchema = z.object({
  facts: z.array(z.object({ fact: z.string(), stated: z.boolean() })),
});

/** Default judge window, tokens (system prompt + user message of one call, plus the reply's bound). */
const DEFAULT_CONTEXT_TOKENS = 32_000;

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
   * helper's (@ragmeter/runtime `retry`, {@link JUDGE_BACKOFF}, `retry-after-ms`/`Retry-After`
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
  /** Judge calls in flight at once (default 8). */
  readonly concurrency?: number;
  /** Judge calls started per minute; unset = unlimited. */
  readonly rpm?: number | null;
}

interface Tally {
  input_tokens: number;
  output_tokens: number;
  calls: number;
  /** Time inside calls, ms (not time queued behind the concurrency limit). */
  busy_ms: number;
}

type Failure = { ok: false; reason: string; context?: boolean };
type Call<T> = { ok: true; value: T } | Failure;
interface Reply {
  content: string;
  finish: string | null;
}

/** Backoff between retries of a judge call (as the `openai` client's: from 0.5 s, doubling, at most 8 s), randomised. */
const JUDGE_BACKOFF: Backoff = { factor: 2, minTimeout: 500, maxTimeout: 8_000, randomize: true };

/**
 * LLM judges through the `openai` client (temperature 0; design §5). Each reply is validated with
 * zod; a reply in prose, in a code fence or holding several JSON blocks is read by {@link readReply}
 * (the last block that validates and passes the call's check). Every call is sent with an
 * output bound ({@link outputBounds}); a reply cut by it gets one retry with a larger bound, then
 * `judge_error` "reply truncated at N tokens". An unparseable reply, a placeholder claim, a verdict
 * citing a chunk that is not among the passages, or a relevance score outside 0–4 give `judge_error`
 * after `maxParseAttempts`; an HTTP failure after the retries gives `judge_error` with the reason;
 * the judgment's time budget running out gives `judge_error` naming `RAGMETER_JUDGE_TIMEOUT_MS`.
 * A grounding context longer than the window (counted, or said by the endpoint's context-size 400)
 * is handled by claim extraction then verification per part (SUPPORTED in any part wins, else
 * CONTRADICTED in any part, else UNSUPPORTED); when even the claims with an empty part cannot fit,
 * `context_too_long`. Never throws for one item.
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const budgetMs = options.timeoutMs ?? 60_000;
  const client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey ?? "none", timeout: budgetMs, maxRetries: 0 });
  const retries = options.maxRetries ?? 3;
  const attempts = options.maxParseAttempts ?? 2;
  let window = options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  const bounds = outputBounds(Math.max(16, options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS));
  const limiter: RateLimiter = createRateLimiter({ concurrency: options.concurrency ?? 8, rpm: options.rpm ?? null });
  let structured = options.structuredOutput ?? true;
  // `max_tokens` until the endpoint says (400) it wants `max_completion_tokens`.
  let boundParam: "max_tokens" | "max_completion_tokens" = "max_tokens";

  const timeoutReason = () => `timed out: the judgment used its time budget of ${budgetMs} ms (RAGMETER_JUDGE_TIMEOUT_MS)`;

  async function once(system: string, user: string, name: string, schema: z.ZodType, withFormat: boolean, bound: number, tally: Tally): Promise<Reply> {
    const body = {
      model: options.model,
      temperature: 0,
      messages: [
        { role: "system" as const, content: system },
        { role: "user" as const, content: user },
      ],
      [boundParam]: bound,
      ...(withFormat ? { response_format: { type: "json_schema" as const, json_schema: { name, strict: true, schema: z.toJSONSchema(schema) as Record<string, unknown> } } } : {}),
    };
    const sent = countTokens(system) + countTokens(user);
    // Every HTTP request of the call, the client's retries included, is counted; a request that
    // timed out (aborted) stores the prompt tokens it sent (o200k count), as no usage comes back.
    const counted = client.withOptions({
      fetch: async (url, init) => {
        tally.calls++;
        try {
          return await fetch(url, init);
        } catch (err) {
          if (init?.signal?.aborted) tally.input_tokens += sent;
          throw err;
        }
      },
    });
    return limiter.schedule(async () => {
      const t0 = performance.now();
      // What is left of the judgment's budget: the time of earlier calls and of this call's attempts and waits counted.
      const remaining = () => Math.floor(budgetMs - tally.busy_ms - (performance.now() - t0));
      const attempt = async (): Promise<Reply> => {
        const left = remaining();
        if (left <= 0) throw new JudgeCallError(timeoutReason(), null, false, null, { timeout: true });
        try {
          const res = await counted.chat.completions.create(body as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, {
            timeout: left,
            signal: AbortSignal.timeout(left),
          });
          tally.input_tokens += res.usage?.prompt_tokens ?? 0;
          tally.output_tokens += res.usage?.completion_tokens ?? 0;
          const choice = res.choices[0];
          return { content: choice?.message.content ?? "", finish: choice?.finish_reason ?? null };
        } catch (err) {
          const e = toJudgeCallError(err);
          // a request aborted at the budget's end is the budget running out: not retriable
          throw e.timeout ? new JudgeCallError(timeoutReason(), null, false, null, { cause: e, timeout: true }) : e;
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
   * this endpoint and asks again; a 400 about `max_tokens` switches to `max_completion_tokens`.
   */
  async function send(system: string, user: string, name: string, schema: z.ZodType, bound: number, tally: Tally): Promise<Reply> {
    for (let turn = 0; ; turn++) {
      const withFormat = structured;
      const param = boundParam;
      try {
        return await once(system, user, name, schema, withFormat, bound, tally);
      } catch (err) {
        if (turn >= 2 || !(err instanceof JudgeCallError) || err.status !== 400) throw err;
        if (err.badRequest === "response_format" && withFormat) structured = false;
        else if (err.badRequest === "max_tokens" && param === "max_tokens") boundParam = "max_completion_tokens";
        else throw err;
      }
    }
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

  async function call<T>(
    system: string,
    user: string,
    name: string,
    schema: z.ZodType,
    read: z.ZodType<T>,
    firstBound: number,
    tally: Tally,
    check?: (v: T) => string | null,
  ): Promise<Call<T>> {
    let reason = "no attempt made";
    let bound = firstBound;
    let widened = false;
    for (let attempt = 0; attempt < attempts; attempt++) {
      let reply: Reply;
      try {
        reply = await send(system, user, name, schema, bound, tally);
      } catch (err) {
        if (err instanceof JudgeCallError && err.badRequest === "context") {
          shrinkWindow(err, countTokens(system) + countTokens(user));
          return { ok: false, context: true, reason: `the endpoint's context is too small: ${err.message}` };
        }
        if (err instanceof JudgeCallError && err.timeout) return { ok: false, reason: err.message };
        return { ok: false, reason: `judge call failed: ${(err as Error).message}` };
      }
      if (reply.finish === "length") {
        const larger = widened ? null : bounds.retry(bound);
        if (larger === null) return { ok: false, reason: `reply truncated at ${bound} tokens` };
        bound = larger;
        widened = true;
        attempt--; // the retry with a larger bound is not a parse attempt
        continue;
      }
      const got = readReply(reply.content, read, check);
      if (got.ok) return got;
      reason = got.reason;
    }
    return { ok: false, reason: `${reason} (after ${attempts} attempts)` };
  }

  const fits = (system: string, user: string, bound: number) => promptTokens(system, user) + bound <= window;
  const claimsCheck =
    (ids: ReadonlySet<string>, given?: readonly string[]) =>
    (v: ClaimItem[] | string): string | null => {
      if (typeof v === "string") return v;
      if (given !== undefined && v.length !== given.length) return `${v.length} verdicts for ${given.length} claims`;
      return verdictProblem(
        v.map((c, i) => (given !== undefined && c.claim.trim() === "" ? { ...c, claim: given[i] ?? "" } : c)),
        ids,
      );
    };

  /**
   * Packs chunks (rank order) into parts whose verification message fits the window (measured on
   * the real message, with the reply's bound); a chunk too long for a part of its own is split by tokens.
   * @returns null when the claims with an empty part already exceed the window.
   */
  function parts(question: string, claims: readonly string[], chunks: readonly JudgeChunk[]): JudgeChunk[][] | null {
    const reserve = bounds.verify(claims);
    const size = (part: readonly JudgeChunk[]) => promptTokens(VERIFY_PROMPT, verifyUserMessage(question, claims, part)) + reserve;
    if (size([]) > window) return null;
    const out: JudgeChunk[][] = [];
    let cur: JudgeChunk[] = [];
    for (const c of chunks) {
      let pieces: JudgeChunk[] = [c];
      if (size([c]) > window) {
        // the room in o200k tokens, less the margin; 4 more: a piece cut at a token boundary can re-encode slightly longer
        const room = Math.floor((window - size([{ id: c.id, text: "" }])) / (1 + TOKENIZER_MARGIN)) - 4;
        if (room < 1) return null;
        pieces = splitByTokens(c.text, room).map((text) => ({ id: c.id, text }));
      }
      for (const p of pieces) {
        if (cur.length > 0 && size([...cur, p]) > window) {
          out.push(cur);
          cur = [];
        }
        cur.push(p);
      }
    }
    if (cur.length > 0) out.push(cur);
    return out;
  }

  async function longGrounding(
    input: GroundingInput,
    chunks: readonly JudgeChunk[],
    ids: ReadonlySet<string>,
    tally: Tally,
  ): Promise<{ status: Status; claims: ClaimVerdict[]; reason?: string }> {
    const user = claimsUserMessage(input.question, input.answer);
    const tooLong = (what: string) => ({ status: "context_too_long" as const, claims: [], reason: `${what} exceed the judge window of ${window} tokens` });
    if (!fits(CLAIMS_PROMPT, user, bounds.claims(input.answer))) return tooLong("question and answer alone");
    const extracted = await call(CLAIMS_PROMPT, user, "claims", claimsReplySchema, claimsReplySchema, bounds.claims(input.answer), tally, (v) => {
      const i = v.claims.findIndex((c) => isPlaceholder(c));
      return i < 0 ? null : `placeholder claim ${i + 1}: ${JSON.stringify(v.claims[i])}`;
    });
    if (!extracted.ok) return extracted.context ? tooLong("question and answer alone") : { status: "judge_error", claims: [], reason: extracted.reason };
    const claims = extracted.value.claims;
    if (claims.length === 0) return { status: "no_claims", claims: [], reason: "the answer makes no factual claim" };
    const split = parts(input.question, claims, chunks);
    if (split === null) return tooLong("the claims with one passage");
    const results = await Promise.all(
      split.map((part) =>
        call(
          VERIFY_PROMPT,
          verifyUserMessage(input.question, claims, part),
          "verify",
          verifyReplySchema,
          groundingReadSchema,
          bounds.verify(claims),
          tally,
          claimsCheck(ids, claims),
        ),
      ),
    );
    const failed = results.find((r): r is Failure => !r.ok);
    if (failed)
      return failed.context
        ? tooLong("the claims with one part of the passages")
        : { status: "judge_error", claims: [], reason: `verification of a context part: ${failed.reason}` };
    const verdicts = results.map((r) => (r.ok && typeof r.value !== "string" ? r.value : []));
    const combined = claims.map((text, index): ClaimVerdict => {
      const per = verdicts.map((v) => v[index] as ClaimItem);
      const verdict: Verdict = per.some((v) => v.verdict === "SUPPORTED") ? "SUPPORTED" : per.some((v) => v.verdict === "CONTRADICTED") ? "CONTRADICTED" : "UNSUPPORTED";
      const cited = [...new Set(per.filter((v) => v.verdict === verdict).flatMap((v) => v.chunk_ids))];
      return { index, text, verdict, chunk_ids: verdict === "UNSUPPORTED" ? [] : cited };
    });
    return { status: "ok", claims: combined, reason: `context over the window: claims verified against ${split.length} parts` };
  }

  const groundingVersion = promptVersion(`${GROUNDING_PROMPT}\n${CLAIMS_PROMPT}\n${VERIFY_PROMPT}`);
  const newTally = (): Tally => ({ input_tokens: 0, output_tokens: 0, calls: 0, busy_ms: 0 });
  const costOf = (t: Tally) => ({ input_tokens: t.input_tokens, output_tokens: t.output_tokens, calls: t.calls, latency_ms: t.busy_ms });
  return {
    kind: "llm",
    model: options.model,
    promptVersion: { grounding: groundingVersion, relevance: promptVersion(RELEVANCE_PROMPT), reference_facts: promptVersion(REFERENCE_PROMPT) },
    async grounding(input: GroundingInput): Promise<GroundingJudgment> {
      const tally = newTally();
      const cost = () => costOf(tally);
      const chunks = input.chunks.filter((c) => c.text.trim().length > 0);
      const ids = new Set(chunks.map((c) => c.id));
      const user = groundingUserMessage(input.question, input.answer, chunks);
      const long = async (): Promise<GroundingJudgment> => {
        const r = await longGrounding(input, chunks, ids, tally);
        if (r.status !== "ok") return { status: r.status, value: null, claims: [], ...(r.reason !== undefined ? { reason: r.reason } : {}), ...cost() };
        return {
          status: "ok",
          value: r.claims.filter((c) => c.verdict === "SUPPORTED").length / r.claims.length,
          claims: r.claims,
          ...(r.reason !== undefined ? { reason: r.reason } : {}),
          ...cost(),
        };
      };
      const bound = bounds.grounding(input.answer);
      if (!fits(GROUNDING_PROMPT, user, bound)) return long();
      const r = await call(GROUNDING_PROMPT, user, "grounding", groundingReplySchema, groundingReadSchema, bound, tally, claimsCheck(ids));
      if (!r.ok) return r.context ? long() : { status: "judge_error", value: null, claims: [], reason: r.reason, ...cost() };
      const items = typeof r.value === "string" ? [] : r.value;
      const claims: ClaimVerdict[] = items.map((v, index) => ({ index, text: v.claim, verdict: v.verdict, chunk_ids: v.verdict === "UNSUPPORTED" ? [] : v.chunk_ids }));
      if (claims.length === 0) return { status: "no_claims", value: null, claims, reason: "the answer makes no factual claim", ...cost() };
      return { status: "ok", value: claims.filter((c) => c.verdict === "SUPPORTED").length / claims.length, claims, ...cost() };
    },
    async relevance(input: RelevanceInput): Promise<RelevanceJudgment> {
      const tally = newTally();
      const user = relevanceUserMessage(input.question, input.answer);
      const tooLong = () => ({ status: "context_too_long" as const, value: null, reason: `question and answer exceed the judge window of ${window} tokens`, ...costOf(tally) });
      if (!fits(RELEVANCE_PROMPT, user, bounds.relevance())) return tooLong();
      const r = await call(RELEVANCE_PROMPT, user, "relevance", relevanceReplySchema, relevanceReplySchema, bounds.relevance(), tally);
      if (!r.ok) return r.context ? tooLong() : { status: "judge_error", value: null, reason: r.reason, ...costOf(tally) };
      return { status: "ok", value: r.value.score, reason: r.value.reason, ...costOf(tally) };
    },
    async referenceFacts(input: ReferenceInput): Promise<ReferenceJudgment> {
      const tally = newTally();
      const user = referenceUserMessage(input.question, input.answer, input.reference);
      const bound = bounds.reference(input.reference);
      const tooLong = () => ({
        status: "context_too_long" as const,
        value: null,
        facts: [],
        reason: `reference and answer exceed the judge window of ${window} tokens`,
        ...costOf(tally),
      });
      if (!fits(REFERENCE_PROMPT, user, bound)) return tooLong();
      const r = await call(REFERENCE_PROMPT, user, "reference_facts", referenceReplySchema, referenceReplySchema, bound, tally, (v) => {
        const i = v.facts.findIndex((f) => isPlaceholder(f.fact));
        return i < 0 ? null : `placeholder fact ${i + 1}: ${JSON.stringify(v.facts[i]?.fact)}`;
      });
      if (!r.ok) return r.context ? tooLong() : { status: "judge_error", value: null, facts: [], reason: r.reason, ...costOf(tally) };
      const facts = r.value.facts;
      if (facts.length === 0) return { status: "no_claims", value: null, facts, reason: "the reference answer states no fact", ...costOf(tally) };
      return { status: "ok", value: facts.filter((f) => f.stated).length / facts.length, facts, ...costOf(tally) };
    },
  };
}
