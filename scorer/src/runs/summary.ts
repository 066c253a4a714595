import { JUDGED_METRICS, type MetricValue, metricNames, metricValues } from "@ragmeter/core/domain/metricTable";
import type { QuestionResult } from "@ragmeter/core/domain/result";
import { type LengthBias, lengthBiasOfLengths, type RepeatVariance, repeatVariance } from "@ragmeter/core/judges/analysis";
import type { JudgeStats } from "@ragmeter/core/judges/session/session";
import type { Judge } from "@ragmeter/core/judges/types";
import type { GoldenItem, MatchMode } from "@ragmeter/golden";
import { type CalibrationRecord, lastCalibration, lastOtherCalibration } from "@ragmeter/store/calibrations";
import type { Store } from "@ragmeter/store/client";
import { runScores } from "@ragmeter/store/results";
import { getRun, previousRun, type RunRecord, saveRun } from "@ragmeter/store/runs";
import { type Aggregate, aggregate } from "./aggregate.js";
import { expectedSources, type QuestionDigest, type QuestionFailure, questionDigester, questionFailure } from "./digest.js";
import { documentIdWarningOf, fewContextsWarning, type ModeReport, matchModeReport } from "./matchModes.js";
import { type PairedDelta, pairedDelta } from "./paired.js";
import { storeRunSummary } from "./runSummary.js";

/** What the run's judges did and how far they can be trusted: usage and cost, length bias, repeat variance, last calibration. */
interface JudgeRunReport {
  readonly stats: JudgeStats;
  readonly repeat: number;
  readonly cache: boolean;
  /** Spearman ρ of answer length vs each judge score. */
  readonly length_bias: readonly LengthBias[];
  /** Per-metric variance over repeats (empty when repeat = 1). */
  readonly variance: readonly RepeatVariance[];
  /** The last calibration of this judge (kind, model, prompt version), or null. */
  readonly calibration: CalibrationRecord | null;
  /**
   * When this judge has no calibration: the latest one of the same judge kind under another model or
   * prompt version (the summary says "not calibrated since prompt X"), else null.
   */
  readonly calibration_before_change: CalibrationRecord | null;
  /** LLM judge calls not made, by the status the judged metric got instead (design §5); empty for the heuristic judge. */
  readonly skipped: Readonly<Record<string, number>>;
}

/** Per-question metric values of a run: every metric of the table (design §5). */
export function runMetricValues(q: QuestionResult, ks: readonly number[]): Map<string, MetricValue> {
  return metricValues(q, ks);
}

/** Metric names of a run in stored order: an optional judged metric only when the run's judge has its task. */
export function runMetricNames(ks: readonly number[], judge: Judge): string[] {
  return metricNames(ks, (m) => m.kind === "judged" && judge.promptVersion[m.task] !== undefined);
}

/** The outcome of one evaluation run. */
export interface EvalOutcome {
  readonly run: RunRecord;
  /** What the summary keeps of each question, in golden order (every figure is computed from these). */
  readonly questions: readonly QuestionDigest[];
  /**
   * The full per-question results (answers, contexts, claims), in the same order, when they were
   * kept (`--json`, library calls); null otherwise, so a long run holds only the digests.
   */
  readonly results: readonly QuestionResult[] | null;
  readonly aggregate: Aggregate;
  readonly byTag: Readonly<Record<string, Aggregate>>;
  /** Paired deltas against the previous comparable run, or why there is none. */
  readonly previous: { readonly run: RunRecord; readonly deltas: readonly PairedDelta[] } | { readonly run: null; readonly why: string };
  /** Non-fatal findings (pipeline version mismatch, judge model equals generator model). */
  readonly warnings: readonly string[];
  /** Share of questions that could not be measured (0–1): see {@link questionFailures}. */
  readonly errorRate: number;
  /** The questions that could not be measured, with why. */
  readonly failures: readonly QuestionFailure[];
  /** Judge usage, cost, length bias, repeat variance and last calibration. */
  readonly judgeReport: JudgeRunReport;
  /** Items and recall@k by match mode (golden runs; absent for replay). */
  readonly byMode?: Readonly<Record<MatchMode, ModeReport>>;
}

/** Per-question metric maps of a stored run, keyed by golden id (repeats averaged). */
export async function storedQuestionMetrics(store: Store, runId: string): Promise<Map<string, Map<string, MetricValue>>> {
  const out = new Map<string, Map<string, MetricValue>>();
  for (const r of await runScores(store, runId)) {
    let m = out.get(r.golden_id);
    if (!m) {
      m = new Map();
      out.set(r.golden_id, m);
    }
    m.set(r.metric, { value: r.value, status: r.status });
  }
  return out;
}

/** What {@link completeRun} needs from the run that produced the results. */
export interface CompleteRunInput {
  readonly store: Store;
  readonly run: RunRecord;
  /** The digests of the run's questions in golden order (see {@link questionDigester}). */
  readonly questions: readonly QuestionDigest[];
  /** The full results in the same order when kept (`--json`), else null. */
  readonly results: readonly QuestionResult[] | null;
  readonly ks: readonly number[];
  /** The judge the results were scored with (the session's judge). */
  readonly judge: Judge;
  readonly stats: JudgeStats;
  readonly repeat: number;
  readonly useCache: boolean;
  readonly warnings: readonly string[];
  readonly now: () => number;
  /** The golden items the run asked (golden runs): match-mode report and the document-id warning. */
  readonly goldenItems?: readonly GoldenItem[] | null;
}

/**
 * The warnings of a golden run about its target: no retrieved document is an expected source (no
 * document id), and fewer contexts than the largest k (a question the target did not answer has
 * none; the largest count is what matters).
 */
function goldenRunWarnings(items: readonly GoldenItem[], questions: readonly QuestionDigest[], ks: readonly number[]): string[] {
  const doc = documentIdWarningOf(
    expectedSources(items).size,
    questions.reduce((n, q) => n + q.retrieved, 0),
    questions.some((q) => q.source_hit),
  );
  const few = fewContextsWarning(
    ks,
    questions.map((q) => q.retrieved),
  );
  return [doc, few].filter((w): w is string => w !== null);
}

/**
 * Finishes a run whatever produced its results (direct replay or spans through the scorer):
 * aggregates, breaks down by tag, builds the judge report, marks the run completed with its
 * summary, and pairs it with the previous comparable run (design §5).
 */
export async function completeRun(input: CompleteRunInput): Promise<EvalOutcome> {
  const { store, questions, ks, judge, repeat, useCache } = input;
  let run = input.run;
  const now = input.now;
  const goldenItems = input.goldenItems ?? null;
  const byMode = goldenItems ? matchModeReport(goldenItems, questions, ks) : null;
  const warnings = [...input.warnings, ...(goldenItems ? goldenRunWarnings(goldenItems, questions, ks) : [])];
  const names = runMetricNames(ks, judge);
  const agg = aggregate(
    questions.map((q) => q.metrics),
    names,
  );
  const byTag: Record<string, Aggregate> = {};
  const tags = [...new Set(questions.flatMap((q) => q.tags))].sort();
  for (const tag of tags)
    byTag[tag] = aggregate(
      questions.filter((q) => q.tags.includes(tag)).map((q) => q.metrics),
      names,
    );
  const errors = questions.filter((q) => q.status === "target_error").length;
  const failures = questions.flatMap((q) => (q.failure ? [q.failure] : []));
  const judgeReport: JudgeRunReport = {
    ...(await judgeRunReport(store, run, questions, input.stats, repeat, useCache)),
    skipped: judge.metered ? skippedByReason(questions, judge) : {},
  };
  const finishedAt = now();
  // A run in which no question could be scored is stored as failed: never a baseline for the next.
  // Judge errors on answered questions (recall measured) are counted, not "nothing scored" (issue 13).
  const nothingScored = questions.length > 0 && failures.length === questions.length && failures.every((f) => f.status !== "judge_error");
  run = {
    ...run,
    status: nothingScored ? "failed" : "completed",
    finished_at: new Date(finishedAt).toISOString(),
    summary: storeRunSummary({
      metrics: agg.metrics,
      n: agg.n,
      counts: agg.counts,
      questions: questions.length,
      target_errors: errors,
      failed_questions: failures.length,
      ...(byMode ? { match_modes: byMode } : {}),
      judge: {
        calls: judgeReport.stats.calls,
        cached: judgeReport.stats.cached,
        not_sampled: judgeReport.stats.not_sampled,
        // Judge calls not made, by the status the judged metric got instead (design §5).
        skipped: judgeReport.skipped,
        input_tokens: judgeReport.stats.input_tokens,
        output_tokens: judgeReport.stats.output_tokens,
        cost_usd: judgeReport.stats.cost_usd,
        max_cost_usd: judgeReport.stats.max_cost_usd,
        repeat,
        cache: useCache,
        length_bias: judgeReport.length_bias,
        variance: judgeReport.variance.map(({ flipped_ids: _f, ...v }) => v),
        calibration_id: judgeReport.calibration?.calibration_id ?? null,
      },
    }),
  };
  await saveRun(store, run);
  const stored = (await getRun(store, run.run_id)) ?? run;

  const prev = await previousRun(store, stored);
  let previous: EvalOutcome["previous"];
  if (!prev) {
    previous = { run: null, why: "no completed run on this golden set with the same judge kind, model and prompt version" };
  } else {
    const a = await storedQuestionMetrics(store, prev.run_id);
    const b = new Map(questions.map((q) => [q.golden_id, q.metrics] as const));
    previous = { run: prev, deltas: names.map((m) => pairedDelta(m, a, b)) };
  }
  return {
    run: stored,
    questions,
    results: input.results,
    aggregate: agg,
    byTag,
    previous,
    warnings: [...warnings],
    errorRate: questions.length === 0 ? 0 : failures.length / questions.length,
    failures,
    judgeReport,
    ...(byMode ? { byMode } : {}),
  };
}

export type { QuestionDigest, QuestionFailure } from "./digest.js";

/**
 * The questions that could not be measured: the target failed (`target_error`), the spans never
 * arrived (`trace_timeout`), or the judge failed on every judged metric (`judge_error`). Their share
 * is the error rate of `--max-error-rate`.
 */
export function questionFailures(results: readonly QuestionResult[]): QuestionFailure[] {
  return results.flatMap((q) => {
    const f = questionFailure(q);
    return f ? [f] : [];
  });
}

/** The digests of full results, in their order (runs that hold every result anyway: replay, --via-traces). */
export function digestResults(results: readonly QuestionResult[], ks: readonly number[], goldenItems: readonly GoldenItem[] | null): QuestionDigest[] {
  return results.map(questionDigester(ks, goldenItems));
}

/** Builds the judge report of a run: stats, length bias per judged metric, variance over repeats, last calibration. */
async function judgeRunReport(
  store: Store,
  run: RunRecord,
  questions: readonly QuestionDigest[],
  stats: JudgeStats,
  repeat: number,
  cache: boolean,
): Promise<Omit<JudgeRunReport, "skipped">> {
  const length_bias = JUDGED_METRICS.map((m) =>
    lengthBiasOfLengths(
      m.name,
      questions.map((q) => ({ length: q.answer_length, score: q.metrics.get(m.name) ?? { status: "not_applicable", value: null } })),
    ),
  ).filter((b) => b.n > 0);
  const variance =
    repeat > 1
      ? JUDGED_METRICS.map((m, i) => repeatVariance(m.name, new Map(questions.flatMap((q) => (q.repeats ? [[q.golden_id, q.repeats[i] ?? []] as const] : []))))).filter(
          (v) => v.n > 0,
        )
      : [];
  const judge = { judge_kind: run.judge_kind, judge_model: run.judge_model, judge_prompt_version: run.judge_prompt_version };
  const calibration = await lastCalibration(store, judge);
  const calibration_before_change = calibration === null ? await lastOtherCalibration(store, judge) : null;
  return { stats, repeat, cache, length_bias, variance, calibration, calibration_before_change };
}

/**
 * Judged metrics stored without a call, by status: the calls a run did not spend. Counted for the
 * metrics the run's judge has a task for (a view reads another's judgment; an optional metric, whose
 * input only some golden items hold, is not a call skipped by the trace).
 */
function skippedByReason(questions: readonly QuestionDigest[], judge: Judge): Record<string, number> {
  const counted = JUDGED_METRICS.filter((m) => !m.optional && m.view === undefined && judge.promptVersion[m.task] !== undefined).map((m) => m.name);
  const out: Record<string, number> = {};
  for (const q of questions)
    for (const status of counted.map((name) => q.metrics.status(name)))
      if (status === "not_applicable" || status === "content_missing" || status === "context_incomplete" || status === "uncertain_reading" || status === "not_sampled")
        out[status] = (out[status] ?? 0) + 1;
  return out;
}
