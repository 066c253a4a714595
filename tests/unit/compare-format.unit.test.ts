// `ragmeter compare`'s table: every row's columns line up, whatever the longest metric name
// (context_relevance, 17 characters, pushed its row's columns 5 to the right of the others).
import { describe, expect, it } from "vitest";
import { formatComparison } from "../../scorer/src/cli/format/compare.js";
import type { Comparison } from "../../scorer/src/runs/compare.js";
import type { PairedDelta } from "../../scorer/src/runs/paired.js";
import type { RunRecord } from "../../store/src/runs.js";

const run = (run_id: string, pipeline_version: string): RunRecord => ({
  run_id,
  started_at: "2026-12-07T03:00:00.000Z",
  finished_at: null,
  status: "completed",
  source: "golden",
  pipeline_version,
  golden_set_hash: "h",
  golden_set_path: "g.jsonl",
  judge_kind: "heuristic",
  judge_model: "heuristic",
  judge_prompt_version: "p",
  ks: [5],
  target: "t",
  summary: "{}",
});
const delta = (metric: string, a: number, b: number, lower: number, upper: number): PairedDelta => ({
  metric,
  n: 2,
  mean_a: a,
  mean_b: b,
  delta: b - a,
  interval: { lower, upper, level: 0.95, resamples: 100, seed: 1 },
  unpaired: [],
  differences: [],
});

describe("formatComparison", () => {
  it("pads the metric column to the longest name, so A, B, delta, interval and n line up", () => {
    const c: Comparison = {
      comparison_id: "c",
      a: run("r-a", "v1"),
      b: run("r-b", "v2"),
      deltas: [delta("recall@5", 1, 0.5, -1, 0), delta("context_relevance", 0.25, 0.75, 0, 1)],
      seed: 1,
      resamples: 100,
      warnings: [],
    };
    const lines = formatComparison(c).split("\n");
    // by hand: "context_relevance" is 17 characters, so every name is padded to 17, then " " and A in 7
    expect(lines.slice(3, 6)).toEqual([
      "metric                  A       B   delta  95% CI               n",
      "recall@5             1.00    0.50   -0.50  [-1.00, +0.00]       2",
      "context_relevance    0.25    0.75   +0.50  [+0.00, +1.00]       2",
    ]);
  });

  it("keeps the 12-character column when every name is shorter", () => {
    const c: Comparison = { comparison_id: "c", a: run("r-a", "v1"), b: run("r-b", "v2"), deltas: [delta("mrr", 0.5, 0.5, 0, 0)], seed: 1, resamples: 100, warnings: [] };
    expect(formatComparison(c).split("\n")[4]).toBe("mrr             0.50    0.50   +0.00  [+0.00, +0.00]       2");
  });

  it("groups questions unpaired for one reason in every metric; lists the others per metric", () => {
    const ids = Array.from({ length: 12 }, (_, i) => `q${String(i + 1).padStart(2, "0")}`);
    const onlyA = ids.map((golden_id) => ({ golden_id, reason: "only in run A" }));
    const c: Comparison = {
      comparison_id: "c",
      a: run("r-a", "v1"),
      b: run("r-b", "v2"),
      deltas: [
        { ...delta("recall@5", 1, 1, 0, 0), unpaired: [...onlyA, { golden_id: "g1", reason: "not ok in B (target_error)" }] },
        { ...delta("mrr", 1, 1, 0, 0), unpaired: onlyA },
      ],
      seed: 1,
      resamples: 100,
      warnings: [],
    };
    const text = formatComparison(c);
    expect(text.slice(text.indexOf("unpaired or not ok"), text.indexOf("\n\nregressed")).split("\n")).toEqual([
      "unpaired or not ok",
      "  only in run A, every metric (12): q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, … and 2 more",
      "  g1: recall@5: not ok in B (target_error)",
    ]);
  });
});
