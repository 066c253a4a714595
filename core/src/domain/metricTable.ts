import type { JudgedMetric, MechanicalMetric, MetricDef, MetricValue } from "./metric.js";
import { ABSTENTION } from "./metrics/abstention.js";
import { CONTEXT_RELEVANCE } from "./metrics/contextRelevance.js";
import { GROUNDING_RISK } from "./metrics/groundingRisk.js";
import { GROUNDING, REFERENCE_FACTS, RELEVANCE } from "./metrics/judged.js";
import { KEY_FACTS } from "./metrics/keyFacts.js";
import { ndcgMetric } from "./metrics/ndcg.js";
import { precisionMetric } from "./metrics/precision.js";
import { MRR, recallMetric } from "./metrics/recall.js";
import { outcomeOf, type QuestionResult } from "./result.js";

export type { JudgedMetric, MetricDef, MetricValue } from "./metric.js";

/**
 * The metrics computed once per k of a run (`<name>@<k>`), in stored order. Adding a metric is its
 * entry (a file under ./metrics) plus one line here or in {@link FIXED}.
 */
const PER_K: readonly ((k: number) => MechanicalMetric)[] = [recallMetric, precisionMetric, ndcgMetric];

/** The other metrics, in stored order: retrieval, judged, answer. */
const FIXED: readonly MetricDef[] = [MRR, GROUNDING, GROUNDING_RISK, RELEVANCE, CONTEXT_RELEVANCE, KEY_FACTS, ABSTENTION, REFERENCE_FACTS];

/**
 * A metric table: its entries for a run asking the given ks (per-k metrics once per k), in stored
 * order. The product's is {@link metricTable}; the outputs take another for tests.
 */
export type MetricTable = (ks: readonly number[]) => MetricDef[];

/** The metric table in stored order (design §5): each per-k metric for each k, then the others. */
export function metricTable(ks: readonly number[]): MetricDef[] {
  return [...PER_K.flatMap((entry) => ks.map(entry)), ...FIXED];
}

/** The judged metrics (one judge task each), in table order. */
export const JUDGED_METRICS: readonly JudgedMetric[] = FIXED.filter((m): m is JudgedMetric => m.kind === "judged");

/** The k of a per-k metric name (recall@5 → 5), or null. */
function kOf(metric: string): number | null {
  const k = /@([1-9]\d*)$/u.exec(metric)?.[1];
  return k === undefined ? null : Number(k);
}

/**
 * Names of a run's metrics in stored order; an optional metric (its task not on every backend) only
 * when `optional` says so for it (every one by default).
 */
export function metricNames(ks: readonly number[], optional: boolean | ((def: MetricDef) => boolean) = true, table: MetricTable = metricTable): string[] {
  const include = typeof optional === "function" ? optional : () => optional;
  return table(ks)
    .filter((m) => !m.optional || include(m))
    .map((m) => m.name);
}

/** Per-question values of every metric of the table, keyed by metric name. */
export function metricValues(q: QuestionResult, ks: readonly number[]): Map<string, MetricValue> {
  const m = new Map<string, MetricValue>();
  for (const def of metricTable(ks)) {
    const o = outcomeOf(q, def.name);
    m.set(def.name, { value: o.value, status: o.status });
  }
  return m;
}

/** Metrics that can never apply to live traffic (no golden item). */
export function liveNeverApplicable(metric: string): boolean {
  const def = metricDef(metric);
  return def !== undefined && !def.live;
}

/**
 * Display rank of a metric: the per-k metrics (by family, then k), then the other retrieval metrics
 * (MRR), the judged metrics, the answer metrics (key facts, abstention); unknown names last.
 */
export function displayRank(metric: string): number {
  const k = kOf(metric);
  if (k !== null) {
    const family = PER_K.findIndex((entry) => entry(k).name === metric);
    if (family >= 0) return family * 100_000 + k;
  }
  const order = (["retrieval", "judged", "answer"] as const).flatMap((kind) => FIXED.filter((m) => m.kind === kind).map((m) => m.name));
  const i = order.indexOf(metric);
  return i < 0 ? Number.MAX_SAFE_INTEGER : 10_000_000 + i;
}

/** Largest value of a metric (4 for relevance, else 1: shares and 0/1 values). */
export function metricMax(metric: string, table: MetricTable = metricTable): number {
  return metricDef(metric, table)?.max ?? 1;
}

/** The table entry of a metric name (any k for a per-k metric), or undefined. */
export function metricDef(metric: string, table: MetricTable = metricTable): MetricDef | undefined {
  const k = kOf(metric);
  return table(k === null ? [] : [k]).find((m) => m.name === metric);
}

/** Whether a paired delta of `metric` is a regression: a drop, or a rise for a metric where lower is better. */
export function isWorse(metric: string, delta: number): boolean {
  return metricDef(metric)?.lowerIsBetter === true ? delta > 0 : delta < 0;
}

/** A delta of `metric` turned so that negative is worse (the gate's reading: a rise of a risk is a drop). */
export function qualityDelta(metric: string, delta: number): number {
  return metricDef(metric)?.lowerIsBetter === true ? -delta : delta;
}

/** Label of a metric in the text and HTML outputs. */
export function metricLabel(metric: string, table: MetricTable = metricTable): string {
  return metricDef(metric, table)?.label ?? metric;
}
