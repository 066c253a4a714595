import type { MetricLookup } from "./digest.js";

/** Mean of `ok` values per metric (null when none), counts per status per metric. */
export interface Aggregate {
  readonly metrics: Record<string, number | null>;
  /** metric → status → count. */
  readonly counts: Record<string, Record<string, number>>;
  /** Number of `ok` values per metric (the n of the mean). */
  readonly n: Record<string, number>;
}

/** Aggregates per-question values: means over `ok` values only; other statuses are counted, never averaged as 0. */
export function aggregate(rows: readonly MetricLookup[], names: readonly string[]): Aggregate {
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
