/**
 * Overlap of two rankings of retrieved documents (replay compares the old and the new version).
 */

/** Distinct items in first-seen order. */
export function distinct<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/** Jaccard similarity |A ∩ B| / |A ∪ B| of two sets of ids; 1 when both are empty. */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  const A = new Set(a);
  const B = new Set(b);
  if (A.size === 0 && B.size === 0) return 1;
  let inter = 0;
  for (const x of A) if (B.has(x)) inter++;
  return inter / (A.size + B.size - inter);
}

/**
 * Rank-biased overlap of two rankings, extrapolated form (Webber, Moffat & Zobel, "A similarity
 * measure for indefinite rankings", ACM TOIS 28(4), 2010, eq. 32 for rankings of equal depth k):
 * RBO_ext = (X_k / k)·p^k + ((1 − p) / p)·Σ_{d=1..k} (X_d / d)·p^d, where X_d is the size of the
 * overlap of the two prefixes of depth d. Both rankings are cut to the shorter one's depth (ids
 * de-duplicated first). `p` (default 0.9) weighs the top: with p = 0.9 the first 10 ranks carry
 * about 86% of the weight. 1 when both are empty, 0 when exactly one is.
 */
export function rankBiasedOverlap(a: readonly string[], b: readonly string[], p = 0.9): number {
  const S = distinct(a);
  const T = distinct(b);
  const k = Math.min(S.length, T.length);
  if (S.length === 0 && T.length === 0) return 1;
  if (k === 0) return 0;
  const seenS = new Set<string>();
  const seenT = new Set<string>();
  let overlap = 0;
  let sum = 0;
  for (let d = 1; d <= k; d++) {
    const s = S[d - 1] as string;
    const t = T[d - 1] as string;
    if (s === t) overlap++;
    else {
      if (seenT.has(s)) overlap++;
      if (seenS.has(t)) overlap++;
    }
    seenS.add(s);
    seenT.add(t);
    sum += (overlap / d) * p ** d;
  }
  return (overlap / k) * p ** k + ((1 - p) / p) * sum;
}
