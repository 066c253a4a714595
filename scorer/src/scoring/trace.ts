import { createHash } from "node:crypto";
import type { GoldenItem } from "@ragmeter/golden";
import { keyFactsScore } from "../domain/metrics/keyFacts.js";
import { liveNeverApplicable } from "../domain/metricTable.js";
import { none, type Scored, type Status } from "../domain/status.js";
import { extractInteraction, type Interaction, retrievedItems } from "../extract/interaction.js";
import type { StoredLog, StoredSpan } from "../extract/spans.js";
import type { Judge } from "../judges/types.js";
import { type ResultRows, resultRows } from "./rows.js";
import { type QuestionResult, referenceNotApplicable, type Subject, scoreInteraction } from "./score.js";

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
 * The result of a trace that cannot be scored as it stands (no retrieval or generation span, or its
 * content not captured): no judge is called; each metric carries `status` where it applies.
 */
function unscoredTrace(
  subject: Subject,
  model: string | null,
  golden: GoldenItem | null,
  judge: Judge,
  status: Exclude<Status, "ok">,
  reason: string,
  which: { readonly recall: boolean; readonly keyFacts: boolean; readonly abstention: Scored },
): QuestionResult {
  const cost = { input_tokens: 0, output_tokens: 0, latency_ms: 0 };
  const reference = referenceNotApplicable(golden, judge);
  return {
    ...subject,
    status: "ok",
    reason: "",
    // Stored as before the scoring core: an unscored trace keeps an empty answer and no retrieved items.
    answer: "",
    contexts: [],
    generator_model: model,
    recall: null,
    recall_status: which.recall ? status : "not_applicable",
    hit_rank: null,
    reciprocal_rank: null,
    grounding: { status, value: null, claims: [], reason, ...cost },
    relevance: { status, value: null, reason, ...cost },
    reference_facts: reference ?? { status, value: null, reason, facts: [], ...cost },
    repeats: [],
    key_facts: which.keyFacts ? none(status, reason) : keyFactsScore("", golden?.key_facts ?? null),
    abstained: null,
    abstention: which.abstention,
  };
}

const LIVE = "live traffic: no golden item";

/**
 * Scores one settled trace (design §4–§6): builds its interaction and scores it with the scoring
 * core (same code as `eval`), with the streaming statuses:
 * - no retrieval or no generation span → every metric `not_applicable` (a generation is never
 *   scored without its retrieval);
 * - content not captured → `content_missing`;
 * - capped content (`ragmeter.content.truncated`) → grounding and recall `context_incomplete`;
 * - live traffic outside the sampling rate → LLM judges `not_sampled`.
 * @param extracted the interaction when the caller already built it from these spans.
 */
export async function scoreTrace(
  traceId: string,
  spans: readonly StoredSpan[],
  logs: readonly StoredLog[],
  options: ScoreTraceOptions,
  extracted?: Interaction,
): Promise<ScoredTrace> {
  const interaction = extracted ?? extractInteraction(traceId, spans, logs);
  const golden = options.golden;
  const live = golden === null;
  const subject: Subject = {
    trace_id: traceId,
    golden_id: golden?.id ?? interaction.golden_id ?? "",
    tags: golden?.tags ?? [],
    question: interaction.question ?? "",
    latency_ms: 0,
  };
  const items = retrievedItems(interaction);
  const ready = interaction.retrieved !== null && interaction.has_generation;
  const captured = items !== null && interaction.question !== null && interaction.answer !== null;
  let result: QuestionResult;
  if (!ready) {
    const why = interaction.retrieved === null ? "no retrieval span in the trace" : "no generation span in the trace";
    result = unscoredTrace(subject, interaction.generator_model, golden, options.judge, "not_applicable", why, {
      recall: true,
      keyFacts: true,
      abstention: none("not_applicable", why) as Scored,
    });
  } else if (!captured) {
    const why = "content not captured (set OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)";
    result = unscoredTrace(subject, interaction.generator_model, golden, options.judge, "content_missing", why, {
      recall: !live,
      keyFacts: !live,
      abstention: (live ? none("not_applicable", LIVE) : none("content_missing", why)) as Scored,
    });
  } else {
    const sampledIn = !live || options.judge.kind === "heuristic" || sampled(traceId, options.liveSampleRate);
    // The golden item's question (what the judge is asked about), when there is one.
    const asked = { ...subject, question: golden?.question ?? subject.question };
    result = await scoreInteraction(asked, { answer: interaction.answer as string, contexts: items, model: interaction.generator_model }, golden, {
      judge: options.judge,
      ks: options.ks,
      sampled: sampledIn,
      noGoldenReason: LIVE,
    });
    if (interaction.truncated) result = withStatus(result, "context_incomplete", "the instrumentation capped some content", { grounding: true, recall: !live });
  }
  return { interaction, result: { ...result, question: interaction.question ?? "" } };
}

/**
 * The rows of a scored trace: filed under its run (`live` for live traffic) with what its spans say
 * (service, environment, tokens) and the prompt version it was scored under. Live traffic has no
 * golden item: the metrics that can never apply to it (the table's `live: false`) store no
 * `not_applicable` row (8 of the 10 rows of a live trace otherwise).
 */
export function traceRows(s: ScoredTrace, judge: Judge, ks: readonly number[], promptVersion: string): ResultRows {
  const i = s.interaction;
  const rows = resultRows({ run_id: i.run_id ?? "live", pipeline_version: i.pipeline_version ?? "", source: i.source }, s.result, judge, ks, {
    service_name: i.service_name,
    deployment_environment: i.deployment_environment,
    input_tokens: i.input_tokens,
    output_tokens: i.output_tokens,
    latency_ms: null,
    judge_prompt_version: promptVersion,
  });
  if (i.source !== "live") return rows;
  return { ...rows, scores: rows.scores.filter((r) => !(r.status === "not_applicable" && liveNeverApplicable(r.metric))) };
}
