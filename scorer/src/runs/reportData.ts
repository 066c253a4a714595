import { MRR, recallMetric } from "@ragmeter/core/domain/metrics/recall";
import { displayRank, type MetricValue, metricNames } from "@ragmeter/core/domain/metricTable";
import type { Store } from "@ragmeter/store/client";
import { claimCountsByRun, goldenQuestionsOfRun, goldenTags, latestComparison, recentBadClaims, retrievedOfRun } from "@ragmeter/store/report";
import { listRuns, previousRun, type RunRecord } from "@ragmeter/store/runs";
import { BOOTSTRAP_RESAMPLES, DEFAULT_SEED } from "./bootstrap.js";
import { pairedDelta } from "./paired.js";
import { storedQuestionMetrics } from "./summary.js";

/** Mean of the `ok` per-question values of one metric in one run, with how many questions. */
interface MetricMean {
  readonly mean: number | null;
  readonly n: number;
}

/** One completed run in the trend. */
export interface ReportRun {
  readonly run_id: string;
  /** ISO-8601 UTC. */
  readonly started_at: string;
  readonly pipeline_version: string;
  readonly source: string;
  readonly golden_set_hash: string;
  /** metric name (recall@k, mrr, grounding, relevance, key facts, abstention) → mean of ok values. */
  readonly metrics: Readonly<Record<string, MetricMean>>;
  /** Claims by verdict (SUPPORTED, UNSUPPORTED, CONTRADICTED). */
  readonly claims: Readonly<Record<string, number>>;
}

/** A row of the last-vs-previous table. */
interface ReportDelta {
  readonly metric: string;
  readonly n: number;
  readonly previous: number | null;
  readonly last: number | null;
  readonly delta: number | null;
  readonly ci: readonly [number, number] | null;
}

/** Everything the HTML report shows (Overview, Retrieval and Grounding dashboards). */
export interface ReportData {
  /** ISO-8601 UTC. */
  readonly generated_at: string;
  /** Store location, for the footer. */
  readonly location: string;
  /** Completed runs, oldest first (at most `maxRuns`). */
  readonly runs: readonly ReportRun[];
  /** k values present in the runs, ascending. */
  readonly ks: readonly number[];
  /** The recall@k of the headline trend. */
  readonly headline_k: number;
  /** Last run vs its previous comparable run (design §5), or why there is none. */
  readonly comparison:
    | {
        readonly last: ReportRunRef;
        readonly previous: ReportRunRef;
        readonly origin: "stored" | "computed";
        readonly seed: number;
        readonly resamples: number;
        readonly deltas: readonly ReportDelta[];
      }
    | { readonly last: ReportRunRef | null; readonly previous: null; readonly why: string };
  /**
   * Questions whose recall@headline_k went from 1 (previous run) to 0 (last run): the hit rank in
   * each (from the stored reciprocal rank; null: no hit at all) and what the last run retrieved instead.
   */
  readonly lost_hit: readonly {
    readonly golden_id: string;
    readonly question: string;
    readonly trace_id: string;
    readonly rank_previous: number | null;
    readonly rank_last: number | null;
    readonly retrieved_last: readonly { readonly id: string; readonly document_id: string }[];
  }[];
  /** The last run by tag: metric → mean of ok values, with n. */
  readonly by_tag: Readonly<Record<string, Readonly<Record<string, MetricMean>>>>;
  /** Most recent UNSUPPORTED and CONTRADICTED claims of the report's runs and of live traffic, newest first. */
  readonly bad_claims: readonly {
    readonly time: string;
    readonly verdict: string;
    readonly claim: string;
    readonly question: string;
    readonly pipeline_version: string;
    readonly trace_id: string;
    readonly golden_id: string;
  }[];
}

/** A run named in the comparison. */
interface ReportRunRef {
  readonly run_id: string;
  readonly pipeline_version: string;
  readonly started_at: string;
}

/** Options of {@link loadReportData}. */
export interface ReportOptions {
  /** Most recent completed runs in the trend (default 50). */
  readonly maxRuns?: number;
  /** Recent bad claims listed (default 30). */
  readonly maxClaims?: number;
  /** Clock (tests). */
  readonly now?: () => number;
  /**
   * Golden set of the report (a SHA-256 or a prefix of it). Default: the golden set of the latest
   * completed golden run; trends only make sense over one golden set and one source.
   */
  readonly goldenSet?: string;
}

const ref = (r: RunRecord): ReportRunRef => ({ run_id: r.run_id, pipeline_version: r.pipeline_version, started_at: r.started_at });

/**
 * Reads the report's content from the store (every table read with FINAL): per-run metric means of
 * the completed runs, claims by verdict, the last run against its previous comparable run (the
 * latest stored comparison of that pair, else a paired comparison computed here and not stored),
 * the questions that lost their hit and the most recent UNSUPPORTED/CONTRADICTED claims.
 * @throws the client's error when the store cannot be read.
 */
export async function loadReportData(store: Store, options: ReportOptions = {}): Promise<ReportData> {
  const completed = trendRuns(
    (await listRuns(store)).filter((r) => r.status === "completed"),
    options,
  );
  const perQuestion = new Map<string, QuestionMetrics>();
  for (const r of completed) perQuestion.set(r.run_id, await storedQuestionMetrics(store, r.run_id));
  const claimCounts = await claimCountsOf(store, completed);
  const ks = [...new Set(completed.flatMap((r) => r.ks))].sort((a, b) => a - b);
  const runs: ReportRun[] = completed.map((r) => ({
    run_id: r.run_id,
    started_at: r.started_at,
    pipeline_version: r.pipeline_version,
    source: r.source,
    golden_set_hash: r.golden_set_hash,
    metrics: Object.fromEntries([...okValues(perQuestion.get(r.run_id)?.values() ?? [])].map(([metric, vs]) => [metric, meanOf(vs)])),
    claims: claimCounts.get(r.run_id) ?? {},
  }));
  const headline_k = ks.includes(5) ? 5 : (ks[ks.length - 1] ?? 5);
  const last = completed[completed.length - 1];
  const { comparison, lost_hit } = await lastAgainstPrevious(store, last, perQuestion, headline_k);
  const by_tag = last ? await byTagOf(store, last, perQuestion.get(last.run_id)) : {};
  const bad_claims = await recentBadClaims(
    store,
    completed.map((r) => r.run_id),
    options.maxClaims ?? 30,
  );
  return { generated_at: new Date((options.now ?? Date.now)()).toISOString(), location: store.location, runs, ks, headline_k, comparison, lost_hit, by_tag, bad_claims };
}

/** One run's stored per-question metrics (golden id → metric → outcome). */
type QuestionMetrics = Awaited<ReturnType<typeof storedQuestionMetrics>>;

/**
 * The runs of the trend, oldest first (at most `maxRuns`): those of the golden set asked (default: that
 * of the latest golden run, else of the latest run), golden runs only unless a golden set was named or
 * there is no golden run.
 */
function trendRuns(all: readonly RunRecord[], options: ReportOptions): RunRecord[] {
  const goldenSet = options.goldenSet ?? all.find((r) => r.source === "golden")?.golden_set_hash ?? all[0]?.golden_set_hash ?? "";
  const anySource = options.goldenSet !== undefined || all.every((x) => x.source !== "golden");
  return all
    .filter((r) => r.golden_set_hash.startsWith(goldenSet) && (anySource || r.source === "golden"))
    .slice(0, options.maxRuns ?? 50)
    .reverse();
}

/** Claims by verdict, per run. */
async function claimCountsOf(store: Store, runs: readonly RunRecord[]): Promise<Map<string, Record<string, number>>> {
  const claimCounts = new Map<string, Record<string, number>>();
  if (runs.length === 0) return claimCounts;
  const rows = await claimCountsByRun(
    store,
    runs.map((r) => r.run_id),
  );
  for (const row of rows) claimCounts.set(row.run_id, { ...(claimCounts.get(row.run_id) ?? {}), [row.verdict]: row.n });
  return claimCounts;
}

/** The `ok` values of some questions' metrics, by metric. */
function okValues(questions: Iterable<ReadonlyMap<string, { readonly status: string; readonly value: number | null }>>): Map<string, number[]> {
  const byMetric = new Map<string, number[]>();
  for (const m of questions) for (const [metric, v] of m) if (v.status === "ok" && v.value !== null) byMetric.set(metric, [...(byMetric.get(metric) ?? []), v.value]);
  return byMetric;
}

const meanOf = (vs: readonly number[]): MetricMean => ({ mean: vs.reduce((a, b) => a + b, 0) / vs.length, n: vs.length });

/** The last run against its previous comparable run, and the questions that lost their hit between them; or why there is no comparison. */
async function lastAgainstPrevious(
  store: Store,
  last: RunRecord | undefined,
  perQuestion: ReadonlyMap<string, QuestionMetrics>,
  headlineK: number,
): Promise<Pick<ReportData, "comparison" | "lost_hit">> {
  if (!last) return { comparison: { last: null, previous: null, why: "no completed run in the store" }, lost_hit: [] };
  const prev = await previousRun(store, last);
  if (!prev) {
    return {
      comparison: { last: ref(last), previous: null, why: "no earlier completed run on the same golden set with the same judge kind, model and prompt version" },
      lost_hit: [],
    };
  }
  const a = perQuestion.get(prev.run_id) ?? (await storedQuestionMetrics(store, prev.run_id));
  const b = perQuestion.get(last.run_id)!;
  const rows = await latestComparison(store, prev.run_id, last.run_id);
  const comparison = rows.length > 0 ? storedComparison(rows, last, prev) : computedComparison(a, b, last, prev);
  return { comparison, lost_hit: await lostHit(store, last, a, b, headlineK) };
}

/** The latest stored comparison of the pair, in the report's metric order (reference_facts, left out of the report's own, ranked after recall@k). */
function storedComparison(rows: Awaited<ReturnType<typeof latestComparison>>, last: RunRecord, prev: RunRecord): ReportData["comparison"] {
  const reportNames = new Set(metricNames([...last.ks], false));
  const order = (m: string) => displayRank(m) + (reportNames.has(m) ? 0 : 1);
  return {
    last: ref(last),
    previous: ref(prev),
    origin: "stored",
    seed: rows[0]!.seed,
    resamples: rows[0]!.resamples,
    deltas: rows
      .map((r) => ({
        metric: r.metric,
        n: r.n,
        previous: r.mean_a,
        last: r.mean_b,
        delta: r.delta,
        ci: r.ci_lower !== null && r.ci_upper !== null ? ([r.ci_lower, r.ci_upper] as const) : null,
      }))
      .sort((x, y) => order(x.metric) - order(y.metric)),
  };
}

/** A paired comparison of the pair computed here (not stored), over the report's metrics of both runs' k values. */
function computedComparison(a: QuestionMetrics, b: QuestionMetrics, last: RunRecord, prev: RunRecord): ReportData["comparison"] {
  const names = metricNames(
    [...new Set([...prev.ks, ...last.ks])].sort((x, y) => x - y),
    false,
  );
  return {
    last: ref(last),
    previous: ref(prev),
    origin: "computed",
    seed: DEFAULT_SEED,
    resamples: BOOTSTRAP_RESAMPLES,
    deltas: names.map((m) => {
      const d = pairedDelta(m, a, b, { seed: DEFAULT_SEED, resamples: BOOTSTRAP_RESAMPLES });
      return { metric: m, n: d.n, previous: d.mean_a, last: d.mean_b, delta: d.delta, ci: d.interval ? ([d.interval.lower, d.interval.upper] as const) : null };
    }),
  };
}

/** The stored reciprocal rank gives the hit rank back (1/rr), or no hit (null). */
function hitRank(m: ReadonlyMap<string, { value: number | null }> | undefined): number | null {
  const rr = m?.get(MRR.name)?.value ?? null;
  return rr === null || rr <= 0 ? null : Math.round(1 / rr);
}

/** The questions whose recall@headline_k went from 1 (previous run `a`) to 0 (last run `b`), with their hit ranks and what the last run retrieved. */
async function lostHit(store: Store, last: RunRecord, a: QuestionMetrics, b: QuestionMetrics, headlineK: number): Promise<ReportData["lost_hit"]> {
  const recall = recallMetric(headlineK).name;
  const lost = [...b.entries()]
    .filter(([id, m]) => m.get(recall)?.value === 0 && a.get(id)?.get(recall)?.value === 1)
    .map(([id]) => id)
    .sort();
  if (lost.length === 0) return [];
  const retrieved = await retrievedOfRun(store, last.run_id, lost);
  return (await goldenQuestionsOfRun(store, last.golden_set_hash, last.run_id, lost)).map((q) => ({
    ...q,
    rank_previous: hitRank(a.get(q.golden_id)),
    rank_last: hitRank(b.get(q.golden_id)),
    retrieved_last: (retrieved.get(q.golden_id) ?? []).slice(0, headlineK),
  }));
}

/** The last run's metric means by tag of its golden items, tags in order. */
async function byTagOf(store: Store, last: RunRecord, questions: QuestionMetrics | undefined): Promise<ReportData["by_tag"]> {
  const tags = await goldenTags(store, last.golden_set_hash);
  const byTag = new Map<string, ReadonlyMap<string, MetricValue>[]>();
  for (const [id, m] of questions ?? []) for (const tag of tags.get(id) ?? []) byTag.set(tag, [...(byTag.get(tag) ?? []), m]);
  const by_tag: Record<string, Record<string, MetricMean>> = {};
  for (const [tag, ms] of [...byTag].sort((x, y) => x[0].localeCompare(y[0]))) {
    by_tag[tag] = Object.fromEntries([...okValues(ms)].map(([metric, vs]) => [metric, meanOf(vs)]));
  }
  return by_tag;
}
