import { describe, expect, it } from "vitest";
import { bootstrapDraws, bootstrapMeanInterval } from "../../scorer/src/runs/bootstrap.js";

/** Exact bootstrap distribution by enumerating all n^n equally likely resamples. */
function exactPercentiles(values: number[], lo: number, hi: number): [number, number] {
  const n = values.length;
  const means: number[] = [];
  const idx = new Array<number>(n).fill(0);
  for (;;) {
    means.push(idx.reduce((s, i) => s + (values[i] as number), 0) / n);
    let p = 0;
    while (p < n && ++idx[p]! === n) idx[p++] = 0;
    if (p === n) break;
  }
  means.sort((a, b) => a - b);
  const q = (f: number): number => means[Math.min(means.length - 1, Math.ceil(f * means.length) - 1)] as number;
  return [q(lo), q(hi)];
}

describe("percentile bootstrap", () => {
  const sample = [0.1, 0.4, 0.35, 0.8, -0.2, 0.05];
  it("matches the exact enumeration (6^6 resamples) within Monte Carlo error", () => {
    const [lo, hi] = exactPercentiles(sample, 0.025, 0.975);
    const ci = bootstrapMeanInterval(sample, { resamples: 10_000, seed: 7 });
    // MC standard error of a 2.5% quantile with B = 10,000 is about 0.01 here; allow 0.03.
    expect(Math.abs(ci.lower - lo)).toBeLessThan(0.03);
    expect(Math.abs(ci.upper - hi)).toBeLessThan(0.03);
  });
  it("the same seed gives the same interval; another seed a slightly different one", () => {
    const a = bootstrapMeanInterval(sample, { seed: 42 });
    const b = bootstrapMeanInterval(sample, { seed: 42 });
    const c = bootstrapMeanInterval(sample, { seed: 43 });
    expect(b).toEqual(a);
    expect(c.lower === a.lower && c.upper === a.upper).toBe(false);
    expect(a.resamples).toBe(10_000);
  });
  it("refuses an empty sample", () => {
    expect(() => bootstrapMeanInterval([])).toThrow(RangeError);
  });
  it("with kept draws (the live view's), the same intervals as drawn each time: one set of draws per seed, size and resamples", () => {
    const draws = bootstrapDraws();
    for (const [n, seed, resamples] of [
      [200, 20261130, 500],
      [7, 3, 500],
      [200, 20261130, 500],
      [200, 11, 200],
      [2, 20261130, 500],
    ] as const) {
      // Different values of the same size use the same draws.
      for (const shift of [0, 0.37]) {
        const values = Array.from({ length: n }, (_, i) => ((i * 7919) % 13) / 13 + shift);
        expect(bootstrapMeanInterval(values, { seed, resamples, draws })).toEqual(bootstrapMeanInterval(values, { seed, resamples }));
      }
    }
    expect([...draws.kept.keys()].sort()).toEqual(["11:200:200", "20261130:200:500", "20261130:2:500", "3:7:500"]);
    // Above a million indexes nothing is kept (compare's 10,000 resamples of large samples).
    bootstrapMeanInterval([1, 2, 3], { seed: 1, resamples: 400_000, draws });
    expect(draws.kept.size).toBe(4);
  });
});
