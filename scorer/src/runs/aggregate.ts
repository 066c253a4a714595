import type { Status } from "../domain/status.js";
import type { QuestionResult } from "../scoring/question.js";

/** One metric's value and status for one question. */
export interface MetricValue {
  readonly value: number | null;
  readonly status: Status | string;
}

/**
 * The per-question values of every run metric, keyed by metric name: `recall@<k>` for each k,
 * `mrr` (the reciprocal rank; its mean is MRR), `grounding`, `relevance` (0–4), `key_facts`,
 * `abstention`.
 */
export function metricValues(q: QuestionResult, ks: readonly number[]): Map<string, MetricValue> {
  const m = new Map<string, MetricValue>();
  for (const k of ks) {
    m.set(`recall@${k}`, q.recall === null ? { value: null, status: q.recall_status } : { value: q.recall[k] ?? 0, status: "ok" });
  }
  m.set("mrr", q.reciprocal_rank === null ? { value: null, status: q.recall_status } : { value: q.reciprocal_rank, status: "ok" });
  m.set("grounding", { value: q.grounding.value, status: q.grounding.status });
  m.set("relevance", { value: q.relevance.value, status: q.relevance.status });
  m.set("key_facts", { value: q.key_facts.value, status: q.key_facts.status });
  m.set("abstention", { value: q.abstention.value, status: q.abstention.status });
  return m;
}

/** Names of the run metrics in display order. */
export function metricNames(ks: readonly number[]): string[] {
  return [...ks.map((k) => `recall@${k}`), "mrr", "grounding", "relevance", "key_facts", "abstention"];
}

/** Mean of `ok` values per metric (null when none), counts per status per metric. */
export interface Aggregate {
  readonly metrics: Record<string, number | null>;
  /** metric → status → count. */
  readonly counts: Record<string, Record<string, number>>;
  /** Number of `ok` values per metric (the n of the mean). */
  readonly n: Record<string, number>;
}

/** Aggregates per-question values: means over `ok` values only; other statuses are counted, never averaged as 0. */
export function aggregate(rows: readonly Map<string, MetricValue>[], names: readonly string[]): Aggregate {
  const metrics: Record<string, number | null> = {};
  const counts: Record<string, Record<string, number>> = {};
  const n: Record<string, number> = {};
  for (const name of names) {
    let sum = 0;
    let cnt = 0;
    const c: Record<string, number> = {};
    for (const r of rows) {
      const v = r.get(name);
      if (!v) continue;
      c[v.status] = (c[v.status] ?? 0) + 1;
      if (v.status === "ok" && v.value !== null) {
        sum += v.value;
        cnt++;
      }
    }
    metrics[name] = cnt === 0 ? null : sum / cnt;
    counts[name] = c;
    n[name] = cnt;
  }
  return { metrics, counts, n };
}
