import { describe, expect, it } from "vitest";
import { metricDef } from "../../core/src/domain/metricTable.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { riskOf } from "../../core/src/judges/heuristic/model.js";
import { type Judge, judgeOf } from "../../core/src/judges/types.js";
import { scoreInteraction } from "../../core/src/scoring/score.js";
import { evaluateGate } from "../../scorer/src/runs/gate.js";

const subject = { trace_id: "t", golden_id: "g", tags: [], question: "Which port does PostgreSQL listen on?", latency_ms: 0 };
const reply = {
  answer: "PostgreSQL listens on port 5432. Backups are kept for 90 days.",
  contexts: [{ id: "c1", document_id: "pg", text: "PostgreSQL listens on port 5432 by default.", score: null }],
  model: null,
};

/** A judge whose grounding gives fixed claims with support probabilities, counting its calls. */
function supportJudge(supports: readonly (number | undefined)[]): Judge & { calls: () => number } {
  let calls = 0;
  const claims = supports.map((support, index) => ({ index, text: `c${index}`, verdict: "SUPPORTED" as const, chunk_ids: [], ...(support === undefined ? {} : { support }) }));
  const cost = { input_tokens: 7, output_tokens: 3, latency_ms: 1 };
  const j = judgeOf(
    { kind: "llm", model: "m", metered: true },
    {
      grounding: {
        version: "g",
        run: async () => {
          calls++;
          const all = supports.every((s) => s !== undefined);
          return { status: "ok", value: 1, claims, ...(all ? { risk: riskOf("two_weakest", supports as number[]) } : {}), ...cost };
        },
      },
      relevance: { version: "r", run: async () => ({ status: "ok", value: 4, ...cost }) },
    },
  );
  return { ...j, calls: () => calls };
}

describe("grounding_risk: the grounding judgment's risk as a metric of its own", () => {
  it("reads the grounding judgment (one call), carries no cost of its own, ranks where grounding ties", async () => {
    const judge = supportJudge([0.9, 0.6, 0.8]);
    const r = await scoreInteraction(subject, reply, null, { judge, ks: [1] });
    expect(judge.calls()).toBe(1);
    // 1 − p1·p2 of the two weakest claims: 1 − 0.6 × 0.8 = 0.52
    expect(r.metrics["grounding_risk"]).toMatchObject({ status: "ok", value: 1 - 0.6 * 0.8, input_tokens: 0, output_tokens: 0, calls: 0 });
    expect(r.metrics["grounding"]).toMatchObject({ status: "ok", value: 1, input_tokens: 7 });
  });

  it("without every claim's probability (an endpoint without log-probabilities): not_applicable with the reason", async () => {
    const r = await scoreInteraction(subject, reply, null, { judge: supportJudge([0.9, undefined]), ks: [1] });
    expect(r.metrics["grounding_risk"]).toMatchObject({ status: "not_applicable", value: null });
    expect(r.metrics["grounding_risk"]?.reason).toMatch(/no support probability/u);
  });

  it("the no-LLM judge's risk is the metric, and follows grounding's status when grounding has no value", async () => {
    const judge = createHeuristicJudge();
    const r = await scoreInteraction(subject, reply, null, { judge, ks: [1] });
    const g = r.metrics["grounding"];
    expect(r.metrics["grounding_risk"]?.value).toBe(g?.risk);
    expect(r.metrics["grounding_risk"]?.value).toBeGreaterThan(0);
    const none = await scoreInteraction(subject, { ...reply, answer: "Hello! How can I help you today?" }, null, { judge, ks: [1] });
    expect([none.metrics["grounding"]?.status, none.metrics["grounding_risk"]?.status]).toEqual(["no_claims", "no_claims"]);
  });

  it("lower is better: the gate fails on a rise beyond the threshold with its interval above 0, not on a fall", () => {
    expect(metricDef("grounding_risk")?.lowerIsBetter).toBe(true);
    const d = (delta: number, lower: number, upper: number) => ({
      metric: "grounding_risk",
      delta,
      n: 20,
      mean_a: 0.3,
      mean_b: 0.3 + delta,
      interval: { lower, upper },
      unpaired: [],
      differences: [],
    });
    const rule = { metric: "grounding_risk", threshold: -0.05 };
    expect(evaluateGate([rule], [d(0.1, 0.04, 0.16)] as never)[0]?.failed).toBe(true);
    expect(evaluateGate([rule], [d(-0.1, -0.16, -0.04)] as never)[0]?.failed).toBe(false);
    // a rise within the interval around 0 does not fail
    expect(evaluateGate([rule], [d(0.1, -0.02, 0.2)] as never)[0]?.failed).toBe(false);
  });
});
