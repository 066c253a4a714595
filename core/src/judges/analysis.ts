import { mean, sampleRankCorrelation, sampleVariance } from "simple-statistics";
import type { Status } from "../domain/status.js";

/** One judged value (a score row's value and status). */
export interface JudgedValue {
  readonly status: Status | string;
  readonly value: number | null;
}

/**
 * Combines the N repeats of one judge on one question into the per-question value of design §5
 * ("repeats are averaged per question"): when every repeat is `ok`, status ok and the mean value;
 * else the first non-ok status with a null value (the same rule as `runScores` in the store).
 * Tokens, calls and latency are summed; claims/facts and reason come from the first repeat.
 * @throws RangeError on an empty list.
 */
export function combineRepeats<T extends JudgedValue & { input_tokens?: number; output_tokens?: number; latency_ms?: number; calls?: number; cached?: boolean }>(
  repeats: readonly T[],
): T {
  const first = repeats[0];
  if (first === undefined) throw new RangeError("combineRepeats needs at least one repeat");
  if (repeats.length === 1) return first;
  const sum = (f: (r: T) => number) => repeats.reduce((a, r) => a + f(r), 0);
  const cost = {
    input_tokens: sum((r) => r.input_tokens ?? 0),
    output_tokens: sum((r) => r.output_tokens ?? 0),
    latency_ms: sum((r) => r.latency_ms ?? 0),
    calls: sum((r) => r.calls ?? 0),
  };
  const bad = repeats.find((r) => r.status !== "ok");
  if (bad) return { ...first, ...cost, status: bad.status, value: null, reason: (bad as { reason?: string }).reason ?? "" };
  return { ...first, ...cost, status: "ok", value: mean(repeats.map((r) => r.value as number)) };
}

/** Judge variance of one metric over `--repeat N` (N ≥ 2). */
export interface RepeatVariance {
  readonly metric: string;
  readonly repeats: number;
  /** Mean of every `ok` repeat value, or null. */
  readonly mean: number | null;
  /**
   * Pooled within-question standard deviation: sqrt(mean over questions of the sample variance of
   * their ok repeat values), over questions with ≥ 2 ok repeats; null when there are none.
   */
  readonly sd: number | null;
  /** Share of questions whose repeats disagree (a different value or status); null when no question. */
  readonly flipped: number | null;
  /** Questions whose repeats disagree. */
  readonly flipped_ids: readonly string[];
  /** Questions judged (every status but target_error, not_applicable). */
  readonly n: number;
}

/**
 * Per-metric judge variance over repeats (issue 5: mean, standard deviation, share of questions
 * whose verdict flipped). `questions` maps a golden id to that question's repeats of the metric.
 */
export function repeatVariance(metric: string, questions: ReadonlyMap<string, readonly JudgedValue[]>): RepeatVariance {
  const values: number[] = [];
  const variances: number[] = [];
  const flippedIds: string[] = [];
  let n = 0;
  let repeats = 0;
  for (const [id, rs] of questions) {
    if (rs.length === 0 || rs.every((r) => r.status === "target_error" || r.status === "not_applicable")) continue;
    n++;
    repeats = Math.max(repeats, rs.length);
    const ok = rs.filter((r) => r.status === "ok" && r.value !== null).map((r) => r.value as number);
    values.push(...ok);
    if (ok.length >= 2) variances.push(sampleVariance(ok));
    const first = rs[0] as JudgedValue;
    if (rs.some((r) => r.status !== first.status || r.value !== first.value)) flippedIds.push(id);
  }
  return {
    metric,
    repeats,
    mean: values.length === 0 ? null : mean(values),
    sd: variances.length === 0 ? null : Math.sqrt(mean(variances)),
    flipped: n === 0 ? null : flippedIds.length / n,
    flipped_ids: flippedIds.sort(),
    n,
  };
}

/** Correlation between answer length and one judge score. */
export interface LengthBias {
  readonly metric: string;
  /** Spearman's rank correlation (midranks for ties), or null when undefined (n < 3 or a constant series). */
  readonly spearman: number | null;
  /** Questions with an ok score and an answer. */
  readonly n: number;
}

/** |ρ| at or above which the summary flags a length bias. */
export const LENGTH_BIAS_FLAG = 0.3;

/**
 * Length-bias check: Spearman's ρ (simple-statistics `sampleRankCorrelation`) between the answer
 * length in code points and the judge score, over questions scored ok. Judges that favour longer
 * answers show a positive ρ even where length does not make an answer better.
 */
export function lengthBias(metric: string, points: readonly { readonly answer: string | null; readonly score: JudgedValue }[]): LengthBias {
  return lengthBiasOfLengths(
    metric,
    points.map((p) => ({ length: p.answer === null ? null : codePointLength(p.answer), score: p.score })),
  );
}

/** {@link lengthBias} from answer lengths in code points (null without an answer), as a run's summary keeps them. */
export function lengthBiasOfLengths(metric: string, points: readonly { readonly length: number | null; readonly score: JudgedValue }[]): LengthBias {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const p of points) {
    if (p.length === null || p.score.status !== "ok" || p.score.value === null) continue;
    xs.push(p.length);
    ys.push(p.score.value);
  }
  const constant = (a: number[]) => a.every((v) => v === a[0]);
  if (xs.length < 3 || constant(xs) || constant(ys)) return { metric, spearman: null, n: xs.length };
  const rho = sampleRankCorrelation(xs, ys);
  return { metric, spearman: Number.isFinite(rho) ? rho : null, n: xs.length };
}

/** Length of `s` in code points (`[...s].length` without the array). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one code point; a lone surrogate counts as one.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
