import OpenAI from "openai";
import { z } from "zod";
import { extractJson } from "./parse.js";
import { GROUNDING_PROMPT, groundingUserMessage, promptVersion, RELEVANCE_PROMPT, relevanceUserMessage } from "./prompts.js";
import type { ClaimVerdict, GroundingInput, GroundingJudgment, Judge, RelevanceInput, RelevanceJudgment } from "./types.js";

/** Reply schema of the grounding judge; verdicts must be one-to-one with claims. */
export const groundingReplySchema = z.object({
  claims: z.array(z.string()),
  verdicts: z.array(
    z.object({
      verdict: z.enum(["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"]),
      chunk_ids: z.array(z.string()),
    }),
  ),
});

/** Reply schema of the relevance judge: an integer 0–4 in `score` (7 is an error, not a 4). */
export const relevanceReplySchema = z.object({
  score: z.number().int().min(0).max(4),
  reason: z.string(),
});

/** Options of {@link createLlmJudge}. */
export interface LlmJudgeOptions {
  /** OpenAI-compatible endpoint, e.g. `http://127.0.0.1:8000/v1`. */
  readonly baseURL: string;
  readonly apiKey?: string;
  readonly model: string;
  /** Per-call timeout, ms (default 60,000). */
  readonly timeoutMs?: number;
  /** HTTP retries by the openai client (429 honours Retry-After, 5xx, timeouts), default 2. */
  readonly maxRetries?: number;
  /** Attempts when a reply cannot be parsed or validated (default 2). */
  readonly maxParseAttempts?: number;
  /** Send the zod schema as `response_format: json_schema` (default true). */
  readonly structuredOutput?: boolean;
}

type Call<T> = { ok: true; value: T; input_tokens: number; output_tokens: number } | { ok: false; reason: string; input_tokens: number; output_tokens: number };

/**
 * LLM judges through the `openai` client (temperature 0). Each reply is validated with zod; a reply
 * in prose or a code fence is read by {@link extractJson}. An unparseable reply, verdicts not
 * one-to-one with claims, or a relevance score outside 0–4 give `judge_error` after
 * `maxParseAttempts`; an HTTP failure after the client's retries gives `judge_error` with the reason.
 * Never throws for one item.
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? "none",
    timeout: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 2,
  });
  const attempts = options.maxParseAttempts ?? 2;
  const structured = options.structuredOutput ?? true;

  async function call<T>(system: string, user: string, name: string, schema: z.ZodType<T>, check?: (v: T) => string | null): Promise<Call<T>> {
    let input_tokens = 0;
    let output_tokens = 0;
    let reason = "no attempt made";
    for (let attempt = 0; attempt < attempts; attempt++) {
      let content: string;
      try {
        const res = await client.chat.completions.create({
          model: options.model,
          temperature: 0,
          messages: [
            { role: "system", content: system },
            { role: "user", content: user },
          ],
          ...(structured
            ? { response_format: { type: "json_schema" as const, json_schema: { name, strict: true, schema: z.toJSONSchema(schema) as Record<string, unknown> } } }
            : {}),
        });
        input_tokens += res.usage?.prompt_tokens ?? 0;
        output_tokens += res.usage?.completion_tokens ?? 0;
        content = res.choices[0]?.message.content ?? "";
      } catch (err) {
        return { ok: false, reason: `judge call failed: ${(err as Error).message}`, input_tokens, output_tokens };
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
      return { ok: true, value: parsed.data, input_tokens, output_tokens };
    }
    return { ok: false, reason: `${reason} (after ${attempts} attempts)`, input_tokens, output_tokens };
  }

  return {
    kind: "llm",
    model: options.model,
    promptVersion: { grounding: promptVersion(GROUNDING_PROMPT), relevance: promptVersion(RELEVANCE_PROMPT) },
    async grounding(input: GroundingInput): Promise<GroundingJudgment> {
      const t0 = performance.now();
      const chunks = input.chunks.filter((c) => c.text.trim().length > 0);
      const r = await call(GROUNDING_PROMPT, groundingUserMessage(input.question, input.answer, chunks), "grounding", groundingReplySchema, (v) =>
        v.verdicts.length === v.claims.length ? null : `${v.verdicts.length} verdicts for ${v.claims.length} claims`,
      );
      const cost = { input_tokens: r.input_tokens, output_tokens: r.output_tokens, latency_ms: performance.now() - t0 };
      if (!r.ok) return { status: "judge_error", value: null, claims: [], reason: r.reason, ...cost };
      const claims: ClaimVerdict[] = r.value.claims.map((text, index) => {
        const v = r.value.verdicts[index] as (typeof r.value.verdicts)[number];
        return { index, text, verdict: v.verdict, chunk_ids: v.chunk_ids };
      });
      if (claims.length === 0) return { status: "no_claims", value: null, claims, reason: "the answer makes no factual claim", ...cost };
      return { status: "ok", value: claims.filter((c) => c.verdict === "SUPPORTED").length / claims.length, claims, ...cost };
    },
    async relevance(input: RelevanceInput): Promise<RelevanceJudgment> {
      const t0 = performance.now();
      const r = await call(RELEVANCE_PROMPT, relevanceUserMessage(input.question, input.answer), "relevance", relevanceReplySchema);
      const cost = { input_tokens: r.input_tokens, output_tokens: r.output_tokens, latency_ms: performance.now() - t0 };
      if (!r.ok) return { status: "judge_error", value: null, reason: r.reason, ...cost };
      return { status: "ok", value: r.value.score, reason: r.value.reason, ...cost };
    },
  };
}
