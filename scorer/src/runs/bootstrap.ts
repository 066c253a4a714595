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
export function bootstrapMeanInterval(values: readonly number[], options: { resamples?: number; seed?: number; level?: number; draws?: BootstrapDraws } = {}): BootstrapInterval {
  const n = values.length;
  if (n === 0) throw new RangeError("bootstrap of an empty sample");
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const seed = options.seed ?? DEFAULT_SEED;
  const level = options.level ?? 0.95;
  const drawn = options.draws === undefined ? undefined : drawsOf(options.draws, seed, n, resamples);
  // The kept draws are the indexes the generator draws, in the same order: the same sums.
  const means = drawn !== undefined ? meansOfDraws(values, drawn, resamples) : meansDrawn(values, seed, resamples);
  means.sort();
  const sorted = Array.from(means);
  const alpha = (1 - level) / 2;
  return { lower: quantileSorted(sorted, alpha), upper: quantileSorted(sorted, 1 - alpha), level, resamples, seed };
}

/** The means of `resamples` resamples of `values`, drawn by a xoroshiro128+ generator seeded with `seed`. */
function meansDrawn(values: readonly number[], seed: number, resamples: number): Float64Array {
  const n = values.length;
  const rng = xoroshiro128plus(seed);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[uniformInt(rng, 0, n - 1)] as number;
    means[b] = s / n;
  }
  return means;
}

/** The means of `resamples` resamples of `values` whose indexes are `drawn` (n per resample, in order). */
function meansOfDraws(values: readonly number[], drawn: Uint32Array, resamples: number): Float64Array {
  const n = values.length;
  const means = new Float64Array(resamples);
  for (let b = 0, d = 0; b < resamples; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[drawn[d++] as number] as number;
    means[b] = s / n;
  }
  return means;
}

/**
 * The indexes the bootstrap's generator draws for a seed, a sample size and a number of resamples,
 * kept to be reused: they do not depend on the values, so every interval of a sample of that size
 * (the live view's: at most 200 values, 500 resamples) draws them once. Kept per owner (the live
 * view's reader), at most {@link DRAWS_KEPT} sizes of at most {@link DRAWS_MAX} indexes each.
 */
export interface BootstrapDraws {
  readonly kept: Map<string, Uint32Array>;
}

/** Sizes (seed, sample size, resamples) whose draws a {@link BootstrapDraws} keeps, the latest used. */
const DRAWS_KEPT = 64;
/** Indexes of the largest draws kept (4 bytes each). */
const DRAWS_MAX = 1_000_000;

/** An empty {@link BootstrapDraws}. */
export function bootstrapDraws(): BootstrapDraws {
  return { kept: new Map() };
}

/** The draws of a size, from `draws` or drawn now (and kept when small enough); undefined above {@link DRAWS_MAX}. */
function drawsOf(draws: BootstrapDraws, seed: number, n: number, resamples: number): Uint32Array | undefined {
  if (n * resamples > DRAWS_MAX) return undefined;
  const key = `${seed}:${n}:${resamples}`;
  const hit = draws.kept.get(key);
  if (hit !== undefined) {
    draws.kept.delete(key);
    draws.kept.set(key, hit);
    return hit;
  }
  const rng = xoroshiro128plus(seed);
  const out = new Uint32Array(n * resamples);
  for (let d = 0; d < out.length; d++) out[d] = uniformInt(rng, 0, n - 1);
  draws.kept.set(key, out);
  if (draws.kept.size > DRAWS_KEPT) draws.kept.delete(draws.kept.keys().next().value as string);
  return out;
}
