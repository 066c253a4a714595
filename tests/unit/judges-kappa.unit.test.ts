import { describe, expect, it } from "vitest";
import { CALIBRATION_FORMAT, type CalibrationFile } from "../../scorer/src/runs/calibrate/file.js";
import { cohenKappa, quadraticWeightedKappa } from "../../scorer/src/runs/calibrate/kappa.js";
import { scoreCalibration } from "../../scorer/src/runs/calibrate/score.js";

type V = "SUPPORTED" | "CONTRADICTED" | "UNSUPPORTED";
// 10 claims, [judge, person]:
//   S S ×4, S U, C C, C S, U U ×2, U C
// agreement p_o = 7/10 = 0.7
// judge marginals S 5, C 2, U 3; person marginals S 5, C 2, U 3
// p_e = 0.5·0.5 + 0.2·0.2 + 0.3·0.3 = 0.38
// Cohen's κ = (0.7 − 0.38) / (1 − 0.38) = 0.32 / 0.62 = 16/31 ≈ 0.516129
const CLAIMS: [V, V][] = [
  ["SUPPORTED", "SUPPORTED"],
  ["SUPPORTED", "SUPPORTED"],
  ["SUPPORTED", "SUPPORTED"],
  ["SUPPORTED", "SUPPORTED"],
  ["SUPPORTED", "UNSUPPORTED"],
  ["CONTRADICTED", "CONTRADICTED"],
  ["CONTRADICTED", "SUPPORTED"],
  ["UNSUPPORTED", "UNSUPPORTED"],
  ["UNSUPPORTED", "UNSUPPORTED"],
  ["UNSUPPORTED", "CONTRADICTED"],
];
// 5 relevance pairs [judge, person]: (4,4) (3,4) (2,2) (0,1) (4,3); exact agreement 2/5 = 0.4
// quadratic weights w_ij = (i − j)² / 16
// observed Σ w·o = (0 + 1 + 0 + 1 + 1) / 16 / 5 = 3/80 = 0.0375
// expected with independent marginals: judge X ∈ {0:.2, 2:.2, 3:.2, 4:.4}, person Y ∈ {1:.2, 2:.2, 3:.2, 4:.4}
//   E[(X−Y)²] = Var X + Var Y + (EX − EY)² = 2.24 + 1.36 + 0.04 = 3.64 → Σ w·e = 3.64/16 = 0.2275
// κ_w = 1 − 0.0375 / 0.2275 = 1 − 15/91 = 76/91 ≈ 0.835165
const RELEVANCE: [number, number][] = [
  [4, 4],
  [3, 4],
  [2, 2],
  [0, 1],
  [4, 3],
];

describe("agreement statistics (Cohen 1960; Fleiss & Cohen 1973)", () => {
  it("Cohen's kappa of the 10 claim verdicts above", () => {
    const a = cohenKappa(CLAIMS);
    expect(a.n).toBe(10);
    expect(a.agreement).toBe(0.7);
    expect(a.kappa).toBeCloseTo(16 / 31, 12);
  });
  it("quadratic-weighted kappa of the 5 relevance scores above", () => {
    const a = quadraticWeightedKappa(RELEVANCE, 0, 4);
    expect(a.agreement).toBe(0.4);
    expect(a.kappa).toBeCloseTo(76 / 91, 12);
  });
  it("perfect agreement gives 1; one single label on both sides is undefined (null), never NaN", () => {
    expect(
      cohenKappa([
        ["SUPPORTED", "SUPPORTED"],
        ["UNSUPPORTED", "UNSUPPORTED"],
      ]).kappa,
    ).toBe(1);
    expect(
      cohenKappa([
        ["SUPPORTED", "SUPPORTED"],
        ["SUPPORTED", "SUPPORTED"],
      ]),
    ).toEqual({ n: 2, agreement: 1, kappa: null });
    expect(cohenKappa([])).toEqual({ n: 0, agreement: null, kappa: null });
    expect(() => quadraticWeightedKappa([[5, 4]], 0, 4)).toThrow(RangeError);
  });
  it("a review file: null human labels are skipped; agreement below 85% warns", () => {
    const file: CalibrationFile = {
      format: CALIBRATION_FORMAT,
      run_id: "r-1",
      judge: { kind: "llm", model: "judge-1", prompt_version: "abc" },
      items: RELEVANCE.map(([j, h], i) => ({
        golden_id: `g${i}`,
        trace_id: `t${i}`,
        question: "q",
        chunks: [],
        answer: "a",
        // two claims per item, the 10 pairs in order, plus one unlabelled claim that must be skipped
        claims: [
          ...CLAIMS.slice(2 * i, 2 * i + 2).map(([jv, hv], k) => ({ index: k, claim: "c", judge_verdict: jv, judge_chunk_ids: [], human_verdict: hv })),
          { index: 2, claim: "unlabelled", judge_verdict: "SUPPORTED" as const, judge_chunk_ids: [], human_verdict: null },
        ],
        judge_relevance: j,
        human_relevance: h,
      })),
    };
    const s = scoreCalibration(file);
    expect(s.claims.n).toBe(10);
    expect(s.claims.kappa).toBeCloseTo(16 / 31, 12);
    expect(s.relevance.kappa).toBeCloseTo(76 / 91, 12);
    expect(s.warnings).toEqual([
      "claim-verdict agreement 70.0% is below 85.0%: do not trust grounding from this judge without review",
      "relevance agreement 40.0% is below 85.0%: do not trust relevance from this judge without review",
    ]);
  });
});
