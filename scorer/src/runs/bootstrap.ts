import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { quantileSorted } from "simple-statistics";

/** Default number of bootstrap resamples (design §5). */
export const BOOTSTRAP_RESAMPLES = 10_000;
/** Default seed of the bootstrap generator; printed with every interval and settable (`--seed`). */
export const DEFAULT_SEED = 20261130;

/** A confidence interval with how it was computed. */
export interface BootstrapInterval {
  readonly lower: number;
  readonly upper: number;
  /** Confidence level, e.g. 0.95. */
  readonly level: number;
  readonly resamples: number;
  readonly seed: number;
}

/**
 * Percentile bootstrap interval of the mean of `values` (Efron & Tibshirani, *An Introduction to
 * the Bootstrap*, 1993, §13.3): `resamples` resamples of n values drawn with replacement by a
 * seeded xoroshiro128+ generator (pure-rand); the interval is the (1−level)/2 and (1+level)/2
 * quantiles of the resample means. The same seed gives the same interval.
 * @throws RangeError when `values` is empty.
 */
export function bootstrapMeanInterval(values: readonly number[], options: { resamples?: number; seed?: number; level?: number } = {}): BootstrapInterval {
  const n = values.length;
  if (n === 0) throw new RangeError("bootstrap of an empty sample");
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  const level = options.level ?? 0.95;
  const rng = xoroshiro128plus(seed);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[uniformInt(rng, 0, n - 1)] as number;
    means[b] = s / n;
  }
  means.sort();
  const sorted = Array.from(means);
  const alpha = (1 - level) / 2;
  return { lower: quantileSorted(sorted, alpha), upper: quantileSorted(sorted, 1 - alpha), level, resamples, seed };
}
