// `ragmeter compare`'s table: every row's columns line up, whatever the longest metric name
// (context_relevance, 17 characters, pushed its row's columns 5 to the right of the others).
import { describe, expect, it } from "vitest";
import { formatComparison, verdictLine } from "../../scorer/src/cli/format/compare.js";
import type { Comparison } from "../../scorer/src/runs/compare.js";
import type { PairedDelta } from "../../scorer/src/runs/paired.js";
import type { RunRecord } from "../../store/src/runs.js";

const run = (run_id: string, pipeline_version: string, ks: number[] = [5]): RunRecord => ({
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
  ks,
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
        { ...delta("recall@5", 1, 1, 0, 0), unpaired: [...onlyA, { golden_id: "g1", reason: "A ok, B target_error" }] },
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
      "  g1: recall@5: A ok, B target_error",
    ]);
  });
});

describe("verdictLine", () => {
  const head = "verdict (headline metrics, 95% interval excluding 0): ";
  it("says which version is worse or better and on which headline metric, with its layer; an interval spanning 0 is no clear change", () => {
    const deltas = [
      delta("recall@1", 1, 0, -1, -1), // not a headline metric at k = 5: left out
      delta("recall@5", 1, 0.5, -1, -0.1),
      delta("grounding", 0.6, 0.8, 0.05, 0.4),
      delta("relevance", 3, 2.9, -0.5, 0.2),
      delta("mrr", 1, 0, -1, -1), // not headline
    ];
    expect(verdictLine({ a: run("r-a", "v1", [1, 5]), b: run("r-b", "v2", [1, 5]), deltas })).toBe(
      `${head}v2 is mixed against v1 — worse: recall@5 -0.50 (retrieval); better: grounding +0.20 (answer); no clear change: relevance`,
    );
    expect(verdictLine({ a: run("r-a", "v1"), b: run("r-b", "v2"), deltas: [delta("key_facts", 0.9, 0.4, -0.7, -0.2)] })).toBe(
      `${head}v2 is worse than v1 — worse: key facts -0.50 (answer)`,
    );
  });

  it("reads recall at the largest k when the run has no k = 5, and says when nothing clearly changed", () => {
    const deltas = [delta("recall@3", 0.5, 1, 0.2, 0.8), delta("recall@1", 0.5, 0.5, 0, 0)];
    expect(verdictLine({ a: run("r-a", "v1", [1, 3]), b: run("r-b", "v2", [1, 3]), deltas })).toBe(`${head}v2 is better than v1 — better: recall@3 +0.50 (retrieval)`);
    expect(verdictLine({ a: run("r-a", "v1"), b: run("r-b", "v2"), deltas: [delta("recall@5", 0.5, 0.5, -0.1, 0.1)] })).toBe(
      `${head}no clear change from v1 to v2 — no clear change: recall@5`,
    );
  });
});
