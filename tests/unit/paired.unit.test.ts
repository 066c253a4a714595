import { describe, expect, it } from "vitest";
import type { MetricValue } from "../../core/src/domain/metricTable.js";
import { pairedDelta } from "../../scorer/src/runs/paired.js";

const run = (rows: Record<string, MetricValue>): Map<string, Map<string, MetricValue>> => new Map(Object.entries(rows).map(([id, v]) => [id, new Map([["grounding", v]])]));

describe("paired delta (design §5)", () => {
  it("A: q1 0.5, q2 1.0; B: q1 1.0, q2 judge_error → +0.5 over n=1, q2 unpaired (not +0.25)", () => {
    const a = run({ q1: { value: 0.5, status: "ok" }, q2: { value: 1, status: "ok" } });
    const b = run({ q1: { value: 1, status: "ok" }, q2: { value: null, status: "judge_error" } });
    const d = pairedDelta("grounding", a, b);
    expect(d.delta).toBe(0.5);
    expect(d.n).toBe(1);
    expect(d.unpaired).toEqual([{ golden_id: "q2", reason: "A ok, B judge_error" }]);
  });
  it("a question present in one run only is listed, never paired", () => {
    const d = pairedDelta("grounding", run({ q1: { value: 1, status: "ok" } }), run({ q1: { value: 0, status: "ok" }, q3: { value: 1, status: "ok" } }));
    expect(d.delta).toBe(-1);
    expect(d.unpaired).toEqual([{ golden_id: "q3", reason: "only in run B" }]);
  });
});
