// The HTML report is for one golden set (issue: found following the README as a new user, where the
// report of a team's own golden set listed the demo's UNSUPPORTED claims from another golden set
// under "Recent UNSUPPORTED and CONTRADICTED claims"). Its bad claims are those of the report's
// runs and of live traffic (run `live`), never those of another golden set's runs. A golden set
// asked for by name that no run has is an error (exit 2, nothing written), not an empty report.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../../scorer/src/cli/context.js";
import { runCli } from "../../scorer/src/cli/main.js";
import { loadReportData } from "../../scorer/src/runs/reportData.js";
import { openStore, type Store } from "../../store/src/client.js";

const ts = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");
const T0 = Date.UTC(2026, 11, 7, 3);
// run id → golden set, start; the "gb" run is the latest golden run, so the default report is of "gb"
const RUNS = [
  { run_id: "r-ga", golden: "ga", started: T0 },
  { run_id: "r-gb", golden: "gb", started: T0 + 60_000 },
];

let home: string;
// the embedded store has one owner: each test opens it and closes it
const withStore = async <T>(f: (store: Store) => Promise<T>): Promise<T> => {
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  try {
    return await f(store);
  } finally {
    await store.close();
  }
};

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-report-claims-"));
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  const ins = (table: string, values: Record<string, unknown>[]) => store.client.insert({ table: `${store.database}.${table}`, values, format: "JSONEachRow" });
  await ins(
    "runs",
    RUNS.map((r) => ({
      run_id: r.run_id,
      started_at: ts(r.started),
      finished_at: ts(r.started + 1000),
      status: "completed",
      source: "golden",
      pipeline_version: r.run_id,
      golden_set_hash: r.golden,
      golden_set_path: `${r.golden}.jsonl`,
      judge_kind: "heuristic",
      judge_model: "heuristic",
      judge_prompt_version: "hp",
      ks: [5],
      target: "t",
      summary: "{}",
      version: 1,
    })),
  );
  const claim = (run_id: string, verdict: string, at: number) => ({
    run_id,
    trace_id: `${run_id}-t`,
    judge_prompt_version: "hp",
    repeat_index: 0,
    claim_index: 0,
    golden_id: run_id === "live" ? "" : "g1",
    claim: `claim of ${run_id}`,
    verdict,
    chunk_ids: [],
    judge_model: "heuristic",
    pipeline_version: run_id,
    created_at: ts(at),
    version: 1,
  });
  await ins("claims", [
    claim("r-ga", "UNSUPPORTED", T0 + 500),
    claim("r-gb", "CONTRADICTED", T0 + 60_500),
    claim("live", "UNSUPPORTED", T0 + 120_000),
    // a SUPPORTED claim is never listed
    { ...claim("r-gb", "SUPPORTED", T0 + 60_600), claim_index: 1, claim: "a supported claim" },
  ]);
  await store.close();
}, 120_000);

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe("report: recent bad claims", () => {
  it("lists those of the report's golden set's runs and of live traffic, newest first", async () => {
    const data = await withStore((store) => loadReportData(store));
    expect(data.runs.map((r) => r.run_id)).toEqual(["r-gb"]);
    expect(data.bad_claims.map((c) => [c.claim, c.verdict])).toEqual([
      ["claim of live", "UNSUPPORTED"],
      ["claim of r-gb", "CONTRADICTED"],
    ]);
  });

  it("follows --golden-set", async () => {
    const data = await withStore((store) => loadReportData(store, { goldenSet: "ga" }));
    expect(data.runs.map((r) => r.run_id)).toEqual(["r-ga"]);
    expect(data.bad_claims.map((c) => c.claim)).toEqual(["claim of live", "claim of r-ga"]);
  });
});

describe("report --golden-set", () => {
  it("refuses a golden set no completed run has, with one line, and writes nothing", async () => {
    const errors: string[] = [];
    const io: Io = { out: () => {}, err: (t) => errors.push(t), interactive: false, env: { ...process.env, RAGMETER_HOME: "" }, cwd: home };
    const out = path.join(home, "typo.html");
    expect(await runCli(["node", "ragmeter", "report", "--home", home, "--golden-set", "zzz", "--out", out], io)).toBe(2);
    expect(errors).toEqual(["ragmeter: --golden-set zzz: no completed run on a golden set whose SHA-256 starts with it (see `ragmeter runs`, column golden)"]);
    expect(existsSync(out)).toBe(false);
    const ok = path.join(home, "ga.html");
    expect(await runCli(["node", "ragmeter", "report", "--home", home, "--golden-set", "ga", "--out", ok], { ...io, err: () => {} })).toBe(0);
    expect(existsSync(ok)).toBe(true);
  }, 60_000);
});
