import { describe, expect, it } from "vitest";
import { readRunSummary, storeRunSummary } from "../../scorer/src/runs/runSummary.js";

/** A summary as completeRun writes it today, keys in the order written. */
const current = {
  metrics: { "recall@1": 0.5, grounding: null },
  n: { "recall@1": 2, grounding: 0 },
  counts: { "recall@1": { ok: 2 }, grounding: { judge_error: 2 } },
  questions: 2,
  target_errors: 0,
  failed_questions: 2,
  match_modes: { document: { items: 2, recall: { "recall@1": 0.5 }, n: 2 } },
  judge: {
    calls: 4,
    cached: 1,
    not_sampled: 0,
    skipped: { not_applicable: 1 },
    input_tokens: 100,
    output_tokens: 20,
    cost_usd: null,
    max_cost_usd: null,
    repeat: 1,
    cache: true,
    length_bias: [{ metric: "grounding", spearman: null, n: 0 }],
    variance: [],
    calibration_id: null,
  },
};

describe("stored run summary", () => {
  it("is written byte for byte as built, and reads back the same", () => {
    const text = storeRunSummary(current);
    expect(text).toBe(JSON.stringify(current));
    expect(readRunSummary({ status: "completed", summary: text })).toEqual({ state: "summary", summary: current });
  });

  it("refuses to write a summary that does not hold", () => {
    expect(() => storeRunSummary({ ...current, questions: -1 })).toThrow(/questions/u);
  });

  it("reads the first version's summary (metrics, n, counts, questions, target errors only)", () => {
    const first = '{"metrics":{"recall@5":0.8},"n":{"recall@5":4},"counts":{"recall@5":{"ok":4,"not_applicable":1}},"questions":5,"target_errors":0}';
    const r = readRunSummary({ status: "completed", summary: first });
    expect(r.state === "summary" && r.summary.metrics).toEqual({ "recall@5": 0.8 });
  });

  it("says why a summary cannot be read instead of an empty one", () => {
    expect(readRunSummary({ status: "completed", summary: "{}" })).toEqual({ state: "unreadable", reason: "summary metrics: Invalid input: expected record, received undefined" });
    expect(readRunSummary({ status: "completed", summary: '{"metrics":{"mrr":"high"},"n":{},"counts":{},"questions":1,"target_errors":0}' })).toEqual({
      state: "unreadable",
      reason: "summary metrics.mrr: Invalid input: expected number, received string",
    });
    const notJson = readRunSummary({ status: "failed", summary: "{metrics" });
    expect(notJson.state).toBe("unreadable");
    expect(notJson.state === "unreadable" && notJson.reason.startsWith("summary is not JSON (")).toBe(true);
  });

  it("reads a running run's empty summary and an aborted run's reason", () => {
    expect(readRunSummary({ status: "running", summary: "{}" })).toEqual({ state: "running" });
    expect(readRunSummary({ status: "aborted", summary: '{"aborted_reason":"the process died"}' })).toEqual({ state: "aborted", reason: "the process died" });
    expect(readRunSummary({ status: "aborted", summary: "{}" }).state).toBe("unreadable");
  });
});
