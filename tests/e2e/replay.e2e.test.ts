import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jaccard, rankBiasedOverlap } from "../../core/src/domain/overlap.js";
import { cli } from "../helpers/cli.js";
import { startSampleServeChild } from "../helpers/sampleServe.js";

let home: string;
let v2: Awaited<ReturnType<typeof startSampleServeChild>>;
let runs: { run_id: string; pipeline_version: string }[];
beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-replay-"));
  const demo = await cli(["demo", "--home", home]);
  expect(demo.code, demo.err).toBe(0);
  runs = JSON.parse((await cli(["runs", "--json", "--home", home])).out) as typeof runs;
  v2 = await startSampleServeChild({ RAGMETER_SAMPLE_VERSION: "v2" });
});
afterAll(async () => {
  await v2?.stop();
});

describe("ragmeter replay", () => {
  it("replays the v1 run's captured questions against v2 over HTTP: paired deltas equal compare v1→v2; overlap per question", async () => {
    const v1 = runs.find((r) => r.pipeline_version === "sample-v1")!;
    const v2run = runs.find((r) => r.pipeline_version === "sample-v2")!;
    const out = path.join(home, "replay.json");
    const r = await cli(["replay", "--from", v1.run_id, "--target", v2.url, "--pipeline-version", "sample-v2-http", "--json", out, "--home", home]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^replay run r-\S+ · pipeline sample-v2-http · 121 captured questions/mu);
    expect(r.out).toMatch(/rank-biased overlap \(p=0\.9\)/u);
    const rep = JSON.parse(await readFile(out, "utf8")) as {
      metrics: Record<string, { n: number; delta: number }>;
      questions: { trace_id: string; jaccard: number; rbo: number }[];
    };
    const cmp = JSON.parse((await cli(["compare", v1.run_id, v2run.run_id, "--json", "--home", home])).out) as { metrics: Record<string, { n: number; delta: number }> };
    for (const m of ["recall@5", "grounding", "relevance", "key_facts"]) {
      expect(rep.metrics[m]?.n, m).toBe(cmp.metrics[m]?.n);
      expect(rep.metrics[m]?.delta, m).toBeCloseTo(cmp.metrics[m]?.delta ?? NaN, 12);
    }
    expect(rep.questions).toHaveLength(121);
    for (const q of rep.questions) {
      expect(q.jaccard).toBeGreaterThanOrEqual(0);
      expect(q.jaccard).toBeLessThanOrEqual(1);
    }
    // regressed most names captured golden questions by golden id (q001…), never by a trace-id prefix
    const regressed = r.out
      .split("regressed most")[1]!
      .split("\n")
      .slice(1)
      .filter((l) => l.startsWith("  "));
    expect(regressed.length).toBeGreaterThan(0);
    for (const l of regressed) expect(l).toMatch(/^ {2}q\d{3} /u);
    // compare of the golden run with its replay pairs by question text: the same pairs and deltas as the replay's own
    const replayRun = (JSON.parse(await readFile(out, "utf8")) as { run_id: string }).run_id;
    const byQ = JSON.parse((await cli(["compare", v1.run_id, replayRun, "--json", "--home", home])).out) as {
      metrics: Record<string, { n: number; delta: number }>;
      warnings: string[];
    };
    expect(byQ.warnings).toContain("one run is a replay: questions are paired by their text");
    for (const m of ["recall@5", "grounding", "relevance", "key_facts"]) {
      expect(byQ.metrics[m]?.n, m).toBe(rep.metrics[m]?.n);
      expect(byQ.metrics[m]?.delta, m).toBeCloseTo(rep.metrics[m]?.delta ?? NaN, 12);
    }
  });

  it("--fail-on gates a replay as it gates compare: exit 1 when a rule fails, 0 when all pass, 2 for a bad rule", async () => {
    const v1 = runs.find((r) => r.pipeline_version === "sample-v1")!;
    const args = ["replay", "--from", v1.run_id, "--target", v2.url, "--pipeline-version", "gate", "--home", home];
    // v2 loses 0.25 of recall@5 on 112 answerable questions (demo figures): a drop larger than 0.1 and real
    const failed = await cli([...args, "--fail-on", "recall@5<-0.1"]);
    expect(failed.code, failed.err).toBe(1);
    expect(failed.out).toMatch(/^ {2}FAIL recall@5: delta -0\.2\d\d < -0\.1, 95% CI \[-0\.\d+, -0\.\d+\]$/mu);
    const passed = await cli([...args, "--fail-on", "recall@5<-0.5"]);
    expect(passed.code, passed.err).toBe(0);
    expect(passed.out).toMatch(/^ {2}pass recall@5: delta -0\.2\d\d ≥ -0\.5/mu);
    const bad = await cli([...args, "--fail-on", "recal@5<-0.1"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^ragmeter: --fail-on: unknown metric "recal@5"/u);
  });

  it("selects by filter and samples deterministically; a bad --from is a usage error", async () => {
    const a = await cli([
      "replay",
      "--from",
      "pipeline=sample-v1,since=1d",
      "--sample",
      "5",
      "--target",
      v2.url,
      "--pipeline-version",
      "x",
      "--json",
      path.join(home, "a.json"),
      "--home",
      home,
    ]);
    const b = await cli([
      "replay",
      "--from",
      "pipeline=sample-v1,since=1d",
      "--sample",
      "5",
      "--target",
      v2.url,
      "--pipeline-version",
      "x",
      "--json",
      path.join(home, "b.json"),
      "--home",
      home,
    ]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    const ids = async (f: string) => (JSON.parse(await readFile(path.join(home, f), "utf8")) as { questions: { trace_id: string }[] }).questions.map((q) => q.trace_id).sort();
    expect(await ids("a.json")).toHaveLength(5);
    expect(await ids("a.json")).toEqual(await ids("b.json"));
    const bad = await cli(["replay", "--from", "since=yesterday", "--target", v2.url, "--pipeline-version", "x", "--home", home]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/since="yesterday"/u);
    const none = await cli(["replay", "--from", "service=nobody", "--target", v2.url, "--pipeline-version", "x", "--home", home]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/nothing to replay/u);
  });
});

describe("overlap measures", () => {
  it("Jaccard and rank-biased overlap by hand", () => {
    expect(jaccard(["a", "b", "c"], ["b", "c", "d"])).toBe(2 / 4);
    expect(rankBiasedOverlap(["a", "b"], ["a", "b"])).toBeCloseTo(1, 12);
    expect(rankBiasedOverlap(["a", "b"], ["c", "d"])).toBe(0);
    // k = 2, p = 0.9, S = [a, b], T = [b, a]: X1 = 0, X2 = 2 → (2/2)·0.81 + (0.1/0.9)·(0 + (2/2)·0.81) = 0.81 + 0.09 = 0.9
    expect(rankBiasedOverlap(["a", "b"], ["b", "a"])).toBeCloseTo(0.9, 12);
    // S = [a, b, c], T = [a, c, b]: X1 = 1, X2 = 1, X3 = 3 → 0.729 + (1/9)·(0.9 + 0.405 + 0.729) = 0.729 + 0.226 = 0.955
    expect(rankBiasedOverlap(["a", "b", "c"], ["a", "c", "b"])).toBeCloseTo(0.729 + (0.9 + 0.405 + 0.729) / 9, 12);
  });
});
