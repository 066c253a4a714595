import { describe, expect, it } from "vitest";
import { agreementTable, type CaseJudgment, claimPairs, GROUNDING_TOLERANCE, goalCheck, groundingAgrees, MISSING, relevanceAgrees } from "../../bench/judges/agreement.js";
import type { JudgeCase } from "../../bench/judges/cases.js";

const base: Pick<JudgeCase, "chunks" | "note" | "question"> = { chunks: [{ id: "c1", text: "x" }], note: "n", question: "q?" };
const two: JudgeCase = {
  ...base,
  id: "en-mixed-01",
  language: "en",
  category: "mixed",
  answer: "A is 1. B is 2.",
  claims: [
    { text: "A is 1.", label: "SUPPORTED" },
    { text: "B is 2.", label: "CONTRADICTED" },
  ],
  expected_grounding: 0.5,
  expected_grounding_status: "ok",
  relevance: { min: 3, max: 4 },
};
const none: JudgeCase = {
  ...base,
  id: "ru-refusal-01",
  language: "ru",
  category: "refusal",
  answer: "Не знаю.",
  claims: [],
  expected_grounding: null,
  expected_grounding_status: "no_claims",
  relevance: { min: 0, max: 1 },
};
const j = (g: [string, number | null], claims: [string, string][], r: [string, number | null]): CaseJudgment => ({
  grounding: { status: g[0], value: g[1] },
  claims: claims.map(([text, verdict]) => ({ text, verdict })),
  relevance: { status: r[0], value: r[1] },
});

describe("judge bench agreement", () => {
  it("grounding agrees within the tolerance, or both no_claims", () => {
    expect(groundingAgrees(two, j(["ok", 0.5 + GROUNDING_TOLERANCE], [], ["ok", 3]))).toBe(true);
    expect(groundingAgrees(two, j(["ok", 0.65], [], ["ok", 3]))).toBe(false);
    expect(groundingAgrees(two, j(["no_claims", null], [], ["ok", 3]))).toBe(false);
    expect(groundingAgrees(none, j(["no_claims", null], [], ["ok", 1]))).toBe(true);
    expect(groundingAgrees(none, j(["ok", 0], [], ["ok", 1]))).toBe(false);
  });
  it("relevance agrees inside the labelled range with status ok", () => {
    expect(relevanceAgrees(two, j(["ok", 1], [], ["ok", 3]))).toBe(true);
    expect(relevanceAgrees(two, j(["ok", 1], [], ["ok", 2]))).toBe(false);
    expect(relevanceAgrees(two, j(["ok", 1], [], ["judge_error", null]))).toBe(false);
  });
  it("pairs claims by text, then by position when the counts match, else MISSING", () => {
    // "A is 1." has no same-text claim: position 0 ("B  is 2.", SUPPORTED); "B is 2." matches by text.
    expect(
      claimPairs(
        two,
        j(
          ["ok", 1],
          [
            ["B  is 2.", "SUPPORTED"],
            ["other", "UNSUPPORTED"],
          ],
          ["ok", 3],
        ),
      ),
    ).toEqual([
      ["SUPPORTED", "SUPPORTED"],
      ["SUPPORTED", "CONTRADICTED"],
    ]);
    expect(claimPairs(two, j(["ok", 1], [["B is 2.", "CONTRADICTED"]], ["ok", 3]))).toEqual([
      [MISSING, "SUPPORTED"],
      ["CONTRADICTED", "CONTRADICTED"],
    ]);
  });
  it("tabulates overall, by language and by category, and checks the goal", () => {
    // two: grounding 0.5 agrees, claims (S,S) (C,C), relevance 4 in 3–4.
    // none: judge says ok 1.0 (disagrees), relevance 3 outside 0–1.
    const judged = new Map([
      [
        two.id,
        j(
          ["ok", 0.5],
          [
            ["A is 1.", "SUPPORTED"],
            ["B is 2.", "CONTRADICTED"],
          ],
          ["ok", 4],
        ),
      ],
      [none.id, j(["ok", 1], [["Не знаю.", "SUPPORTED"]], ["ok", 3])],
    ]);
    const t = agreementTable([two, none], judged);
    expect(t.map((g) => g.group)).toEqual(["overall", "en", "ru", "mixed", "refusal"]);
    const overall = t[0]!;
    expect(overall.grounding).toBe(0.5);
    expect(overall.relevance).toBe(0.5);
    expect(overall.claims).toEqual({ n: 2, agreement: 1, kappa: 1 });
    // QWK pairs [judge, nearest labelled]: (4,4), (3,1). Marginals judge {3:.5,4:.5}, person {1:.5,4:.5}.
    // observed Σw·o = 0.5·(2²/16) = 0.125; expected Σw·e = .25·(w(3,1)+w(3,4)+w(4,1)+w(4,4)) = .25·(4+1+9+0)/16 = 0.21875
    // κ = 1 − 0.125/0.21875 = 3/7
    expect(overall.relevanceQwk.kappa).toBeCloseTo(3 / 7, 12);
    const g = goalCheck(t);
    expect(g.met).toBe(false);
    expect(g.lines[0]).toBe("NOT met  grounding agreement overall 50.0% (goal ≥ 85.0%)");
    expect(g.lines[2]).toBe("met      grounding agreement en 100.0% (goal ≥ 75.0%)");
  });
});
