import { type GoldenItem, isAnswerable } from "@ragmeter/golden";
import type { Outcome, RetrievedItem } from "../domain/metric.js";
import { JUDGED_METRICS, liveNeverApplicable } from "../domain/metricTable.js";
import { extractInteraction, type Interaction, retrievedItems } from "../extract/interaction.js";
import type { StoredLog, StoredSpan } from "../extract/spans.js";
import { type JudgeFailureKind, judgeFailureKind } from "../judges/failureKind.js";
import { isJudgeOwnTrace, JUDGE_CALL_ATTRIBUTE } from "../judges/ownCalls.js";
import type { Judge } from "../judges/types.js";
import { type Applicability, type PlanKey, planKeyOf, planTrace, type SkipStatus, type TracePlan } from "./applicability.js";
import type { JudgeBudget, JudgeSpend, Reservation } from "./budget.js";
import { type ResultRows, resultRows } from "./rows.js";
import { sampledIn as inSample, notSampledReason } from "./sampling.js";
import { metricGap, type QuestionResult, type Skip, type Subject, scoreInteraction } from "./score.js";

/** Options of {@link scoreTrace}. */
export interface ScoreTraceOptions {
  readonly judge: Judge;
  readonly ks: readonly number[];
  /**
   * Share of live traces judged by an LLM judge (0–1), by a hash of the trace id (./sampling.ts);
   * the rest are `not_sampled`. Heuristic judges always run.
   */
  readonly liveSampleRate: number;
  /** Per-service shares overriding {@link liveSampleRate}, by `service.name` (`RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE`). */
  readonly liveSampleRates?: Readonly<Record<string, number>>;
  /** The judge budget of live traffic (`RAGMETER_JUDGE_*_PER_HOUR`): past it, `budget_exhausted`. */
  readonly budget?: JudgeBudget | null;
  /** The clock of the budget, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /** The golden item named by the trace's baggage, when its run and golden set are known. */
  readonly golden: GoldenItem | null;
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
  /** Judgments that ended `judge_error`, by kind of failure (../judges/failureKind.ts). */
  readonly judgeFailures: Partial<Record<JudgeFailureKind, number>>;
  /** The reason of the first judgment of each kind that ended `judge_error`. */
  readonly judgeFailureReasons: Partial<Record<JudgeFailureKind, string>>;
  /** True for a trace of the judge's own LLM call (`ragmeter.judge.call`): never judged. */
  readonly judgeOwn: boolean;
  /** What the LLM judges spent on this trace (counted in the budget of its service). */
  readonly spend: JudgeSpend;
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
  const items = retrievedItems(interaction);
  const own = isJudgeOwnTrace(spans);
  const now = options.now ?? Date.now;
  const { plan, reservation } = own ? { plan: judgeOwnPlan(), reservation: null } : gatedPlan(traceId, interaction, items, options, now());
  let spent: JudgeSpend = { calls: 0, tokens: 0 };
  try {
    const scored = await scorePlanned(traceId, interaction, items, plan, options, own);
    spent = scored.spend;
    return scored;
  } finally {
    if (reservation !== null) options.budget?.settle(reservation, spent, now());
  }
}

/**
 * The plan of a trace ({@link planTrace}) with the live judge gates applied: a live trace of a
 * metered judge outside its service's sampling rate is `not_sampled`; one its judges would be
 * called on is admitted by the budget (reserving one call per judgment) or `budget_exhausted`.
 */
function gatedPlan(
  traceId: string,
  i: Interaction,
  items: readonly RetrievedItem[] | null,
  options: ScoreTraceOptions,
  now: number,
): { plan: TracePlan; reservation: Reservation | null } {
  const live = options.golden === null;
  if (!live || !options.judge.metered) return { plan: planTrace(i, items, live, true), reservation: null };
  const sampling = { rate: options.liveSampleRate, ...(options.liveSampleRates !== undefined ? { byService: options.liveSampleRates } : {}) };
  const service = i.service_name;
  if (!inSample(sampling, traceId, service)) return { plan: planTrace(i, items, live, { status: "not_sampled", reason: notSampledReason(sampling, service) }), reservation: null };
  const plan = planTrace(i, items, live, true);
  const planned = judgedCalls(plan, options.golden, options.judge);
  if (!options.budget || planned === 0) return { plan, reservation: null };
  const a = options.budget.admit(service, now, planned);
  return a.ok ? { plan, reservation: a.reservation } : { plan: planTrace(i, items, live, { status: "budget_exhausted", reason: a.reason }), reservation: null };
}

/** Scores an interaction by its plan: the judges are called only for the metrics the plan leaves to them. */
async function scorePlanned(
  traceId: string,
  interaction: Interaction,
  items: readonly RetrievedItem[] | null,
  plan: TracePlan,
  options: ScoreTraceOptions,
  own: boolean,
): Promise<ScoredTrace> {
  const golden = options.golden;
  const result = await scoreInteraction(
    askedOf(traceId, interaction, golden),
    {
      answer: interaction.answer ?? "",
      contexts: plan.ranking.ok || plan.answerWithTexts.ok || plan.questionWithTexts.ok ? (items ?? []) : [],
      model: interaction.generator_model,
    },
    golden,
    { judge: options.judge, ks: options.ks, noGoldenReason: LIVE, skip: skipsOf(plan) },
  );
  // Retrieval kept whenever captured: the stored interaction lists what was retrieved (texts may be missing).
  const stored = result.contexts.length === 0 && interaction.retrieved !== null ? storedRetrieval(interaction) : result.contexts;
  const answerShown = plan.answer.ok ? {} : { answer: interaction.answer, abstained: null };
  return {
    interaction,
    result: { ...result, ...answerShown, contexts: stored, question: interaction.question ?? "" },
    skipped: own ? {} : skippedCalls(plan, golden, options.judge),
    ...failuresOf(result),
    judgeOwn: own,
    spend: spendOf(result),
  };
}

/** Who a trace's result is filed under (its golden item, else the golden id the trace carries), with the question the judge is asked: the golden item's, else the trace's. */
function askedOf(traceId: string, interaction: Interaction, golden: GoldenItem | null): Subject {
  const question = interaction.question ?? "";
  return { trace_id: traceId, golden_id: golden?.id ?? interaction.golden_id ?? "", tags: golden?.tags ?? [], question: golden?.question ?? question, latency_ms: 0 };
}

/** The status and reason of each metric group a plan rules out, by plan key. */
function skipsOf(plan: TracePlan): Partial<Record<PlanKey, Skip>> {
  const skip: Partial<Record<PlanKey, Skip>> = {};
  for (const [key, a] of Object.entries(plan) as [PlanKey, Applicability][]) if (!a.ok) skip[key] = { status: a.status, reason: a.reason };
  return skip;
}

/** The plan of a trace of the judge's own LLM call: nothing is computed (design §5, `ragmeter.judge.call`). */
function judgeOwnPlan(): TracePlan {
  const own: Applicability = { ok: false, status: "not_applicable", reason: `the judge's own LLM call (span attribute ${JUDGE_CALL_ATTRIBUTE}): never judged` };
  return { ranking: own, answerWithTexts: own, questionAndAnswer: own, questionWithTexts: own, answer: own };
}

/** Every judgment of a result: each judged metric's outcome, or each of its repeats. */
function judgmentsOf(r: QuestionResult): Outcome[] {
  // a view metric repeats another metric's judgment: counted once, with that metric
  return JUDGED_METRICS.flatMap((m) => {
    const o = m.view === undefined ? r.metrics[m.name] : undefined;
    return o === undefined ? [] : (o.repeats ?? [o]);
  });
}

/** Judge requests and tokens of every judgment of a result (all repeats). */
function spendOf(r: QuestionResult): JudgeSpend {
  let calls = 0;
  let tokens = 0;
  for (const j of judgmentsOf(r)) {
    calls += j.calls ?? 0;
    tokens += (j.input_tokens ?? 0) + (j.output_tokens ?? 0);
  }
  return { calls, tokens };
}

/** The `judge_error` judgments of a result (all repeats), by kind, with the first reason of each kind. */
function failuresOf(r: QuestionResult): Pick<ScoredTrace, "judgeFailures" | "judgeFailureReasons"> {
  const judgeFailures: Partial<Record<JudgeFailureKind, number>> = {};
  const judgeFailureReasons: Partial<Record<JudgeFailureKind, string>> = {};
  for (const j of judgmentsOf(r)) {
    if (j.status !== "judge_error") continue;
    const k = judgeFailureKind(j.reason);
    judgeFailures[k] = (judgeFailures[k] ?? 0) + 1;
    judgeFailureReasons[k] ??= j.reason;
  }
  return { judgeFailures, judgeFailureReasons };
}

/** The retrieved items as captured (a missing text stored as ""), for the interaction row. */
function storedRetrieval(i: Interaction): QuestionResult["contexts"] {
  return (i.retrieved ?? []).map((d) => ({ id: d.id ?? "", document_id: d.document_id ?? d.id ?? "", text: d.text ?? "", score: d.score }));
}

/** The judge calls a plan saves: grounding, relevance, and the reference-based judge when it would have run. */
function skippedCalls(plan: TracePlan, golden: GoldenItem | null, judge: Judge): SkippedCalls {
  const out: SkippedCalls = {};
  if (!judge.metered) return out;
  for (const a of judgedPlans(plan, golden, judge)) if (!a.ok) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
}

/** The plan entry of each judged metric the judge would be asked for on this trace (its golden needs met, its task on the judge). */
function judgedPlans(plan: TracePlan, golden: GoldenItem | null, judge: Judge): Applicability[] {
  const input = { question: "", answer: "", contexts: [], chunks: [], expect: golden, answerable: golden !== null && isAnswerable(golden), abstained: false, k: 0 };
  // a view metric reads another metric's judgment: no call of its own
  return JUDGED_METRICS.filter((def) => def.view === undefined && metricGap(def, input, judge, {}) === null).map((def) => plan[planKeyOf(def.needs)]);
}

/** The judge calls a trace's plan leaves to the judge (one per judged metric it would judge). */
function judgedCalls(plan: TracePlan, golden: GoldenItem | null, judge: Judge): number {
  return judgedPlans(plan, golden, judge).filter((a) => a.ok).length;
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
