// L2-regularised logistic regression by Newton's method (iteratively reweighted least squares), the
// fit behind the grounding model (train.ts). Features are standardised first; the intercept is not
// penalised. The linear solves are ml-matrix's.
import { Matrix, solve } from "ml-matrix";

/** A fitted model on standardised features. */
export interface LogisticFit {
  readonly mean: number[];
  readonly scale: number[];
  readonly weights: number[];
  readonly intercept: number;
  /** Newton steps taken. */
  readonly iterations: number;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Column means and standard deviations (a constant column gets scale 1). */
export function standardisation(x: readonly (readonly number[])[]): { mean: number[]; scale: number[] } {
  const d = x[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const row of x) {
    row.forEach((v, j) => {
      mean[j] = (mean[j] as number) + v / x.length;
    });
  }
  for (const row of x) {
    row.forEach((v, j) => {
      scale[j] = (scale[j] as number) + (v - (mean[j] as number)) ** 2 / x.length;
    });
  }
  return { mean, scale: scale.map((s) => (s > 1e-12 ? Math.sqrt(s) : 1)) };
}

/**
 * Fits P(y = 1 | x) = σ(b + w·x') with x' standardised, minimising the mean log-loss plus
 * (l2 / 2)·|w|² (sample weights optional). Stops when no coefficient moves by more than 1e-10.
 */
export function fitLogistic(x: readonly (readonly number[])[], y: readonly number[], l2: number, sampleWeight?: readonly number[]): LogisticFit {
  if (x.length === 0 || x.length !== y.length) throw new Error("fitLogistic: x and y must be non-empty and of one length");
  const { mean, scale } = standardisation(x);
  const n = x.length;
  const d = mean.length;
  const rows = x.map((r) => [1, ...r.map((v, j) => (v - (mean[j] as number)) / (scale[j] as number))]);
  const sw = sampleWeight ?? new Array<number>(n).fill(1);
  const total = sw.reduce((a, b) => a + b, 0);
  let beta = new Array<number>(d + 1).fill(0);
  let it = 0;
  for (; it < 100; it++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Matrix.zeros(d + 1, d + 1);
    rows.forEach((r, i) => {
      const p = sigmoid(r.reduce((a, v, j) => a + v * (beta[j] as number), 0));
      const w = (sw[i] as number) / total;
      const e = (p - (y[i] as number)) * w;
      const h = p * (1 - p) * w;
      for (let j = 0; j <= d; j++) {
        grad[j] = (grad[j] as number) + e * (r[j] as number);
        for (let k = 0; k <= d; k++) hess.set(j, k, hess.get(j, k) + h * (r[j] as number) * (r[k] as number));
      }
    });
    for (let j = 1; j <= d; j++) {
      grad[j] = (grad[j] as number) + l2 * (beta[j] as number);
      hess.set(j, j, hess.get(j, j) + l2);
    }
    const step = solve(hess, Matrix.columnVector(grad)).to1DArray();
    beta = beta.map((b, j) => b - (step[j] as number));
    if (Math.max(...step.map(Math.abs)) < 1e-10) break;
  }
  return { mean, scale, weights: beta.slice(1), intercept: beta[0] as number, iterations: it + 1 };
}

/** Probability of y = 1 under a fit. */
export function predictLogistic(fit: LogisticFit, x: readonly number[]): number {
  let z = fit.intercept;
  x.forEach((v, j) => {
    z += (fit.weights[j] as number) * ((v - (fit.mean[j] as number)) / (fit.scale[j] as number));
  });
  return sigmoid(z);
}
