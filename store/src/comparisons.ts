import type { Store } from "./client.js";

/** One metric of a stored comparison. */
interface ComparisonDeltaRow {
  readonly metric: string;
  readonly n: number;
  readonly mean_a: number | null;
  readonly mean_b: number | null;
  readonly delta: number | null;
  readonly ci_lower: number | null;
  readonly ci_upper: number | null;
}

/** A comparison of two runs as `compare` stores it (table `comparisons`, one row per metric). */
export interface ComparisonInsert {
  readonly comparison_id: string;
  readonly run_a: string;
  readonly run_b: string;
  readonly seed: number;
  readonly resamples: number;
  readonly deltas: readonly ComparisonDeltaRow[];
}

/** Writes a comparison, one row per metric (one version for all of them). */
export async function saveComparison(store: Store, c: ComparisonInsert): Promise<void> {
  const version = store.nextVersion();
  const created_at = Date.now();
  await store.client.insert({
    table: `${store.database}.comparisons`,
    values: c.deltas.map((d) => ({ comparison_id: c.comparison_id, run_a: c.run_a, run_b: c.run_b, ...d, seed: c.seed, resamples: c.resamples, created_at, version })),
    format: "JSONEachRow",
  });
}
