import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../store/src/client.js";
import { type RunRecord, saveRun } from "../../store/src/runs.js";
import { cli } from "../helpers/cli.js";

/** A completed run of pipeline `version` started at second `s`, with `summary` as stored. */
function run(id: string, version: string, s: number, summary: string): RunRecord {
  const at = new Date(Date.UTC(2026, 11, 1, 0, 0, s)).toISOString();
  return {
    run_id: id,
    started_at: at,
    finished_at: at,
    status: "completed",
    source: "golden",
    pipeline_version: version,
    golden_set_hash: "ab".repeat(32),
    golden_set_path: "golden.jsonl",
    judge_kind: "heuristic",
    judge_model: "",
    judge_prompt_version: "h1",
    ks: [5],
    target: "none",
    summary,
  };
}

describe("runs and export read each stored summary through its schema", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "ragmeter-runs-summary-"));
    const store = await openStore({ kind: "embedded", home: dir, database: "ragmeter" });
    try {
      // The first version's summary (metrics, n, counts, questions, target errors), a text that is no JSON, a metric that is no number.
      await saveRun(store, run("r-old", "v1", 1, '{"metrics":{"recall@5":0.75},"n":{"recall@5":4},"counts":{"recall@5":{"ok":4}},"questions":4,"target_errors":0}'));
      await saveRun(store, run("r-cut", "v2", 2, '{"metrics":{"recall@5":0.8'));
      await saveRun(store, run("r-bad", "v3", 3, '{"metrics":{"recall@5":"high"},"n":{},"counts":{},"questions":1,"target_errors":0}'));
    } finally {
      await store.close();
    }
  }, 60_000);

  it("runs --json: an earlier version's metrics, and why the others cannot be read", async () => {
    const r = await cli(["runs", "--json", "--home", dir]);
    expect(r.code).toBe(0);
    const runs = JSON.parse(r.out) as { run_id: string; metrics: Record<string, number>; summary_error?: string }[];
    expect(runs.map((x) => [x.run_id, x.metrics, x.summary_error])).toEqual([
      ["r-bad", {}, "summary metrics.recall@5: Invalid input: expected number, received string"],
      ["r-cut", {}, expect.stringMatching(/^summary is not JSON \(/u)],
      ["r-old", { "recall@5": 0.75 }, undefined],
    ]);
  });

  it("runs: an unreadable summary's row says why after its empty metrics", async () => {
    const r = await cli(["runs", "--home", dir]);
    const rows = r.out.split("\n");
    expect(rows.find((l) => l.startsWith("r-bad"))).toMatch(/ {2}\(completed: summary metrics\.recall@5: Invalid input: expected number, received string\)$/u);
    expect(rows.find((l) => l.startsWith("r-old"))).toMatch(/0\.75 .*—$/u);
  });

  it("export --csv warns of each unreadable run and leaves its metrics empty", async () => {
    const r = await cli(["export", "--csv", "--home", dir]);
    expect(r.code).toBe(0);
    expect(r.err).toContain("warning: run r-bad: summary metrics.recall@5: Invalid input: expected number, received string; its metrics are left empty");
    expect(r.err).toMatch(/warning: run r-cut: summary is not JSON/u);
    const lines = r.out.trim().split("\n");
    expect(lines[0]?.endsWith(",recall@5")).toBe(true);
    expect(lines.find((l) => l.includes("r-old"))?.endsWith(",0.75")).toBe(true);
    expect(lines.find((l) => l.includes("r-bad"))?.endsWith(",")).toBe(true);
  });
});
