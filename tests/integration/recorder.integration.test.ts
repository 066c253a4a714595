import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { failedQuestion } from "../../core/src/scoring/score.js";
import { openRun } from "../../scorer/src/runs/recorder.js";
import { runSpec } from "../../scorer/src/runs/spec.js";
import { digestResults } from "../../scorer/src/runs/summary.js";
import { openStore, type Store } from "../../store/src/client.js";
import { runScores } from "../../store/src/results.js";

type FlushPolicy = Parameters<typeof openRun>[1]["flush"];

/** A recorder of a golden run (an empty golden set) with heuristic judges, no cache, no prices and no cost cap. */
function startRecorder(store: Store, ks: number[], pipelineVersion: string, flush: FlushPolicy) {
  const golden = { path: "mem", format: "jsonl" as const, sha256: "h", items: [], notices: [] };
  const spec = runSpec({ source: { kind: "golden", set: golden }, target: "none", pipelineVersion, ks, cache: false });
  return openRun(spec, { store, judge: createHeuristicJudge(), ...(flush ? { flush } : {}) });
}

describe("run recorder (embedded store)", () => {
  it("writes size-triggered batches in the background without losing or reordering a row", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-recorder-"));
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    try {
      const ks = [1, 5];
      // maxRows 7: a failed question gives one interaction and one score row per metric, so nearly every record() triggers a write
      const recorder = await startRecorder(store, ks, "rec", { maxRows: 7, intervalMs: 60_000 });
      const results = [];
      for (let i = 0; i < 40; i++) {
        const q = failedQuestion({ id: `g${String(i).padStart(2, "0")}`, tags: [], question: `q${i}` }, `t${i}`, "target_error", "HTTP 500", 1);
        results.push(q);
        await recorder.record(q);
      }
      await recorder.complete({ questions: digestResults(results, ks, null), results, warnings: [] });
      await recorder.close();
      const rows = await runScores(store, recorder.run.run_id);
      // 40 questions × the 14 metrics of the table at ks 1 and 5, each stored once
      const metrics = [
        "abstention",
        "context_relevance",
        "grounding",
        "grounding_risk",
        "key_facts",
        "mrr",
        "ndcg@1",
        "ndcg@5",
        "precision@1",
        "precision@5",
        "recall@1",
        "recall@5",
        "reference_facts",
        "relevance",
      ];
      expect(new Set(rows.map((r) => r.golden_id)).size).toBe(40);
      expect([...new Set(rows.map((r) => r.metric))].sort()).toEqual(metrics);
      expect(rows.length).toBe(40 * metrics.length);
      expect(rows.every((r) => r.status === "target_error" && r.value === null)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("releases the embedded engine's freed memory after a write, at most once per releaseMs", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-recorder-"));
    const opened = await openStore({ kind: "embedded", home, database: "ragmeter" });
    const released: number[] = [];
    const store = { ...opened, releaseMemory: async () => void released.push(Date.now()) };
    try {
      const ks = [1];
      const start = (releaseMs: number) =>
        // One failed question is 1 interaction + 7 score rows ≥ 5: every record() writes a batch.
        startRecorder(store, ks, "rel", { maxRows: 5, intervalMs: 60_000, releaseMs });
      const record = async (r: Awaited<ReturnType<typeof start>>, n: number) => {
        for (let i = 0; i < n; i++) await r.record(failedQuestion({ id: `g${i}`, tags: [], question: `q${i}` }, `t${i}`, "target_error", "HTTP 500", 1));
        await r.close();
      };
      await record(await start(0), 6);
      expect(released).toHaveLength(6);
      released.length = 0;
      // A long interval: no release within it, however many batches are written.
      await record(await start(3_600_000), 6);
      expect(released).toHaveLength(0);
      // The real release (SYSTEM JEMALLOC PURGE on the embedded engine) resolves and leaves the store usable.
      await opened.releaseMemory();
      expect((await runScores(opened, "no-such-run")).length).toBe(0);
    } finally {
      await opened.close();
    }
  });
});
