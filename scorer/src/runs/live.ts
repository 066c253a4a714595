import { costUsd, type PriceTable, priceOf } from "@ragmeter/core/judges/session/cost";
import type { Store } from "@ragmeter/store/client";
import {
  type LiveFilter,
  type LiveMetricAggregate,
  type LiveOverlapRow,
  type LiveRecentRow,
  type LiveTraceAggregate,
  liveAggregates,
  liveOverlap,
  liveRecent,
} from "@ragmeter/store/live";
import type { LiveStreamStats } from "@ragmeter/store/liveStream";
import { type LiveMetricInfo, liveMetrics, traceView } from "@ragmeter/store/liveTraces";
import { groupKey, type LiveWindow, type LiveWindowCache, liveWindowCache, readLiveWindow } from "@ragmeter/store/liveWindow";
import { liveWindowOverlap } from "@ragmeter/store/liveWindowOverlap";
import { bucketOf, latestValues, metricAggregates, traceAggregates } from "./liveKept.js";

export type { LiveMetricInfo } from "@ragmeter/store/liveTraces";

import { distinct, jaccard } from "@ragmeter/core/domain/overlap";
import { type BootstrapDraws, bootstrapDraws, bootstrapMeanInterval, DEFAULT_SEED } from "./bootstrap.js";

/** The variable that turns content capture on (named by the content-missing warning). */
export const CAPTURE_CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";

/**
 * The live view's interval of a metric is computed on at most this many `ok` values of a group: those
 * of its most recent traces (design §3). The mean and `n` are over every value of the window.
 */
const LIVE_CI_SAMPLE = 200;
/** Bootstrap resamples of a live interval (compare's default is 10,000; design §3). */
const LIVE_RESAMPLES = 500;

/**
 * Mean of the `ok` values of a metric over the window, with the 95% bootstrap interval of the mean of
 * the `ci_n` most recent of them (null with fewer than 2).
 */
export interface LiveMetric {
  readonly n: number;
  readonly mean: number | null;
  readonly ci: readonly [number, number] | null;
  /** Values the interval was computed on: the group's most recent `ok` values, at most the summary's `ci_sample`. */
  readonly ci_n: number;
  /** Score rows by status (`ok`, `content_missing`, `not_sampled`, …). */
  readonly statuses: Readonly<Record<string, number>>;
}

/** One time bucket of a group's trend. */
export interface LiveBucket {
  /** Bucket start, ISO-8601 UTC. */
  readonly start: string;
  readonly traces: number;
  /** Mean of each live metric's `ok` values in the bucket (null: none), by metric name. */
  readonly metrics: Readonly<Record<string, number | null>>;
}

/** Live traffic of one service and pipeline version. */
export interface LiveGroup {
  readonly service: string;
  readonly pipeline_version: string;
  /** Live traces settled into an interaction in the window. */
  readonly traces_seen: number;
  /** Traces with at least one `ok` score of a live metric. */
  readonly traces_scored: number;
  /** Traces by status: the interaction's when not `ok`, else its first live metric's score's (table order) it has. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Every live metric of the summary's `metrics`, by name. */
  readonly metrics: Readonly<Record<string, LiveMetric>>;
  /** Judge calls that spent tokens, their tokens, and their cost (null when no price is known: `cost_reason`). */
  readonly judge: {
    readonly calls: number;
    readonly input_tokens: number;
    readonly output_tokens: number;
    readonly cost_usd: number | null;
    readonly cost_reason?: string;
  };
  readonly buckets: readonly LiveBucket[];
}

/** Retrieval overlap of two versions of a service on the questions both answered. */
interface LiveOverlap {
  readonly service: string;
  readonly version_a: string;
  readonly version_b: string;
  /** Distinct questions asked of both versions in the window. */
  readonly questions: number;
  /** Mean Jaccard index of the retrieved document ids (latest trace per question and version), as replay. */
  readonly mean_jaccard: number | null;
}

/** What `ragmeter live` shows. */
export interface LiveSummary {
  /** ISO-8601 UTC. */
  readonly generated_at: string;
  /** Window start, ISO-8601 UTC. */
  readonly since: string;
  readonly window_ms: number;
  readonly service: string | null;
  readonly pipeline_version: string | null;
  readonly seed: number;
  readonly resamples: number;
  /** At most this many `ok` values of a group and metric (its most recent) carry its interval (`ci_n`). */
  readonly ci_sample: number;
  /** The live metrics (the metric table's entries with `live: true`), in table order: name, label, largest value. */
  readonly metrics: readonly LiveMetricInfo[];
  /** The stream's judge failures by kind and judge calls skipped for the budget, over the window's minutes (every scorer of the store). */
  readonly stream: LiveStreamStats;
  readonly traces_seen: number;
  readonly content_missing: number;
  readonly groups: readonly LiveGroup[];
  readonly overlap: readonly LiveOverlap[];
  readonly warnings: readonly string[];
}

/** Options of {@link summariseLive}. */
export interface LiveOptions {
  /** Window length, ms. */
  readonly windowMs: number;
  readonly service?: string;
  readonly pipelineVersion?: string;
  readonly now: number;
  readonly seed?: number;
  /** Bootstrap resamples of each interval (default {@link LIVE_RESAMPLES}). */
  readonly resamples?: number;
  /** `ok` values of a group and metric an interval is computed on, its most recent (default {@link LIVE_CI_SAMPLE}). */
  readonly ciSample?: number;
  readonly prices?: PriceTable | null;
  /** Buckets of each group's trend (default 12). */
  readonly buckets?: number;
  /** The live metrics shown (default: the metric table's, {@link liveMetrics}). */
  readonly metrics?: readonly LiveMetricInfo[];
  /** Traces the window's covered minutes must count before their aggregates are read instead of their rows (default the store's `LIVE_MINUTE_TRACES`). */
  readonly minuteTraces?: number;
  /** What the process serving the live view keeps between calls ({@link liveCaches}); absent, statements read what it gives. */
  readonly cache?: LiveCaches;
}

/** What the process serving the live view keeps between calls: the window's rows (@ragmeter/store/liveWindow) and the bootstrap's draws. */
export interface LiveCaches {
  readonly window: LiveWindowCache;
  readonly draws: BootstrapDraws;
}

/** New {@link LiveCaches} (one per reader of a store). */
export function liveCaches(window: LiveWindowCache = liveWindowCache()): LiveCaches {
  return { window, draws: bootstrapDraws() };
}

/** The content-missing warning when more than half of the window's traces are `content_missing`, else null; `metrics` names the live metrics. */
export function contentMissingWarning(seen: number, missing: number, services: readonly string[], metrics: readonly string[] = liveMetrics().map((m) => m.name)): string | null {
  if (seen === 0 || missing * 2 <= seen) return null;
  return `${missing} of ${seen} live traces are content_missing${services.length > 0 ? ` (${services.join(", ")})` : ""}: the live metrics (${metrics.join(", ")}) cannot be scored; set ${CAPTURE_CONTENT_ENV}=true in the instrumented service (it then exports questions, chunks and answers)`;
}

const sortedRecord = (m: ReadonlyMap<string, number>): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const k of [...m.keys()].sort()) out[k] = m.get(k) as number;
  return out;
};
const add = (m: Map<string, number>, k: string, v = 1): void => {
  m.set(k, (m.get(k) ?? 0) + v);
};

/** What a metric of a group adds up to over the window. */
interface MetricTotals {
  /** `ok` rows with a value, and the sum of their values. */
  n: number;
  sum: number;
  /** Score rows by status. */
  statuses: Map<string, number>;
  /** The `ok` values of the group's most recent traces (at most the sample size), oldest first. */
  sample: number[];
}

/** What a group of the window adds up to: the same from the store's aggregates and from rows. */
interface GroupTotals {
  readonly service: string;
  readonly pipeline_version: string;
  traces: number;
  scored: number;
  content_missing: number;
  statuses: Map<string, number>;
  /** Per live metric, in the summary's order. */
  metrics: MetricTotals[];
  /** Per judge model: calls that spent tokens and their tokens. */
  judge: Map<string, { calls: number; input_tokens: number; output_tokens: number }>;
  /** Per bucket: traces, and per live metric (summary's order) the `ok` values' count and sum. */
  buckets: { traces: number; n: number[]; sum: number[] }[];
}

/** Two versions of a service: questions both answered and the sum of their Jaccard indexes. */
interface OverlapTotals {
  readonly questions: number;
  readonly jaccard_sum: number;
}

const newMetric = (): MetricTotals => ({ n: 0, sum: 0, statuses: new Map(), sample: [] });
function newGroup(service: string, pipeline_version: string, nBuckets: number, nMetrics: number): GroupTotals {
  return {
    service,
    pipeline_version,
    traces: 0,
    scored: 0,
    content_missing: 0,
    statuses: new Map(),
    metrics: Array.from({ length: nMetrics }, newMetric),
    judge: new Map(),
    buckets: Array.from({ length: nBuckets }, () => ({ traces: 0, n: new Array<number>(nMetrics).fill(0), sum: new Array<number>(nMetrics).fill(0) })),
  };
}
/** The judge calls of a group that spent tokens: `calls` of `model` and their tokens. */
function judged(g: GroupTotals, model: string, calls: number, input_tokens: number, output_tokens: number): void {
  const x = g.judge.get(model) ?? { calls: 0, input_tokens: 0, output_tokens: 0 };
  x.calls += calls;
  x.input_tokens += input_tokens;
  x.output_tokens += output_tokens;
  g.judge.set(model, x);
}
/** A record of the live metrics' names (summary's order) to `f` of each. */
const byName = <T>(metrics: readonly LiveMetricInfo[], f: (k: number) => T): Record<string, T> => {
  const out: Record<string, T> = {};
  metrics.forEach((m, k) => {
    out[m.name] = f(k);
  });
  return out;
};
/** No judge failures, no budget skips. */
const NO_STREAM_STATS: LiveStreamStats = { judge_errors: {}, judge_skipped_budget_exhausted: 0 };
const pairKey = (service: string, a: string, b: string): string => (a < b ? `${service}\u0000${a}\u0000${b}` : `${service}\u0000${b}\u0000${a}`);

/** The window's start and its trend buckets' starts (`bounds`: the starts after the first). */
function windowOf(o: LiveOptions): { since: number; starts: number[]; bounds: number[] } {
  const since = o.now - o.windowMs;
  const nBuckets = o.buckets ?? 12;
  const width = o.windowMs / nBuckets;
  const starts = Array.from({ length: nBuckets }, (_, b) => since + b * width);
  return { since, starts, bounds: starts.slice(1) };
}

/** The summary from what each group adds up to and the versions' overlap. */
function finish(
  totals: readonly GroupTotals[],
  overlapOf: (service: string, a: string, b: string) => OverlapTotals | undefined,
  o: LiveOptions,
  metrics: readonly LiveMetricInfo[],
  stream: LiveStreamStats,
): LiveSummary {
  const seed = o.seed ?? DEFAULT_SEED;
  const resamples = o.resamples ?? LIVE_RESAMPLES;
  const { since, starts } = windowOf(o);
  const metric = (m: MetricTotals): LiveMetric => {
    const ci = m.sample.length >= 2 ? bootstrapMeanInterval(m.sample, { seed, resamples, ...(o.cache !== undefined ? { draws: o.cache.draws } : {}) }) : null;
    return { n: m.n, mean: m.n === 0 ? null : m.sum / m.n, ci: ci ? [ci.lower, ci.upper] : null, ci_n: m.sample.length, statuses: sortedRecord(m.statuses) };
  };
  const groups: LiveGroup[] = [...totals]
    .sort((a, b) => a.service.localeCompare(b.service) || a.pipeline_version.localeCompare(b.pipeline_version))
    .map((g): LiveGroup => {
      const models = [...g.judge.keys()].sort();
      let calls = 0;
      let input_tokens = 0;
      let output_tokens = 0;
      for (const j of g.judge.values()) {
        calls += j.calls;
        input_tokens += j.input_tokens;
        output_tokens += j.output_tokens;
      }
      const unpriced = models.filter((m) => priceOf(o.prices, m) === null);
      const cost =
        calls === 0
          ? { cost_usd: 0 }
          : unpriced.length > 0
            ? { cost_usd: null, cost_reason: `no price for judge model ${unpriced.join(", ")} (RAGMETER_PRICES)` }
            : {
                cost_usd: models.reduce((a, m) => {
                  const j = g.judge.get(m) as { input_tokens: number; output_tokens: number };
                  return a + costUsd(priceOf(o.prices, m)!, j.input_tokens, j.output_tokens);
                }, 0),
              };
      return {
        service: g.service,
        pipeline_version: g.pipeline_version,
        traces_seen: g.traces,
        traces_scored: g.scored,
        statuses: sortedRecord(g.statuses),
        metrics: byName(metrics, (k) => metric(g.metrics[k] as MetricTotals)),
        judge: { calls, input_tokens, output_tokens, ...cost },
        buckets: g.buckets.map((b, i) => ({
          start: new Date(starts[i] as number).toISOString(),
          traces: b.traces,
          metrics: byName(metrics, (k) => ((b.n[k] as number) === 0 ? null : (b.sum[k] as number) / (b.n[k] as number))),
        })),
      };
    });
  // Overlap: per service, each pair of its versions in the window (in the groups' order).
  const overlap: LiveOverlap[] = [];
  for (const service of distinct(groups.map((g) => g.service))) {
    const versions = groups.filter((g) => g.service === service).map((g) => g.pipeline_version);
    for (let a = 0; a < versions.length; a++) {
      for (let b = a + 1; b < versions.length; b++) {
        const x = overlapOf(service, versions[a] as string, versions[b] as string);
        const questions = x?.questions ?? 0;
        overlap.push({
          service,
          version_a: versions[a] as string,
          version_b: versions[b] as string,
          questions,
          mean_jaccard: questions === 0 ? null : (x as OverlapTotals).jaccard_sum / questions,
        });
      }
    }
  }
  const seen = groups.reduce((a, g) => a + g.traces_seen, 0);
  const missing = totals.reduce((a, g) => a + g.content_missing, 0);
  const warning = contentMissingWarning(
    seen,
    missing,
    distinct(totals.filter((g) => g.content_missing > 0).map((g) => g.service)).sort(),
    metrics.map((m) => m.name),
  );
  return {
    generated_at: new Date(o.now).toISOString(),
    since: new Date(since).toISOString(),
    window_ms: o.windowMs,
    service: o.service ?? null,
    pipeline_version: o.pipelineVersion ?? null,
    seed,
    resamples,
    ci_sample: o.ciSample ?? LIVE_CI_SAMPLE,
    metrics,
    stream,
    traces_seen: seen,
    content_missing: missing,
    groups,
    overlap,
    warnings: warning ? [warning] : [],
  };
}

/** A live interaction of the window (its latest scoring): retrieved document ids in rank order, `t` = ms since the epoch. */
export interface LiveInteractionRow {
  readonly trace_id: string;
  readonly service_name: string;
  readonly pipeline_version: string;
  readonly status: string;
  readonly question: string;
  readonly documents: readonly string[];
  readonly t: number;
}

/** A score of a live trace (rows of metrics that are not live are left out). */
export interface LiveScoreRow {
  readonly trace_id: string;
  readonly metric: string;
  readonly value: number | null;
  readonly status: string;
  readonly judge_kind: string;
  readonly judge_model: string;
  readonly judge_input_tokens: number;
  readonly judge_output_tokens: number;
}

/**
 * Summarises live traffic per service and pipeline version from its rows (the window's interactions,
 * one per trace, and their scores of the live metrics), in one pass over them: traces seen and
 * scored, statuses, each live metric's mean over the window with a percentile-bootstrap interval (as
 * compare) of the mean of each group's most recent values (`ciSample`), judge calls and cost, a trend
 * in equal time buckets, the retrieval overlap of versions of one service on the same questions
 * (Jaccard, as replay), and the content-missing warning; `stream` is shown as it is.
 * {@link loadLiveSummary} computes the same from the store's aggregates.
 */
export function summariseLive(
  interactions: readonly LiveInteractionRow[],
  scores: readonly LiveScoreRow[],
  o: LiveOptions,
  stream: LiveStreamStats = NO_STREAM_STATS,
): LiveSummary {
  const { since, bounds } = windowOf(o);
  const ciSample = o.ciSample ?? LIVE_CI_SAMPLE;
  const metrics = o.metrics ?? liveMetrics();
  const slot = new Map(metrics.map((m, k) => [m.name, k]));
  // Per trace, its first score row of each live metric (summary's order).
  const scoresOf = new Map<string, (LiveScoreRow | undefined)[]>();
  for (const s of scores) {
    const k = slot.get(s.metric);
    if (k === undefined) continue;
    let rows = scoresOf.get(s.trace_id);
    if (rows === undefined) {
      rows = new Array<LiveScoreRow | undefined>(metrics.length).fill(undefined);
      scoresOf.set(s.trace_id, rows);
    }
    rows[k] ??= s;
  }
  const groups = new Map<string, GroupTotals>();
  const recent = new Map<string, { t: number; trace_id: string; value: number }[]>();
  // Per service and version, the latest (time, trace id) trace of each question.
  const latest = new Map<string, Map<string, LiveInteractionRow>>();
  for (const i of interactions) {
    if (i.t < since) continue;
    const gk = groupKey(i.service_name, i.pipeline_version);
    let g = groups.get(gk);
    if (g === undefined) {
      g = newGroup(i.service_name, i.pipeline_version, bounds.length + 1, metrics.length);
      groups.set(gk, g);
    }
    const rows = (scoresOf.get(i.trace_id) ?? []).filter((r): r is LiveScoreRow => r !== undefined);
    const bucket = g.buckets[bucketOf(bounds, i.t)] as GroupTotals["buckets"][number];
    g.traces++;
    bucket.traces++;
    const view = traceView(
      i.status,
      rows.map((r) => r.status),
    );
    g.scored += view.scored;
    g.content_missing += view.content_missing;
    add(g.statuses, view.view_status);
    for (const r of rows) {
      const k = slot.get(r.metric) as number;
      const m = g.metrics[k] as MetricTotals;
      add(m.statuses, r.status);
      if (r.judge_input_tokens + r.judge_output_tokens > 0) judged(g, r.judge_model, 1, r.judge_input_tokens, r.judge_output_tokens);
      if (r.status !== "ok" || r.value === null) continue;
      m.n++;
      m.sum += r.value;
      (bucket.n[k] as number)++;
      bucket.sum[k] = (bucket.sum[k] as number) + r.value;
      const rk = `${gk}\u0000${k}`;
      const xs = recent.get(rk) ?? [];
      xs.push({ t: i.t, trace_id: i.trace_id, value: r.value });
      recent.set(rk, xs);
    }
    if (i.question !== "") {
      const byQuestion = latest.get(gk) ?? new Map<string, LiveInteractionRow>();
      const prev = byQuestion.get(i.question);
      if (prev === undefined || i.t > prev.t || (i.t === prev.t && i.trace_id > prev.trace_id)) byQuestion.set(i.question, i);
      latest.set(gk, byQuestion);
    }
  }
  // The sample: the most recent values (by time, then trace id), oldest first.
  for (const [rk, xs] of recent) {
    const [service, version, k] = rk.split("\u0000") as [string, string, string];
    xs.sort((a, b) => b.t - a.t || (a.trace_id < b.trace_id ? 1 : a.trace_id > b.trace_id ? -1 : 0));
    ((groups.get(groupKey(service, version)) as GroupTotals).metrics[Number(k)] as MetricTotals).sample = xs
      .slice(0, ciSample)
      .reverse()
      .map((x) => x.value);
  }
  const overlap = new Map<string, OverlapTotals>();
  const totals = [...groups.values()];
  for (const a of totals) {
    for (const b of totals) {
      if (a.service !== b.service || !(a.pipeline_version < b.pipeline_version)) continue;
      const qa = latest.get(groupKey(a.service, a.pipeline_version)) ?? new Map<string, LiveInteractionRow>();
      const qb = latest.get(groupKey(b.service, b.pipeline_version)) ?? new Map<string, LiveInteractionRow>();
      let questions = 0;
      let jaccard_sum = 0;
      for (const [q, ia] of qa) {
        const ib = qb.get(q);
        if (ib === undefined) continue;
        questions++;
        jaccard_sum += jaccard(distinct(ia.documents), distinct(ib.documents));
      }
      overlap.set(pairKey(a.service, a.pipeline_version, b.pipeline_version), { questions, jaccard_sum });
    }
  }
  return finish(totals, (s, a, b) => overlap.get(pairKey(s, a, b)), o, metrics, stream);
}

/** The group totals of the store's aggregates ({@link liveAggregates}; `names`: the live metrics in the summary's order). */
function totalsOf(traces: readonly LiveTraceAggregate[], metrics: readonly LiveMetricAggregate[], nBuckets: number, names: readonly string[]): Map<string, GroupTotals> {
  const groups = new Map<string, GroupTotals>();
  const groupOf = (service: string, version: string): GroupTotals => {
    const gk = groupKey(service, version);
    let g = groups.get(gk);
    if (g === undefined) {
      g = newGroup(service, version, nBuckets, names.length);
      groups.set(gk, g);
    }
    return g;
  };
  for (const r of traces) {
    const g = groupOf(r.service_name, r.pipeline_version);
    const n = r.traces;
    g.traces += n;
    (g.buckets[r.bucket] as GroupTotals["buckets"][number]).traces += n;
    if (r.scored) g.scored += n;
    if (r.content_missing) g.content_missing += n;
    add(g.statuses, r.view_status, n);
  }
  const slot = new Map(names.map((m, k) => [m, k]));
  for (const r of metrics) {
    const k = slot.get(r.metric);
    if (k === undefined) continue;
    const g = groupOf(r.service_name, r.pipeline_version);
    const m = g.metrics[k] as MetricTotals;
    add(m.statuses, r.status, r.scores);
    // A value counts only with status ok (the scorer stores none otherwise).
    if (r.status === "ok") {
      const bucket = g.buckets[r.bucket] as GroupTotals["buckets"][number];
      m.n += r.values;
      m.sum += r.sum;
      bucket.n[k] = (bucket.n[k] as number) + r.values;
      bucket.sum[k] = (bucket.sum[k] as number) + r.sum;
    }
    if (r.spent) judged(g, r.judge_model, r.scores, r.input_tokens, r.output_tokens);
  }
  return groups;
}

/**
 * The start of the latest trend bucket from which on every group's buckets hold, for each metric, at
 * least `want` of its `ok` values (the sample: its most recent), or undefined when only the whole
 * window does (`starts`: the buckets' starts).
 */
function recentFrom(totals: readonly GroupTotals[], starts: readonly number[], want: (m: MetricTotals) => number): number | undefined {
  const held = totals.map((g) => g.metrics.map(() => 0));
  for (let b = starts.length - 1; b > 0; b--) {
    totals.forEach((g, i) => {
      g.metrics.forEach((_, k) => {
        (held[i] as number[])[k] = ((held[i] as number[])[k] as number) + ((g.buckets[b] as GroupTotals["buckets"][number]).n[k] as number);
      });
    });
    if (totals.every((g, i) => g.metrics.every((m, k) => ((held[i] as number[])[k] as number) >= want(m)))) return starts[b];
  }
  return undefined;
}

/** The window's start (ms), its buckets' starts (`bounds`: those after the first; `starts`: all), the live metrics' names, the filter and whether it takes a group. */
interface WindowQuery {
  readonly since: number;
  readonly bounds: readonly number[];
  readonly starts: readonly number[];
  readonly names: readonly string[];
  readonly ciSample: number;
  readonly f: LiveFilter;
  readonly wanted: (service: string, version: string) => boolean;
}

/** What each group of the window adds up to (its samples the latest value first) and the versions' overlap. */
interface WindowTotals {
  readonly groups: Map<string, GroupTotals>;
  readonly overlap: readonly LiveOverlapRow[];
}

/** The services with more than one version among `groups`. */
function rolledOut(groups: Iterable<GroupTotals>): string[] {
  const versions = new Map<string, number>();
  for (const g of groups) versions.set(g.service, (versions.get(g.service) ?? 0) + 1);
  return [...versions].filter(([, n]) => n > 1).map(([s]) => s);
}

/**
 * The window's totals from the rows the reader keeps (./liveKept.ts): the traces' and the live
 * metrics' aggregates, the samples (the latest values of each group and metric) and the overlap,
 * without a statement besides the window's two (the marks, the rows of the minutes not kept).
 */
function keptTotals(cache: LiveWindowCache, window: LiveWindow, q: WindowQuery): WindowTotals {
  const known = window.superseded ?? { keys: [], minutes: [] };
  const traces = traceAggregates(window, q.bounds, q.wanted, known);
  const groups = totalsOf(traces, metricAggregates(window, cache.kinds, q.bounds, q.since, q.wanted, known), q.bounds.length + 1, q.names);
  // The sample of each group and metric, by kind of score: its `ok` values, the latest first.
  const slot = new Map(q.names.map((m, k) => [m, k]));
  const targets = cache.kinds.list.map((k) => {
    const m = k.status === "ok" ? groups.get(groupKey(k.service_name, k.pipeline_version))?.metrics[slot.get(k.metric) ?? -1] : undefined;
    return m === undefined ? undefined : { sample: m.sample, want: Math.min(q.ciSample, m.n) };
  });
  latestValues(window, q.since, known, targets);
  return { groups, overlap: liveWindowOverlap(cache, window, q.since, new Set(rolledOut(groups.values()))) };
}

/**
 * The window's totals from the store's statements: the aggregates (and the rows later scorings
 * superseded), the most recent `ok` values (read from the end of `live_scores`' key, from the latest
 * trend buckets that hold every group's sample, more of them only while a group's sample is short of
 * what the window holds) and, when a service has several versions in the window, the latest
 * documents per question and version (the overlap).
 */
async function storeTotals(store: Store, marks: LiveWindow["marks"], q: WindowQuery, minuteTraces: number | undefined): Promise<WindowTotals> {
  const aggregates = await liveAggregates(store, q.f, q.bounds, q.names, { marks }, minuteTraces);
  const superseded = aggregates.superseded;
  const groups = totalsOf(aggregates.traces, aggregates.metrics, q.bounds.length + 1, q.names);
  const totals = [...groups.values()];
  const slot = new Map(q.names.map((m, k) => [m, k]));
  const want = (m: MetricTotals) => Math.min(q.ciSample, m.n);
  const sample = (recent: readonly LiveRecentRow[]): boolean => {
    for (const g of totals) for (const m of g.metrics) m.sample = [];
    for (const r of recent) {
      const m = groups.get(groupKey(r.service_name, r.pipeline_version))?.metrics[slot.get(r.metric) ?? -1];
      if (m !== undefined && m.sample.length < q.ciSample) m.sample.push(r.value);
    }
    return totals.every((g) => g.metrics.every((m) => m.sample.length >= want(m)));
  };
  // Values in the window: this many.
  const most = totals.reduce((a, g) => a + g.metrics.reduce((b, m) => b + m.n, 0), 0);
  // First read: a sample's worth of values per group and metric that has any.
  const sampled = totals.reduce((a, g) => a + g.metrics.filter((m) => m.n > 0).length, 0);
  // Read from the latest trend buckets that hold every group's sample (their counts are exact): the
  // most recent values lie there, and the rows before them are not read.
  const recentFilter: LiveFilter = { ...q.f, sinceMs: Math.ceil(recentFrom(totals, q.starts, want) ?? q.since) };
  for (let limit = Math.min(most, q.ciSample * sampled); limit > 0; limit = Math.min(most, limit * 4)) {
    const recent = await liveRecent(store, recentFilter, limit, superseded, q.names);
    const enough = sample(recent);
    if (enough || recent.length < limit || limit >= most) break;
  }
  return { groups, overlap: await liveOverlap(store, q.f, rolledOut(totals), superseded) };
}

/**
 * The live summary from the store over the window (`live_traces` and `live_scores`, design §3): the
 * minutes' marks with the stream's counters (`ingestion_stats`), then with the reader's cache
 * ({@link LiveCaches}) the rows of the minutes it does not hold at their mark and the rest in JS
 * (./liveKept.ts), without it (or above its bounds) the store's statements: the aggregates by
 * service, version and trend bucket, the most recent `ok` values (the intervals' samples) and the
 * latest documents per question and version (the overlap). Equal to {@link summariseLive} over the
 * window's rows.
 */
export async function loadLiveSummary(store: Store, o: LiveOptions): Promise<LiveSummary> {
  const { since, bounds, starts } = windowOf(o);
  const metrics = o.metrics ?? liveMetrics();
  const f: LiveFilter = {
    sinceMs: since,
    ...(o.service !== undefined ? { service: o.service } : {}),
    ...(o.pipelineVersion !== undefined ? { pipelineVersion: o.pipelineVersion } : {}),
  };
  const q: WindowQuery = {
    since,
    bounds,
    starts,
    names: metrics.map((m) => m.name),
    ciSample: o.ciSample ?? LIVE_CI_SAMPLE,
    f,
    wanted: (service, version) => (f.service === undefined || service === f.service) && (f.pipelineVersion === undefined || version === f.pipelineVersion),
  };
  const window = await readLiveWindow(store, o.cache?.window, since);
  const { groups, overlap: pairs } =
    window.rows !== null && o.cache !== undefined ? keptTotals(o.cache.window, window, q) : await storeTotals(store, window.marks, q, o.minuteTraces);
  const totals = [...groups.values()];
  for (const g of totals) for (const m of g.metrics) m.sample.reverse();
  const overlap = new Map<string, OverlapTotals>();
  for (const x of pairs) overlap.set(pairKey(x.service_name, x.version_a, x.version_b), { questions: x.questions, jaccard_sum: x.jaccard_sum });
  return finish(totals, (service, a, b) => overlap.get(pairKey(service, a, b)), o, metrics, window.stream);
}
