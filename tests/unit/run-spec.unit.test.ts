import { describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { planRun } from "../../scorer/src/runs/recorder.js";
import { RunSpecError, runIdentity, runSpec } from "../../scorer/src/runs/spec.js";

const golden = { path: "golden.jsonl", format: "jsonl" as const, sha256: "ab".repeat(32), items: [], notices: [] };
const base = { source: { kind: "golden" as const, set: golden }, target: "http://127.0.0.1:8000/ask", pipelineVersion: "v7", ks: [1, 5] };

/** The message of the RunSpecError `f` throws. */
function specError(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(RunSpecError);
    return (err as RunSpecError).message;
  }
  throw new Error("expected a RunSpecError");
}

describe("run specification", () => {
  it("fills the defaults: one repeat, the cache on, no cost cap, no prices, answers from replies", () => {
    const s = runSpec(base);
    expect([s.repeat, s.cache, s.useCache, s.maxCostUsd, s.prices]).toEqual([1, true, true, null, null]);
    expect(s.source).toEqual({ kind: "golden", set: golden, viaTraces: false });
  });

  it("turns the judge cache off when a judge runs more than once, or when --no-cache asks", () => {
    expect(runSpec({ ...base, repeat: 3 }).useCache).toBe(false);
    expect(runSpec({ ...base, cache: false }).useCache).toBe(false);
    expect(runSpec({ ...base, repeat: 1, cache: true }).useCache).toBe(true);
  });

  it("names the flag of the first bad value in one line", () => {
    expect(specError(() => runSpec({ ...base, source: { ...base.source, viaTraces: true }, repeat: 2 }))).toBe("--repeat is not available with --via-traces");
    expect(specError(() => runSpec({ ...base, ks: [5, 1] }))).toBe("--k must be ascending and distinct");
    expect(specError(() => runSpec({ ...base, ks: [1, 1] }))).toBe("--k must be ascending and distinct");
    expect(specError(() => runSpec({ ...base, ks: [0] }))).toBe("--k must be integers ≥ 1");
    expect(specError(() => runSpec({ ...base, repeat: 0 }))).toBe("--repeat must be ≥ 1");
    expect(specError(() => runSpec({ ...base, maxCostUsd: -1 }))).toBe("--max-cost must be ≥ 0");
    expect(specError(() => runSpec({ ...base, pipelineVersion: "" }))).toBe("--pipeline-version must not be empty");
    expect(specError(() => runSpec({ ...base, source: { kind: "replay", from: "" } }))).toBe("--from must not be empty");
    expect(specError(() => runSpec({ ...base, ks: [0] }, { ks: "RAGMETER_KS" }))).toBe("RAGMETER_KS must be integers ≥ 1");
  });

  it("files a golden run under its set, a replay under its selection, and marks answers read from spans", () => {
    expect(runIdentity(runSpec(base), null)).toEqual({ source: "golden", goldenSetHash: golden.sha256, goldenSetPath: "golden.jsonl", target: base.target });
    expect(runIdentity(runSpec({ ...base, source: { ...base.source, viaTraces: true } }), null).target).toBe(`${base.target} (via traces)`);
    const replay = runSpec({ ...base, source: { kind: "replay", from: "since=24h" } });
    expect(runIdentity(replay, "cd".repeat(32))).toEqual({
      source: "replay",
      goldenSetHash: `replay-${"cd".repeat(32)}`,
      goldenSetPath: "replay --from since=24h",
      target: base.target,
    });
  });

  it("plans the run's row from the spec and the judge", () => {
    const judge = createHeuristicJudge();
    const at = Date.UTC(2026, 11, 7, 3, 4, 5);
    const run = planRun(runSpec(base), judge, at);
    expect(run.run_id).toMatch(/^r-20261207T030405-[0-9a-f]{6}$/u);
    expect(run).toMatchObject({
      started_at: "2026-12-07T03:04:05.000Z",
      status: "running",
      source: "golden",
      pipeline_version: "v7",
      golden_set_hash: golden.sha256,
      ks: [1, 5],
      judge_kind: judge.kind,
      judge_model: judge.model,
      summary: "{}",
    });
  });
});
