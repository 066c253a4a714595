import { describe, expect, it } from "vitest";
import { bestBand, type CascadeAnswer, candidateBands, decide } from "../../bench/judges/cascadeCurve.js";
import type { GroundingJudgment } from "../../core/src/judges/types.js";

// The cascade curve's pieces (bench/judges/cascadeCurve.ts) on five answers worked by hand.
const cost = { input_tokens: 0, output_tokens: 0, latency_ms: 1 };
const t1 = (risk: number, value: number): GroundingJudgment => ({ status: "ok", value, risk, claims: [], ...cost });
const llm = (value: number, supports: number[]) => ({
  id: "",
  model: "m",
  prompt_version: "v",
  wall_ms: 1,
  judgment: { status: "ok" as const, value, claims: supports.map((support, index) => ({ index, text: "c", verdict: "SUPPORTED" as const, chunk_ids: [], support })), ...cost },
});
const answers: CascadeAnswer[] = [
  { id: "1", fold: 0, hallucinated: false, tier1: t1(0.1, 1), llm: llm(1, [0.9]) },
  { id: "2", fold: 1, hallucinated: true, tier1: t1(0.2, 1), llm: llm(0.5, [0.9, 0.3]) },
  { id: "3", fold: 2, hallucinated: false, tier1: t1(0.3, 0.5), llm: null },
  { id: "4", fold: 3, hallucinated: false, tier1: t1(0.4, 0.5), llm: llm(1, [0.95]) },
  { id: "5", fold: 4, hallucinated: false, tier1: { status: "no_claims", value: null, claims: [], ...cost }, llm: null },
];
const [a1, a2, a3, a4] = answers as [CascadeAnswer, CascadeAnswer, CascadeAnswer, CascadeAnswer];

describe("cascade curve (issue 40): bands that stored LLM judgments cover, the cascade's decision, the best band within a budget", () => {
  it("evaluable bands are runs of covered answers by risk: [.1,.1], [.1,.2], [.2,.2], [.4,.4]", () => {
    expect(candidateBands(answers)).toEqual([
      { low: 0.1, high: 0.1 },
      { low: 0.1, high: 0.2 },
      { low: 0.2, high: 0.2 },
      { low: 0.4, high: 0.4 },
    ]);
  });

  it("decides as the cascade judge: in the band the stricter reading's flag, the risk the mean of tier 1's and the LLM's placement; tier 1 outside", () => {
    const d2 = decide(a2, { low: 0.1, high: 0.2 });
    expect(d2.flag).toBe(true);
    expect(d2.sent).toBe(true);
    // the LLM's placement 0.1 + 0.1 × (1 − 0.3) = 0.17, tier 1's 0.2
    expect(d2.score).toBeCloseTo((0.2 + 0.17) / 2, 12);
    // tier 1 (0.5) is stricter than the LLM (1): still flagged; placement 0.4 + 0 × 0.05
    expect(decide(a4, { low: 0.4, high: 0.4 })).toEqual({ flag: true, score: 0.4, sent: true });
    // rule "llm": the LLM's flag and placement alone
    expect(decide(a2, { low: 0.1, high: 0.2 }, "llm").score).toBeCloseTo(0.1 + 0.1 * 0.7, 12);
    expect(decide(a4, { low: 0.4, high: 0.4 }, "llm")).toEqual({ flag: false, score: 0.4, sent: true });
    expect(decide(a3, { low: 0.1, high: 0.2 })).toEqual({ flag: true, score: 0.3, sent: false });
    expect(decide(a1, null)).toEqual({ flag: false, score: 0.1, sent: false });
    expect(() => decide(a3, { low: 0.25, high: 0.35 })).toThrow(/answer 3 lies in the band/u);
  });

  it("the best band by F1 within the budget, fewer answers sent on a tie", () => {
    // none: flags 3, 4, nothing found → F1 0; [.2,.2] flags 2 too → P 1/3, R 1, F1 0.5 with 1 sent;
    // [.1,.2] the same F1 with 2 sent (1: both tiers find it supported); [.4,.4] F1 0 (4 stays flagged)
    expect(bestBand(answers, candidateBands(answers), 0.2)).toEqual({ low: 0.2, high: 0.2 });
    // a budget of 0.1 × 5 answers allows none
    expect(bestBand(answers, candidateBands(answers), 0.1)).toBeNull();
  });
});
