import { createHash } from "node:crypto";
import { type GoldenItem, isAnswerable } from "@ragmeter/golden";
import { JUDGED_METRICS, liveNeverApplicable } from "../domain/metricTable.js";
import { extractInteraction, type Interaction, retrievedItems } from "../extract/interaction.js";
import type { StoredLog, StoredSpan } from "../extract/spans.js";
import type { Judge } from "../judges/types.js";
import { type Applicability, type PlanKey, planKeyOf, planTrace, type SkipStatus, type TracePlan } from "./applicability.js";
import { type ResultRows, resultRows } from "./rows.js";
import { metricGap, type QuestionResult, type Skip, type Subject, scoreInteraction } from "./score.js";

/** Options of {@link scoreTrace}. */
export interface ScoreTraceOptions {
  readonly judge: Judge;
  readonly ks: readonly number[];
  /** Share of live traces judged by an LLM judge (0–1); the rest are `not_sampled`. Heuristic judges always run. */
  readonly liveSampleRate: number;
  /** The golden item named by the trace's baggage, when its run and golden set are known. */
  readonly golden: GoldenItem | null;
}

/** Deterministic sampling by trace id: the same trace is always in or out at a given rate. */
function sampled(traceId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  const h = createHash("sha256").update(traceId).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000 < rate;
}

const LIVE = "live traffic: no golden item";

/** Judge calls not made for a trace, by the status its metrics got instead (design §5). */
type SkippedCalls = Partial<Record<SkipStatus, number>>;

/** An interaction and its scores. */
export interface ScoredTrace {
  readonly interaction: Interaction;
  readonly result: QuestionResult;
  /** Judge calls not made because the metric was decided before judging (applicability), by status. */
  readonly skipped: SkippedCalls;
}

/**
 * Scores one settled trace (design §4–§6): builds its interaction, decides before any judge call
 * which metrics can be computed ({@link planTrace}), and scores it with the scoring core (same
 * code as `eval`), calling a judge only for a metric that will be stored as judged. Retrieval is
 * kept whenever it was captured (stored on the interaction; recall@k and MRR for golden traffic
 * from the retrieval alone), whatever happened to the generation.
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
  const sampledIn = !live || !options.judge.metered || sampled(traceId, options.liveSampleRate);
  const plan = planTrace(interaction, items, live, sampledIn);
  // The golden item's question (what the judge is asked about), when there is one.
  const asked = { ...subject, question: golden?.question ?? subject.question };
  const skip: Partial<Record<PlanKey, Skip>> = {};
  for (const [key, a] of Object.entries(plan) as [PlanKey, Applicability][]) if (!a.ok) skip[key] = { status: a.status, reason: a.reason };
  const result = await scoreInteraction(
    asked,
    { answer: interaction.answer ?? "", contexts: plan.recall.ok || plan.grounding.ok || plan.context.ok ? (items ?? []) : [], model: interaction.generator_model },
    golden,
    { judge: options.judge, ks: options.ks, sampled: sampledIn, noGoldenReason: LIVE, skip },
  );
  // Retrieval kept whenever captured: the stored interaction lists what was retrieved (texts may be missing).
  const stored = result.contexts.length === 0 && interaction.retrieved !== null ? storedRetrieval(interaction) : result.contexts;
  const answerShown = plan.answer.ok ? {} : { answer: interaction.answer, abstained: null };
  return {
    interaction,
    result: { ...result, ...answerShown, contexts: stored, question: interaction.question ?? "" },
    skipped: skippedCalls(plan, golden, options.judge),
  };
}

/** The retrieved items as captured (a missing text stored as ""), for the interaction row. */
function storedRetrieval(i: Interaction): QuestionResult["contexts"] {
  return (i.retrieved ?? []).map((d) => ({ id: d.id ?? "", document_id: d.document_id ?? d.id ?? "", text: d.text ?? "", score: d.score }));
}

/** The judge calls a trace's plan saved: each judged metric that would have been judged but for what the trace lacks, by status. */
function skippedCalls(plan: TracePlan, golden: GoldenItem | null, judge: Judge): SkippedCalls {
  const out: SkippedCalls = {};
  if (!judge.metered) return out;
  const input = { question: "", answer: "", contexts: [], chunks: [], expect: golden, answerable: golden !== null && isAnswerable(golden), abstained: false, k: 0 };
  for (const def of JUDGED_METRICS) {
    if (metricGap(def, input, judge, {}) !== null) continue;
    const a = plan[planKeyOf(def.needs)];
    if (!a.ok) out[a.status] = (out[a.status] ?? 0) + 1;
  }
  return out;
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
