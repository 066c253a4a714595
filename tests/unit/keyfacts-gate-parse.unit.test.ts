import { describe, expect, it } from "vitest";
import { keyFactsScore } from "../../core/src/domain/metrics/keyFacts.js";
import { extractJson } from "../../core/src/judges/llm/parse.js";
import { evaluateGate, GateSyntaxError, parseGate } from "../../scorer/src/runs/gate.js";
import type { PairedDelta } from "../../scorer/src/runs/paired.js";

describe("key facts (design §5)", () => {
  it("share of facts found by normalised substring or number", () => {
    const r = keyFactsScore("Connect on port 5432; it costs €1,000 a year. Retention: 30 days.", ["5432", "1000", "30  days", "TLS 1.3"]);
    expect(r.value).toBe(0.75);
  });
  it("absent key facts → not_applicable, null", () => {
    expect(keyFactsScore("x", null)).toEqual({ status: "not_applicable", value: null, reason: "golden item has no key_facts" });
  });
});

describe("--fail-on gate (design §5)", () => {
  const known = ["recall@5", "grounding"];
  const delta = (metric: string, d: number, lower: number, upper: number): PairedDelta => ({
    metric,
    n: 10,
    mean_a: 0.9,
    mean_b: 0.9 + d,
    delta: d,
    interval: { lower, upper, level: 0.95, resamples: 10000, seed: 1 },
    unpaired: [],
    differences: [],
  });
  it("parses the grammar and rejects malformed rules naming them", () => {
    expect(parseGate("grounding<-0.03, recall@5<-0.05", known)).toEqual([
      { metric: "grounding", threshold: -0.03 },
      { metric: "recall@5", threshold: -0.05 },
    ]);
    expect(() => parseGate("grounding>-0.03", known)).toThrow(GateSyntaxError);
    expect(() => parseGate("relevancy<-1", known)).toThrow(/unknown metric "relevancy"/u);
  });
  it("fails only when the drop is larger than allowed and the interval excludes 0", () => {
    const rules = parseGate("grounding<-0.03", known);
    expect(evaluateGate(rules, [delta("grounding", -0.1, -0.15, -0.05)])[0]?.failed).toBe(true);
    expect(evaluateGate(rules, [delta("grounding", -0.1, -0.2, 0.01)])[0]?.failed).toBe(false);
    expect(evaluateGate(rules, [delta("grounding", -0.02, -0.03, -0.01)])[0]?.failed).toBe(false);
    // no question scored ok in both runs: nothing shows the metric held, so the gate fails
    expect(evaluateGate(rules, [{ ...delta("grounding", 0, 0, 0), n: 0, delta: null, interval: null }])[0]).toMatchObject({ failed: true });
  });
});

describe("JSON extraction from judge replies", () => {
  it("reads JSON inside a code fence after prose", () => {
    expect(extractJson('Sure! Here is my verdict:\n```json\n{"score": 3, "reason": "ok"}\n```\nHope it helps.')).toEqual({ score: 3, reason: "ok" });
  });
  it("reads bare JSON and JSON embedded in prose; undefined when there is none", () => {
    expect(extractJson('{"a":1}')).toEqual({ a: 1 });
    expect(extractJson('The answer is {"a": [1,2]} as requested')).toEqual({ a: [1, 2] });
    expect(extractJson("no json here")).toBeUndefined();
  });
});
