import { describe, expect, it } from "vitest";
import { auroc, balancingWeight, bestCut, prf } from "../../bench/judges/detection.js";

// Response-level detection figures (bench/judges/detection.ts, issue 27) against a brute-force count
// and against figures worked out by hand.

/** A small linear congruential generator (Numerical Recipes constants): uniform in [0, 1), seeded. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** AUROC by definition: over all (hallucinated, clean) pairs, 1 when the hallucinated one scores higher, ½ on a tie. */
function pairwiseAuroc(scores: readonly number[], labels: readonly boolean[]): number | null {
  let wins = 0;
  let pairs = 0;
  scores.forEach((p, i) => {
    if (!labels[i]) return;
    scores.forEach((q, j) => {
      if (labels[j]) return;
      pairs++;
      wins += p > q ? 1 : p === q ? 0.5 : 0;
    });
  });
  return pairs === 0 ? null : wins / pairs;
}

/** F1 at the natural rate by counting (null when nothing is flagged or nothing is to be found). */
function f1ByCount(flags: readonly boolean[], labels: readonly boolean[]): number | null {
  const tp = flags.filter((f, i) => f && labels[i]).length;
  const fp = flags.filter((f, i) => f && !labels[i]).length;
  const fn = flags.filter((f, i) => !f && labels[i]).length;
  if (tp + fp === 0 || tp + fn === 0) return null;
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

describe("auroc", () => {
  it("equals the brute-force pairwise count on random data with many ties (seeded)", () => {
    const r = lcg(2024);
    for (let trial = 0; trial < 200; trial++) {
      const n = 2 + Math.floor(r() * 40);
      // few distinct values, so ties within and across the classes are common
      const levels = 1 + Math.floor(r() * 6);
      const scores = Array.from({ length: n }, () => Math.floor(r() * levels) / levels);
      const labels = Array.from({ length: n }, () => r() < 0.3);
      const expected = pairwiseAuroc(scores, labels);
      const got = auroc(scores, labels);
      if (expected === null) expect(got).toBeNull();
      else expect(got).toBeCloseTo(expected, 12);
    }
  });
  it("hand cases: perfect 1, reversed 0, all tied ½, one class only null", () => {
    expect(auroc([0.9, 0.8, 0.2, 0.1], [true, true, false, false])).toBe(1);
    expect(auroc([0.1, 0.2, 0.8, 0.9], [true, true, false, false])).toBe(0);
    expect(auroc([0.5, 0.5, 0.5], [true, false, false])).toBe(0.5);
    // pairs (h, c): (0.7, 0.7) ½, (0.7, 0.2) 1, (0.3, 0.7) 0, (0.3, 0.2) 1 → 2.5 / 4
    expect(auroc([0.7, 0.3, 0.7, 0.2], [true, true, false, false])).toBe(0.625);
    expect(auroc([0.1, 0.2], [false, false])).toBeNull();
    expect(auroc([0.1, 0.2], [true, true])).toBeNull();
  });
});

describe("prf", () => {
  // six answers: two hallucinated (a, b), four clean (c–f); the detector flags a and c.
  const labels = [true, true, false, false, false, false];
  const flags = [true, false, true, false, false, false];
  it("natural rate: tp 1, fp 1, fn 1 → P = R = F1 = ½", () => {
    expect(prf(flags, labels)).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, flagged: 2, positives: 2, n: 6 });
  });
  it("balanced: each clean answer weighs 2/4 → fp ½, P = 1/1.5 = ⅔, R = ½, F1 = 2·⅔·½/(⅔+½) = 4/7", () => {
    expect(balancingWeight(labels)).toBe(0.5);
    const b = prf(flags, labels, balancingWeight(labels));
    expect(b.precision).toBeCloseTo(2 / 3, 15);
    expect(b.recall).toBe(0.5);
    expect(b.f1).toBeCloseTo(4 / 7, 15);
    expect([b.flagged, b.positives, b.n]).toEqual([2, 2, 6]);
  });
  it("nothing flagged: precision undefined (null), recall 0; flagging everything: P = 2/6, R = 1, F1 = ½", () => {
    const none = prf(
      labels.map(() => false),
      labels,
    );
    expect([none.precision, none.recall, none.f1, none.flagged]).toEqual([null, 0, null, 0]);
    const all = prf(
      labels.map(() => true),
      labels,
    );
    expect(all.precision).toBeCloseTo(1 / 3, 15);
    expect(all.recall).toBe(1);
    expect(all.f1).toBeCloseTo(0.5, 15);
    // balanced, everything flagged: fp = 4 · ½ = 2 → P = 2/4 = ½
    expect(
      prf(
        labels.map(() => true),
        labels,
        balancingWeight(labels),
      ).precision,
    ).toBe(0.5);
  });
});

describe("bestCut", () => {
  it("hand case: the cut 0.7 flags {0.9, 0.8, 0.7} → tp 2, fp 1, fn 0 → F1 0.8", () => {
    // cuts: ≥0.9 F1 ⅔; ≥0.8 ½; ≥0.7 0.8; ≥0.4 ⅔; ≥0.3 4/7; ≥0.1 ½
    expect(bestCut([0.9, 0.8, 0.7, 0.4, 0.3, 0.1], [true, false, true, false, false, false])).toEqual({ cut: 0.7, f1: 0.8 });
  });
  it("equals an exhaustive search over the scores (highest F1, the lowest cut among equals) on random data", () => {
    const r = lcg(77);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(r() * 25);
      const scores = Array.from({ length: n }, () => Math.round(r() * 10) / 10);
      const labels = Array.from({ length: n }, () => r() < 0.35);
      let expected = { cut: Number.POSITIVE_INFINITY, f1: 0 };
      for (const cut of [...scores].sort((a, b) => a - b)) {
        const f = f1ByCount(
          scores.map((s) => s >= cut),
          labels,
        );
        if (f !== null && (f > expected.f1 + 1e-12 || (Math.abs(f - expected.f1) <= 1e-12 && f > 0 && cut < expected.cut))) expected = { cut, f1: f };
      }
      const got = bestCut(scores, labels);
      expect(got.cut).toBe(expected.cut);
      expect(got.f1).toBeCloseTo(expected.f1, 12);
    }
  });
});
