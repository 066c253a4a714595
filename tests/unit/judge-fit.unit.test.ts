import { describe, expect, it } from "vitest";
import { fitLogistic, type LogisticFit, predictLogistic } from "../../bench/judges/fit.js";
import { FEATURE_NAMES, type Features } from "../../core/src/judges/heuristic/features.js";
import { parseGroundingModel, supportProbability } from "../../core/src/judges/heuristic/model.js";

// The grounding model's fit (bench/judges/fit.ts, issue 27), checked against what it claims to
// compute, by independent means: the gradient of the penalised mean log-loss at its answer, the
// closed form of a logistic regression on one binary feature, a brute-force grid search of the loss,
// and the judge's own reading of a model file (model.ts) on the same coefficients.

/** A small linear congruential generator (Numerical Recipes constants): uniform in [0, 1), seeded. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** d features, labels from a noisy linear rule: not separable, so the unpenalised fit has a finite optimum. */
function dataset(n: number, d: number, seed: number): { x: number[][]; y: number[] } {
  const r = lcg(seed);
  const x: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = Array.from({ length: d }, (_, j) => (r() - 0.5) * (j + 1) + j);
    const z = 0.5 + row.reduce((a, v, j) => a + (j % 2 === 0 ? 1.5 : -1) * (v - j), 0);
    x.push(row);
    y.push(r() < sigmoid(z) ? 1 : 0);
  }
  return { x, y };
}

/** Gradient of mean log-loss + (l2/2)|w|² in the standardised coordinates, computed from scratch. */
function penalisedGradient(x: number[][], y: number[], l2: number, beta: { intercept: number; weights: number[] }): number[] {
  const n = x.length;
  const d = x[0]?.length ?? 0;
  const mean = Array.from({ length: d }, (_, j) => x.reduce((a, r) => a + (r[j] as number), 0) / n);
  const sd = Array.from({ length: d }, (_, j) => Math.sqrt(x.reduce((a, r) => a + ((r[j] as number) - (mean[j] as number)) ** 2, 0) / n));
  const g = new Array<number>(d + 1).fill(0);
  x.forEach((r, i) => {
    const xs = r.map((v, j) => (v - (mean[j] as number)) / (sd[j] as number));
    const p = sigmoid(beta.intercept + xs.reduce((a, v, j) => a + v * (beta.weights[j] as number), 0));
    const e = (p - (y[i] as number)) / n;
    g[0] = (g[0] as number) + e;
    xs.forEach((v, j) => {
      g[j + 1] = (g[j + 1] as number) + e * v;
    });
  });
  beta.weights.forEach((w, j) => {
    g[j + 1] = (g[j + 1] as number) + l2 * w;
  });
  return g;
}

/** Mean log-loss of P(y=1) = σ(a + c·x) on one raw feature. */
function loss1(x: readonly number[], y: readonly number[], a: number, c: number): number {
  let s = 0;
  x.forEach((v, i) => {
    const z = a + c * v;
    // log(1 + e^z) − y·z, computed stably
    s += Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z))) - (y[i] as number) * z;
  });
  return s / x.length;
}

/** The raw-coordinate intercept and slope of a one-feature fit. */
const raw1 = (f: LogisticFit): { a: number; c: number } => {
  const c = (f.weights[0] as number) / (f.scale[0] as number);
  return { a: f.intercept - c * (f.mean[0] as number), c };
};

describe("fitLogistic (bench/judges/fit.ts)", () => {
  it("the gradient of the penalised mean log-loss at the returned coefficients is 0 (|g| < 1e-8), for several penalties", () => {
    const { x, y } = dataset(60, 3, 7);
    for (const l2 of [0, 0.005, 0.5]) {
      const fit = fitLogistic(x, y, l2);
      expect(fit.iterations).toBeLessThan(100);
      const g = penalisedGradient(x, y, l2, fit);
      expect(Math.max(...g.map(Math.abs))).toBeLessThan(1e-8);
    }
  });

  it("standardises with the column mean and the population standard deviation", () => {
    const fit = fitLogistic(
      [
        [1, 10],
        [2, 10],
        [3, 10],
        [6, 10],
      ],
      [0, 1, 0, 1],
      0.1,
    );
    // column 1: mean 3, variance (4+1+0+9)/4 = 3.5; column 2 is constant: scale 1
    expect(fit.mean).toEqual([3, 10]);
    expect(fit.scale[0]).toBeCloseTo(Math.sqrt(3.5), 12);
    expect(fit.scale[1]).toBe(1);
  });

  it("with l2 = 0 on one binary feature, the fit gives each group its share of positives (closed form)", () => {
    // x = 0: 3 positives of 10; x = 1: 7 of 10 → P(y=1|0) = 0.3, P(y=1|1) = 0.7
    const x = [...Array.from({ length: 10 }, () => [0]), ...Array.from({ length: 10 }, () => [1])];
    const y = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0];
    const fit = fitLogistic(x, y, 0);
    expect(predictLogistic(fit, [0])).toBeCloseTo(0.3, 10);
    expect(predictLogistic(fit, [1])).toBeCloseTo(0.7, 10);
    // and the raw slope is the log odds ratio: log((0.7/0.3)/(0.3/0.7))
    expect(raw1(fit).c).toBeCloseTo(Math.log(49 / 9), 9);
  });

  it("with l2 = 0 on one continuous feature, the fit is the minimum a brute-force grid search of the loss finds", () => {
    const r = lcg(42);
    const x: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 50; i++) {
      const v = r() * 4 - 1;
      x.push(v);
      y.push(r() < sigmoid(-1 + 1.3 * v) ? 1 : 0);
    }
    // coarse-to-fine grid over (a, c): the loss is convex, so each finer grid centred on the best point keeps the minimum
    let best = { a: 0, c: 0, l: loss1(x, y, 0, 0) };
    let half = 10;
    while (half > 1e-7) {
      const step = half / 20;
      const centre = best;
      for (let i = -20; i <= 20; i++) {
        for (let k = -20; k <= 20; k++) {
          const a = centre.a + i * step;
          const c = centre.c + k * step;
          const l = loss1(x, y, a, c);
          if (l < best.l) best = { a, c, l };
        }
      }
      half = step * 2;
    }
    const fit = raw1(
      fitLogistic(
        x.map((v) => [v]),
        y,
        0,
      ),
    );
    expect(fit.a).toBeCloseTo(best.a, 5);
    expect(fit.c).toBeCloseTo(best.c, 5);
    expect(loss1(x, y, fit.a, fit.c)).toBeLessThanOrEqual(best.l + 1e-12);
  });

  it("integer sample weights fit like repeated rows (l2 = 0: the optimum does not depend on the standardisation)", () => {
    const { x, y } = dataset(30, 2, 11);
    const w = x.map((_, i) => 1 + (i % 3));
    const weighted = fitLogistic(x, y, 0, w);
    const xs: number[][] = [];
    const ys: number[] = [];
    x.forEach((row, i) => {
      for (let k = 0; k < (w[i] as number); k++) {
        xs.push(row);
        ys.push(y[i] as number);
      }
    });
    const repeated = fitLogistic(xs, ys, 0);
    for (const row of x) expect(predictLogistic(weighted, row)).toBeCloseTo(predictLogistic(repeated, row), 9);
  });

  it("rejects empty data and x, y of different lengths", () => {
    expect(() => fitLogistic([], [], 0)).toThrow(/non-empty/u);
    expect(() => fitLogistic([[1], [2]], [1], 0)).toThrow(/one length/u);
  });

  it("predictLogistic agrees with the judge's supportProbability on the same coefficients written as a model file", () => {
    const d = FEATURE_NAMES.length;
    const { x, y } = dataset(80, d, 3);
    const fit = fitLogistic(x, y, 0.005);
    const model = parseGroundingModel(
      {
        format: 1,
        features: [...FEATURE_NAMES],
        mean: fit.mean,
        scale: fit.scale,
        weights: fit.weights,
        intercept: fit.intercept,
        l2: 0.005,
        threshold: 0.5,
        rule_penalty: 0.5,
        risk: { aggregate: "min", threshold: 0.5 },
        training_sha256: "0".repeat(64),
        trained_on: {},
        figures: {},
      },
      "test",
    );
    const r = lcg(99);
    for (let i = 0; i < 20; i++) {
      const row = Array.from({ length: d }, () => r() * 3 - 1);
      const features = Object.fromEntries(FEATURE_NAMES.map((n, j) => [n, row[j] as number])) as Features;
      expect(supportProbability(model, features)).toBeCloseTo(predictLogistic(fit, row), 14);
    }
  });
});
