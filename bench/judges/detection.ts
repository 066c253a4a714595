// Response-level detection figures (bench/judges/README.md): an answer is "flagged" by a detector,
// "hallucinated" by its labels. Pure functions, read by train.ts, run.ts and vitest.

/** Precision, recall and F1 of flags against labels; null where undefined (nothing flagged, nothing to find). */
export interface Prf {
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  readonly flagged: number;
  readonly positives: number;
  readonly n: number;
}

/**
 * P/R/F1 of flags against labels. `negativeWeight` weighs each clean answer: 1 gives the figures at
 * the set's own (natural) rate; positives/negatives gives them as if both classes were equally many
 * ("balanced").
 */
export function prf(flags: readonly boolean[], labels: readonly boolean[], negativeWeight = 1): Prf {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let flagged = 0;
  labels.forEach((y, i) => {
    if (flags[i]) flagged++;
    if (flags[i] && y) tp++;
    else if (flags[i] && !y) fp += negativeWeight;
    else if (!flags[i] && y) fn++;
  });
  const precision = tp + fp === 0 ? null : tp / (tp + fp);
  const recall = tp + fn === 0 ? null : tp / (tp + fn);
  const f1 =
    precision === null || recall === null || precision + recall === 0 ? (precision === null || recall === null ? null : 0) : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, flagged, positives: tp + fn, n: labels.length };
}

/** Weight of a clean answer that makes both classes weigh the same. */
export function balancingWeight(labels: readonly boolean[]): number {
  const pos = labels.filter((y) => y).length;
  const neg = labels.length - pos;
  return neg === 0 ? 1 : pos / neg;
}

/**
 * Area under the ROC curve of `scores` (higher = more likely hallucinated) against labels: the
 * probability that a random hallucinated answer scores above a random clean one, ties counting half
 * (Mann–Whitney U over average ranks). Null without both classes.
 */
export function auroc(scores: readonly number[], labels: readonly boolean[]): number | null {
  const idx = scores.map((s, i) => ({ s, y: labels[i] as boolean })).sort((a, b) => a.s - b.s);
  const pos = idx.filter((r) => r.y).length;
  const neg = idx.length - pos;
  if (pos === 0 || neg === 0) return null;
  let rankSum = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j < idx.length && (idx[j] as { s: number }).s === (idx[i] as { s: number }).s) j++;
    const avg = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if ((idx[k] as { y: boolean }).y) rankSum += avg;
    i = j;
  }
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** The cut on `scores` (flag when score ≥ cut) with the highest F1 at the natural rate, and that F1. */
export function bestCut(scores: readonly number[], labels: readonly boolean[]): { cut: number; f1: number } {
  let best = { cut: Number.POSITIVE_INFINITY, f1: 0 };
  for (const cut of [...new Set(scores)].sort((a, b) => a - b)) {
    const f = prf(
      scores.map((s) => s >= cut),
      labels,
    ).f1;
    if (f !== null && f > best.f1) best = { cut, f1: f };
  }
  return best;
}
