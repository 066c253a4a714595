import { spawnSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, startOpeningStore } from "../../store/src/client.js";
import { StoreInUseError } from "../../store/src/errors.js";

const bin = path.resolve(import.meta.dirname, "../../scorer/bin/ragmeter.js");

describe("embedded store (chdb through @clickhouse/client)", () => {
  it("a second process fails at once naming the owner's PID; after close it works", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-lock-"));
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    await expect(openStore({ kind: "embedded", home, database: "ragmeter" })).rejects.toBeInstanceOf(StoreInUseError);
    const second = spawnSync(process.execPath, [bin, "runs", "--home", home], { encoding: "utf8" });
    expect(second.status).toBe(2);
    expect(second.stderr).toContain(`store in use by PID ${process.pid}: stop that process first, or use a ClickHouse server (CLICKHOUSE_URL) for several processes`);
    await store.close();
    const third = spawnSync(process.execPath, [bin, "runs", "--home", home], { encoding: "utf8" });
    expect(third.status).toBe(0);
    expect(third.stdout).toMatch(/no runs yet/u);
  });

  it("with `after`, takes the lock at once and opens the engine only once `after` settles (a rejection too)", async () => {
    for (const outcome of ["resolve", "reject"] as const) {
      const home = await mkdtemp(path.join(tmpdir(), "ragmeter-after-"));
      let settle: () => void = () => {};
      const after = new Promise<void>((resolve, reject) => {
        settle = outcome === "resolve" ? resolve : () => reject(new Error("thread failed"));
      });
      let opened = false;
      const opening = startOpeningStore({ kind: "embedded", home, database: "ragmeter" }, { after }).then((s) => {
        opened = true;
        return s;
      });
      // The lock is held from the call on: a second opening fails at once.
      expect(() => startOpeningStore({ kind: "embedded", home, database: "ragmeter" })).toThrow(StoreInUseError);
      await new Promise((r) => setTimeout(r, 300));
      expect(opened).toBe(false);
      settle();
      const store = await opening;
      const rs = await store.client.query({ query: "SELECT 1 AS one", format: "JSONEachRow" });
      expect(await rs.json()).toEqual([{ one: 1 }]);
      await store.close();
    }
  });

  it("keeps UInt64 exact, answers in UTC, and FINAL collapses a re-written key", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-ch-"));
    const store = await openStore({ kind: "embedded", home, database: "rm_test" });
    try {
      const row = {
        run_id: "r",
        trace_id: "t",
        metric: "grounding",
        judge_prompt_version: "p",
        repeat_index: 0,
        golden_id: "g",
        value: 0.5,
        status: "ok",
        reason: "",
        judge_kind: "llm",
        judge_model: "m",
        pipeline_version: "v",
        source: "golden",
        created_at: Date.UTC(2026, 0, 2, 3, 4, 5),
        judge_input_tokens: "18446744073709551615",
        judge_output_tokens: 1,
        latency_ms: 1,
      };
      await store.client.insert({ table: "rm_test.scores", values: [{ ...row, version: 1 }], format: "JSONEachRow" });
      await store.client.insert({ table: "rm_test.scores", values: [{ ...row, value: 0.75, version: 2 }], format: "JSONEachRow" });
      const rs = await store.client.query({ query: "SELECT value, judge_input_tokens, toString(created_at) AS t FROM rm_test.scores FINAL", format: "JSONEachRow" });
      expect(await rs.json()).toEqual([{ value: 0.75, judge_input_tokens: "18446744073709551615", t: "2026-01-02 03:04:05.000" }]);
    } finally {
      await store.close();
    }
  });
});
