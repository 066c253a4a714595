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
import { toJudgeCallError } from "./callError.js";
import { createRateLimiter, type RateLimiter } from "./limiter.js";
import { extractJson } from "./parse.js";
import { countTokens, splitByTokens } from "./tokens.js";

const verdictSchema = z.object({
  verdict: z.enum(["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"]),
  chunk_ids: z.array(z.string()),
});

/** Reply schema of the grounding judge; verdicts must be one-to-one with claims. */
export const groundingReplySchema = z.object({
  claims: z.array(z.string()),
  verdicts: z.array(verdictSchema),
});

/** Reply schema of the claim-extraction step (long contexts). */
export const claimsReplySchema = z.object({ claims: z.array(z.string()) });

/** Reply schema of the verification step (long contexts): one verdict per given claim. */
export const verifyReplySchema = z.object({ verdicts: z.array(verdictSchema) });

/** Reply schema of the relevance judge: an integer 0–4 in `score` (7 is an error, not a 4). */
export const relevanceReplySchema = z.object({
  score: z.number().int().min(0).max(4),
  reason: z.string(),
});

/** Reply schema of the reference-based judge. */
export const referenceReplySchema = z.object({
  facts: z.array(z.object({ fact: z.string(), stated: z.boolean() })),
});

/** Default judge window, tokens (system prompt + user message of one call). */
export const DEFAULT_CONTEXT_TOKENS = 32_000;

/** Options of {@link createLlmJudge}. */
export interface LlmJudgeOptions {
  /** OpenAI-compatible endpoint, e.g. `http://127.0.0.1:8000/v1`. */
  readonly baseURL: string;
  readonly apiKey?: string;
  readonly model: string;
  /** Per-call timeout, ms (default 60,000); a timed-out call is retried like a 5xx. */
  readonly timeoutMs?: number;
  /**
   * Retries of a retriable HTTP failure (408, 409, 429, 5xx, timeout, connection), default 3: the
   * `openai` client's own retries (exponential backoff with jitter; `retry-after-ms`/`Retry-After` honoured).
   */
  readonly maxRetries?: number;
  /** Attempts when a reply cannot be parsed or validated (default 2). */
  readonly maxParseAttempts?: number;
  /**
   * Send the zod schema as `response_format: json_schema` (default true). An endpoint answering 400
   * to it is asked again without it, and this judge stops sending it.
   */
  readonly structuredOutput?: boolean;
  /** The judge window, tokens (o200k_base), for system prompt + user message (default 32,000). */
  readonly contextTokens?: number;
  /** Judge calls in flight at once (default 8). */
  readonly concurrency?: number;
  /** Judge calls started per minute; unset = unlimited. */
  readonly rpm?: number | null;
}

interface Tally {
  input_tokens: number;
  output_tokens: number;
  calls: number;
}

type Call<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * LLM judges through the `openai` client (temperature 0; design §5). Each reply is validated with
 * zod; a reply in prose or a code fence is read by {@link extractJson}. An unparseable reply,
 * verdicts not one-to-one with claims, or a relevance score outside 0–4 give `judge_error` after
 * `maxParseAttempts`; an HTTP failure after the retries gives `judge_error` with the reason.
 * A grounding context longer than the window is handled by claim extraction then verification per
 * part (SUPPORTED in any part wins, else CONTRADICTED in any part, else UNSUPPORTED); when even the
 * claims with an empty part cannot fit, `context_too_long`. Never throws for one item.
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey ?? "none", timeout: options.timeoutMs ?? 60_000, maxRetries: options.maxRetries ?? 3 });
  const attempts = options.maxParseAttempts ?? 2;
  const window = options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  const limiter: RateLimiter = createRateLimiter({ concurrency: options.concurrency ?? 8, rpm: options.rpm ?? null });
  let structured = options.structuredOutput ?? true;

  async function once(system: string, user: string, name: string, schema: z.ZodType, withFormat: boolean, tally: Tally): Promise<string> {
    const body = {
      model: options.model,
      temperature: 0,
      messages: [
        { role: "system" as const, content: system },
        { role: "user" as const, content: user },
      ],
      ...(withFormat ? { response_format: { type: "json_schema" as const, json_schema: { name, strict: true, schema: z.toJSONSchema(schema) as Record<string, unknown> } } } : {}),
    };
    // Every HTTP request of the call, the client's retries included, is counted.
    const counted = client.withOptions({
      fetch: (url, init) => {
        tally.calls++;
        return fetch(url, init);
      },
    });
    const res = await limiter
      .schedule(() => counted.chat.completions.create(body))
      .catch((err: unknown) => {
        throw toJudgeCallError(err);
      });
    tally.input_tokens += res.usage?.prompt_tokens ?? 0;
    tally.output_tokens += res.usage?.completion_tokens ?? 0;
    return res.choices[0]?.message.content ?? "";
  }

  /** One judge request with retries; a 400 to `response_format` switches structured output off for this judge and asks again. */
  async function send(system: string, user: string, name: string, schema: z.ZodType, tally: Tally): Promise<string> {
    const withFormat = structured;
    try {
      return await once(system, user, name, schema, withFormat, tally);
    } catch (err) {
      if (!withFormat || !(err instanceof JudgeCallError) || err.status !== 400) throw err;
      structured = false;
      return once(system, user, name, schema, false, tally);
    }
  }

  async function call<T>(system: string, user: string, name: string, schema: z.ZodType<T>, tally: Tally, check?: (v: T) => string | null): Promise<Call<T>> {
    let reason = "no attempt made";
    for (let attempt = 0; attempt < attempts; attempt++) {
      let content: string;
      try {
        content = await send(system, user, name, schema, tally);
      } catch (err) {
        return { ok: false, reason: `judge call failed: ${(err as Error).message}` };
      }
      const json = extractJson(content);
      if (json === undefined) {
        reason = "reply is not JSON";
        continue;
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const i = parsed.error.issues[0];
        reason = `reply field "${i?.path.join(".") ?? ""}": ${i?.message ?? "invalid"}`;
        continue;
      }
      const problem = check?.(parsed.data) ?? null;
      if (problem !== null) {
        reason = problem;
        continue;
      }
      return { ok: true, value: parsed.data };
    }
    return { ok: false, reason: `${reason} (after ${attempts} attempts)` };
  }

  const fits = (system: string, user: string) => countTokens(system) + countTokens(user) <= window;
  const oneToOne = (n: number) => (v: { verdicts: readonly unknown[] }) => (v.verdicts.length === n ? null : `${v.verdicts.length} verdicts for ${n} claims`);

  /**
   * Packs chunks (rank order) into parts whose verification message fits the window (measured on
   * the real message); a chunk too long for a part of its own is split by tokens.
   * @returns null when the claims with an empty part already exceed the window.
   */
  function parts(question: string, claims: readonly string[], chunks: readonly JudgeChunk[]): JudgeChunk[][] | null {
    const system = countTokens(VERIFY_PROMPT);
    const size = (part: readonly JudgeChunk[]) => system + countTokens(verifyUserMessage(question, claims, part));
    if (size([]) > window) return null;
    const out: JudgeChunk[][] = [];
    let cur: JudgeChunk[] = [];
    for (const c of chunks) {
      let pieces: JudgeChunk[] = [c];
      if (size([c]) > window) {
        // a margin of 4 tokens: a piece cut at a token boundary can re-encode slightly longer
        const room = window - size([{ id: c.id, text: "" }]) - 4;
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

  async function longGrounding(input: GroundingInput, chunks: readonly JudgeChunk[], tally: Tally): Promise<{ status: Status; claims: ClaimVerdict[]; reason?: string }> {
    const user = claimsUserMessage(input.question, input.answer);
    if (!fits(CLAIMS_PROMPT, user)) return { status: "context_too_long", claims: [], reason: `question and answer alone exceed the judge window of ${window} tokens` };
    const extracted = await call(CLAIMS_PROMPT, user, "claims", claimsReplySchema, tally);
    if (!extracted.ok) return { status: "judge_error", claims: [], reason: extracted.reason };
    const claims = extracted.value.claims;
    if (claims.length === 0) return { status: "no_claims", claims: [], reason: "the answer makes no factual claim" };
    const split = parts(input.question, claims, chunks);
    if (split === null) return { status: "context_too_long", claims: [], reason: `the claims with one passage exceed the judge window of ${window} tokens` };
    const results = await Promise.all(
      split.map((part) => call(VERIFY_PROMPT, verifyUserMessage(input.question, claims, part), "verify", verifyReplySchema, tally, oneToOne(claims.length))),
    );
    const failed = results.find((r) => !r.ok);
    if (failed && !failed.ok) return { status: "judge_error", claims: [], reason: `verification of a context part: ${failed.reason}` };
    const verdicts = results.map((r) => (r.ok ? r.value.verdicts : []));
    const combined = claims.map((text, index): ClaimVerdict => {
      const per = verdicts.map((v) => v[index] as { verdict: Verdict; chunk_ids: string[] });
      const verdict: Verdict = per.some((v) => v.verdict === "SUPPORTED") ? "SUPPORTED" : per.some((v) => v.verdict === "CONTRADICTED") ? "CONTRADICTED" : "UNSUPPORTED";
      const ids = [...new Set(per.filter((v) => v.verdict === verdict).flatMap((v) => v.chunk_ids))];
      return { index, text, verdict, chunk_ids: verdict === "UNSUPPORTED" ? [] : ids };
    });
    return { status: "ok", claims: combined, reason: `context over the window: claims verified against ${split.length} parts` };
  }

  const groundingVersion = promptVersion(`${GROUNDING_PROMPT}\n${CLAIMS_PROMPT}\n${VERIFY_PROMPT}`);
  return {
    kind: "llm",
    model: options.model,
    promptVersion: { grounding: groundingVersion, relevance: promptVersion(RELEVANCE_PROMPT), reference_facts: promptVersion(REFERENCE_PROMPT) },
    async grounding(input: GroundingInput): Promise<GroundingJudgment> {
      const t0 = performance.now();
      const tally: Tally = { input_tokens: 0, output_tokens: 0, calls: 0 };
      const cost = () => ({ ...tally, latency_ms: performance.now() - t0 });
      const chunks = input.chunks.filter((c) => c.text.trim().length > 0);
      const user = groundingUserMessage(input.question, input.answer, chunks);
      if (!fits(GROUNDING_PROMPT, user)) {
        const r = await longGrounding(input, chunks, tally);
        if (r.status !== "ok") return { status: r.status, value: null, claims: [], ...(r.reason !== undefined ? { reason: r.reason } : {}), ...cost() };
        return {
          status: "ok",
          value: r.claims.filter((c) => c.verdict === "SUPPORTED").length / r.claims.length,
          claims: r.claims,
          ...(r.reason !== undefined ? { reason: r.reason } : {}),
          ...cost(),
        };
      }
      const r = await call(GROUNDING_PROMPT, user, "grounding", groundingReplySchema, tally, (v) =>
        v.verdicts.length === v.claims.length ? null : `${v.verdicts.length} verdicts for ${v.claims.length} claims`,
      );
      if (!r.ok) return { status: "judge_error", value: null, claims: [], reason: r.reason, ...cost() };
      const claims: ClaimVerdict[] = r.value.claims.map((text, index) => {
        const v = r.value.verdicts[index] as z.infer<typeof verdictSchema>;
        return { index, text, verdict: v.verdict, chunk_ids: v.chunk_ids };
      });
      if (claims.length === 0) return { status: "no_claims", value: null, claims, reason: "the answer makes no factual claim", ...cost() };
      return { status: "ok", value: claims.filter((c) => c.verdict === "SUPPORTED").length / claims.length, claims, ...cost() };
    },
    async relevance(input: RelevanceInput): Promise<RelevanceJudgment> {
      const t0 = performance.now();
      const tally: Tally = { input_tokens: 0, output_tokens: 0, calls: 0 };
      const user = relevanceUserMessage(input.question, input.answer);
      if (!fits(RELEVANCE_PROMPT, user))
        return { status: "context_too_long", value: null, reason: `question and answer exceed the judge window of ${window} tokens`, ...tally, latency_ms: performance.now() - t0 };
      const r = await call(RELEVANCE_PROMPT, user, "relevance", relevanceReplySchema, tally);
      const cost = { ...tally, latency_ms: performance.now() - t0 };
      if (!r.ok) return { status: "judge_error", value: null, reason: r.reason, ...cost };
      return { status: "ok", value: r.value.score, reason: r.value.reason, ...cost };
    },
    async referenceFacts(input: ReferenceInput): Promise<ReferenceJudgment> {
      const t0 = performance.now();
      const tally: Tally = { input_tokens: 0, output_tokens: 0, calls: 0 };
      const user = referenceUserMessage(input.question, input.answer, input.reference);
      if (!fits(REFERENCE_PROMPT, user))
        return {
          status: "context_too_long",
          value: null,
          facts: [],
          reason: `reference and answer exceed the judge window of ${window} tokens`,
          ...tally,
          latency_ms: performance.now() - t0,
        };
      const r = await call(REFERENCE_PROMPT, user, "reference_facts", referenceReplySchema, tally);
      const cost = { ...tally, latency_ms: performance.now() - t0 };
      if (!r.ok) return { status: "judge_error", value: null, facts: [], reason: r.reason, ...cost };
      const facts = r.value.facts;
      if (facts.length === 0) return { status: "no_claims", value: null, facts, reason: "the reference answer states no fact", ...cost };
      return { status: "ok", value: facts.filter((f) => f.stated).length / facts.length, facts, ...cost };
    },
  };
}
