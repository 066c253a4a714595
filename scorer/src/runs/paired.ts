import { type BootstrapInterval, bootstrapMeanInterval } from "./bootstrap.js";
import type { MetricLookup } from "./digest.js";

/** Paired comparison of one metric between two runs (design §5). */
export interface PairedDelta {
  readonly metric: string;
  /** Questions scored `ok` in both runs. */
  readonly n: number;
  /** Mean of run A over the paired questions (null when n = 0). */
  readonly mean_a: number | null;
  /** Mean of run B over the paired questions. */
  readonly mean_b: number | null;
  /** Mean of the per-question differences B − A (null when n = 0). */
  readonly delta: number | null;
  /** Percentile bootstrap interval of `delta` (null unless requested and n > 0). */
  readonly interval: BootstrapInterval | null;
  /** Golden ids present in only one run, or not `ok` in one of them, with why. */
  readonly unpaired: readonly { golden_id: string; reason: string }[];
  /** Per-question differences of the paired questions (B − A), by golden id. */
  readonly differences: readonly { golden_id: string; a: number; b: number; delta: number }[];
}

/**
 * Paired delta of `metric` from run A to run B: over the questions scored `ok` in both runs, the
 * mean of the per-question differences (never mean(B) − mean(A) over different question sets).
 * @param withInterval compute the bootstrap interval (B resamples, seed) of the mean difference.
 */
export function pairedDelta(
  metric: string,
  a: ReadonlyMap<string, MetricLookup>,
  b: ReadonlyMap<string, MetricLookup>,
  withInterval: { resamples?: number; seed?: number } | null = null,
): PairedDelta {
  const differences: { golden_id: string; a: number; b: number; delta: number }[] = [];
  const unpaired: { golden_id: string; reason: string }[] = [];
  const ids = [...new Set([...a.keys(), ...b.keys()])].sort();
  for (const id of ids) {
    const va = a.get(id)?.get(metric);
    const vb = b.get(id)?.get(metric);
    if (!va || !vb) {
      unpaired.push({ golden_id: id, reason: !va ? "only in run B" : "only in run A" });
      continue;
    }
    if (va.status === "not_applicable" && vb.status === "not_applicable") continue;
    if (va.status !== "ok" || vb.status !== "ok" || va.value === null || vb.value === null) {
      unpaired.push({ golden_id: id, reason: `A ${va.status}, B ${vb.status}` });
      continue;
    }
    differences.push({ golden_id: id, a: va.value, b: vb.value, delta: vb.value - va.value });
  }
  const n = differences.length;
  const avg = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
  return {
    metric,
    n,
    mean_a: avg(differences.map((d) => d.a)),
    mean_b: avg(differences.map((d) => d.b)),
    delta: avg(differences.map((d) => d.delta)),
    interval:
      withInterval && n > 0
        ? bootstrapMeanInterval(
            differences.map((d) => d.delta),
            withInterval,
          )
        : null,
    unpaired,
    differences,
  };
}
