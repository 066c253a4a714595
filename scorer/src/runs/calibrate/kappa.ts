/**
 * Agreement statistics between a judge and a person.
 *
 * - Cohen's kappa: J. Cohen, "A coefficient of agreement for nominal scales", Educational and
 *   Psychological Measurement 20(1), 1960, 37–46: κ = (p_o − p_e) / (1 − p_e), with p_o the observed
 *   share of agreement and p_e = Σ_k p_k(judge) · p_k(person), the agreement expected by chance from
 *   the two raters' marginal shares.
 * - Weighted kappa: J. L. Fleiss and J. Cohen, "The equivalence of weighted kappa and the intraclass
 *   correlation coefficient as measures of reliability", Educational and Psychological Measurement
 *   33(3), 1973, 613–619 (weights from Cohen, Psychological Bulletin 70(4), 1968): with disagreement
 *   weights w_ij = (i − j)² / (k − 1)² (quadratic), κ_w = 1 − Σ w_ij o_ij / Σ w_ij e_ij, where o_ij is
 *   the observed share of pairs (i, j) and e_ij = p_i(judge) · p_j(person).
 */

/** Result of an agreement computation. */
export interface Agreement {
  /** Pairs compared. */
  readonly n: number;
  /** Share of pairs where both raters gave the same label (0–1), null when n = 0. */
  readonly agreement: number | null;
  /** Kappa, null when undefined (n = 0, or chance agreement is 1: both raters used one single label). */
  readonly kappa: number | null;
}

/**
 * Cohen's kappa (1960) over nominal labels.
 * @param pairs [judge label, person label]
 */
export function cohenKappa<L extends string | number>(pairs: readonly (readonly [L, L])[]): Agreement {
  const n = pairs.length;
  if (n === 0) return { n, agreement: null, kappa: null };
  const a = new Map<L, number>();
  const b = new Map<L, number>();
  let same = 0;
  for (const [x, y] of pairs) {
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
    if (x === y) same++;
  }
  const po = same / n;
  let pe = 0;
  for (const [label, ca] of a) pe += (ca / n) * ((b.get(label) ?? 0) / n);
  return { n, agreement: po, kappa: pe === 1 ? null : (po - pe) / (1 - pe) };
}

/**
 * Quadratic-weighted kappa (Fleiss & Cohen 1973) over ordered integer categories `min..max`.
 * @param pairs [judge score, person score], integers in [min, max]
 * @throws RangeError for a score outside [min, max] or not an integer.
 */
export function quadraticWeightedKappa(pairs: readonly (readonly [number, number])[], min: number, max: number): Agreement {
  const n = pairs.length;
  if (n === 0) return { n, agreement: null, kappa: null };
  const k = max - min + 1;
  const o: number[][] = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const ra = new Array<number>(k).fill(0);
  const rb = new Array<number>(k).fill(0);
  let same = 0;
  for (const [x, y] of pairs) {
    for (const v of [x, y]) if (!Number.isInteger(v) || v < min || v > max) throw new RangeError(`score ${v} is not an integer from ${min} to ${max}`);
    (o[x - min] as number[])[y - min] = ((o[x - min] as number[])[y - min] as number) + 1 / n;
    ra[x - min] = (ra[x - min] as number) + 1 / n;
    rb[y - min] = (rb[y - min] as number) + 1 / n;
    if (x === y) same++;
  }
  let num = 0;
  let den = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const w = (i - j) ** 2 / (k - 1) ** 2;
      num += w * ((o[i] as number[])[j] as number);
      den += w * (ra[i] as number) * (rb[j] as number);
    }
  }
  return { n, agreement: same / n, kappa: den === 0 ? null : 1 - num / den };
}
