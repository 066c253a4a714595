import { describe, expect, it } from "vitest";
import { bootstrapMeanInterval } from "../../scorer/src/runs/bootstrap.js";

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
});
