import { createHash } from "node:crypto";
import type { GoldenItem } from "@ragmeter/golden";
import { extractInteraction, retrievedItems, type Interaction } from "../extract/interaction.js";
import type { StoredLog, StoredSpan } from "../extract/spans.js";
import type { Judge } from "../judges/types.js";
import { scoreQuestion, type QuestionResult } from "./question.js";
import { none, type Scored, type Status } from "../domain/status.js";

/** Options of {@link scoreTrace}. */
export interface ScoreTraceOptions {
  readonly judge: Judge;
  readonly ks: readonly number[];
  /** Share of live traces judged by an LLM judge (0–1); the rest are `not_sampled`. Heuristic judges always run. */
  readonly liveSampleRate: number;
  /** The golden item named by the trace's baggage, when its run and golden set are known. */
  readonly golden: GoldenItem | null;
}

/** An interaction and its scores. */
export interface ScoredTrace {
  readonly interaction: Interaction;
  readonly result: QuestionResult;
}

/** Deterministic sampling by trace id: the same trace is always in or out at a given rate. */
export function sampled(traceId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  const h = createHash("sha256").update(traceId).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000 < rate;
}

function withStatus(r: QuestionResult, status: Status, reason: string, which: { grounding?: boolean; relevance?: boolean; recall?: boolean; keyFacts?: boolean }): QuestionResult {
  const cost = { input_tokens: 0, output_tokens: 0, latency_ms: 0 };
  const s = status as Exclude<Status, "ok">;
  return {
    ...r,
    ...(which.grounding ? { grounding: { status, value: null, claims: [], reason, ...cost } } : {}),
    ...(which.relevance ? { relevance: { status, value: null, reason, ...cost } } : {}),
    // The reference-based judge only runs where it applies (LLM judge, reference answer).
    ...(which.relevance && r.reference_facts.status !== "not_applicable" ? { reference_facts: { status, value: null, reason, facts: [], ...cost } } : {}),
    // A status that replaces the judges' verdicts replaces every repeat of them too.
    ...(which.grounding || which.relevance ? { repeats: [] } : {}),
    ...(which.recall ? { recall: null, recall_status: status, hit_rank: null, reciprocal_rank: null } : {}),
    ...(which.keyFacts ? { key_facts: none(s, reason) } : {}),
  };
}

/**
 * Scores one settled trace (design §4–§6): builds its interaction and scores it as a golden
 * question would be (same code as `eval`), with the streaming statuses:
 * - no retrieval or no generation span → every metric `not_applicable` (a generation is never
 *   scored without its retrieval);
 * - content not captured → `content_missing`;
 * - capped content (`ragmeter.content.truncated`) → grounding and recall `context_incomplete`;
 * - live traffic outside the sampling rate → LLM judges `not_sampled`.
 * @param extracted the interaction when the caller already built it from these spans.
 */
export async function scoreTrace(traceId: string, spans: readonly StoredSpan[], logs: readonly StoredLog[], options: ScoreTraceOptions, extracted?: Interaction): Promise<ScoredTrace> {
  const interaction = extracted ?? extractInteraction(traceId, spans, logs);
  const live = options.golden === null;
  const item: GoldenItem = options.golden ?? {
    id: interaction.golden_id ?? "",
    question: interaction.question ?? "",
    expected_source: null,
    expected_substring: null,
    reference_answer: null,
    key_facts: null,
    tags: [],
  };
  const items = retrievedItems(interaction);
  const ready = interaction.retrieved !== null && interaction.has_generation;
  const captured = items !== null && interaction.question !== null && interaction.answer !== null;
  const judged = !live || options.judge.kind === "heuristic" || sampled(traceId, options.liveSampleRate);
  const scoringJudge: Judge = judged
    ? options.judge
    : {
        ...options.judge,
        grounding: async () => ({ status: "not_sampled", value: null, claims: [], reason: "live trace outside the judge sampling rate", input_tokens: 0, output_tokens: 0, latency_ms: 0 }),
        relevance: async () => ({ status: "not_sampled", value: null, reason: "live trace outside the judge sampling rate", input_tokens: 0, output_tokens: 0, latency_ms: 0 }),
      };
  let result = await scoreQuestion(
    item,
    traceId,
    ready && captured
      ? { ok: true, latency_ms: 0, reply: { answer: interaction.answer as string, contexts: items, model: interaction.generator_model, pipeline_version: interaction.pipeline_version } }
      : { ok: true, latency_ms: 0, reply: { answer: "", contexts: [], model: interaction.generator_model, pipeline_version: interaction.pipeline_version } },
    scoringJudge,
    options.ks,
  );
  if (live) result = { ...result, abstention: none("not_applicable", "live traffic: no golden item") as Scored };
  if (!ready) {
    const why = interaction.retrieved === null ? "no retrieval span in the trace" : "no generation span in the trace";
    result = withStatus(result, "not_applicable", why, { grounding: true, relevance: true, recall: true, keyFacts: true });
    result = { ...result, abstained: null, abstention: none("not_applicable", why) as Scored };
  } else if (!captured) {
    const why = "content not captured (set OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)";
    result = withStatus(result, "content_missing", why, { grounding: true, relevance: true, recall: !live, keyFacts: !live });
    result = { ...result, abstained: null, abstention: live ? result.abstention : (none("content_missing", why) as Scored) };
  } else if (interaction.truncated) {
    result = withStatus(result, "context_incomplete", "the instrumentation capped some content", { grounding: true, recall: !live });
  }
  return { interaction, result: { ...result, question: interaction.question ?? "" } };
}
