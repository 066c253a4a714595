import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { judgeGrounding, judgeRelevance } from "../../core/src/judges/types.js";
import type { LiveSummary } from "../../scorer/src/runs/live.js";
import { openStore } from "../../store/src/client.js";
import { saveRun } from "../../store/src/runs.js";
import { startSampleServeChild } from "../helpers/sampleServe.js";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "scorer/bin/ragmeter.js");
const TOKEN = "live-test-token";

/** `ragmeter ARGS` as a separate process (not the one running serve). */
function ragmeter(args: string[], env: Record<string, string> = {}): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env: { PATH: process.env["PATH"] ?? "", ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const ask = async (url: string, question: string) => {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question }) });
  return (await r.json()) as { answer: string; contexts: { id: string; document_id: string; text: string }[] };
};

const jaccard = (a: string[], b: string[]): number => {
  const A = new Set(a);
  const B = new Set(b);
  const inter = [...A].filter((x) => B.has(x)).length;
  return inter / new Set([...A, ...B]).size;
};

let home: string;
let serve: ChildProcess;
let serveLog = "";
let otlp = "";
const questions = ["What port does managed PostgreSQL listen on?", "How do I enable automatic top-up?"];
const replies: Record<string, Awaited<ReturnType<typeof ask>>[]> = { v1: [], v2: [] };
let deadPid = 0;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-live-"));
  // A run left `running` by a process that died: create it, then leave a lock file of a dead PID.
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  await saveRun(store, {
    run_id: "r-stale",
    started_at: "2026-12-01T10:00:00.000Z",
    finished_at: null,
    status: "running",
    source: "golden",
    pipeline_version: "v0",
    golden_set_hash: "h",
    golden_set_path: "g.jsonl",
    judge_kind: "heuristic",
    judge_model: "heuristic",
    judge_prompt_version: "p",
    ks: [5],
    target: "http://x",
    summary: "{}",
  });
  await store.close();
  deadPid = Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout);
  await writeFile(path.join(home, "store.lock"), String(deadPid));

  serve = spawn(process.execPath, [bin, "serve", "--port", "0", "--host", "127.0.0.1", "--quiet-ms", "300", "--home", home], {
    env: { PATH: process.env["PATH"] ?? "", RAGMETER_COLLECTOR_TOKEN: TOKEN },
    stdio: ["ignore", "ignore", "pipe"],
  });
  otlp = await new Promise<string>((resolve, reject) => {
    serve.stderr?.on("data", (d: Buffer) => {
      serveLog += d.toString();
      const m = /"otlp":"(http:\/\/[^"]+)"/u.exec(serveLog);
      if (m) resolve(m[1] as string);
    });
    serve.on("exit", (c) => reject(new Error(`serve exited with ${c}: ${serveLog}`)));
  });
  const headers = `Authorization=Bearer ${TOKEN}`;
  const v1 = await startSampleServeChild({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_EXPORTER_OTLP_HEADERS: headers, OTEL_SERVICE_NAME: "shop", OTEL_LOG_LEVEL: "none" });
  const v2 = await startSampleServeChild({
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
    OTEL_EXPORTER_OTLP_HEADERS: headers,
    OTEL_SERVICE_NAME: "shop",
    RAGMETER_SAMPLE_VERSION: "v2",
    OTEL_LOG_LEVEL: "none",
  });
  const dark = await startSampleServeChild({
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
    OTEL_EXPORTER_OTLP_HEADERS: headers,
    OTEL_SERVICE_NAME: "dark",
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "false",
    OTEL_LOG_LEVEL: "none",
  });
  for (const q of questions) {
    replies["v1"]!.push(await ask(v1.url, q));
    replies["v2"]!.push(await ask(v2.url, q));
  }
  for (let i = 0; i < 5; i++) await ask(dark.url, `${questions[i % 2]} (${i})`);
  await Promise.all([v1.stop(), v2.stop(), dark.stop()]); // flushes the batch span processors
}, 120_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) {
    const exited = new Promise((r) => serve.once("exit", r));
    serve.kill("SIGTERM");
    await exited;
  }
});

/** `ragmeter live --json` from another process, until all 9 traces are scored (waits for an event, asserts nothing on time). */
async function liveWhenSettled(args: string[] = []): Promise<LiveSummary> {
  for (;;) {
    const r = ragmeter(["live", "--json", "--home", home, ...args], { RAGMETER_COLLECTOR_TOKEN: TOKEN });
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out) as LiveSummary;
    if (s.traces_seen >= 9) return s;
    await new Promise((res) => setTimeout(res, 300));
  }
}

describe("ragmeter live and runs from another process while serve owns the embedded store", () => {
  it("live: per service and version, means equal to the heuristic judge on the replies, overlap = Jaccard of the replies' documents", async () => {
    const s = await liveWhenSettled();
    expect(s.groups.map((g) => [g.service, g.pipeline_version, g.traces_seen])).toEqual([
      ["dark", "sample-v1", 5],
      ["shop", "sample-v1", 2],
      ["shop", "sample-v2", 2],
    ]);
    const judge = createHeuristicJudge();
    for (const v of ["v1", "v2"] as const) {
      const g = s.groups.find((x) => x.service === "shop" && x.pipeline_version === `sample-${v}`)!;
      const grounding: number[] = [];
      const relevance: number[] = [];
      for (const [i, q] of questions.entries()) {
        const r = replies[v]![i]!;
        const gr = await judgeGrounding(judge, { question: q, answer: r.answer, chunks: r.contexts });
        const rl = await judgeRelevance(judge, { question: q, answer: r.answer, answerable: null });
        if (gr.status === "ok") grounding.push(gr.value as number);
        if (rl.status === "ok") relevance.push(rl.value as number);
      }
      expect(g.metrics["grounding"]?.n).toBe(grounding.length);
      expect(g.metrics["grounding"]?.mean).toBeCloseTo(grounding.reduce((a, b) => a + b, 0) / grounding.length, 12);
      expect(g.metrics["relevance"]?.mean).toBeCloseTo(relevance.reduce((a, b) => a + b, 0) / relevance.length, 12);
      expect(g.traces_scored).toBe(2);
      expect(g.judge.calls).toBe(0); // heuristic judges spend no tokens
    }
    const expected = questions.map((_, i) =>
      jaccard(
        replies["v1"]![i]!.contexts.map((c) => c.document_id),
        replies["v2"]![i]!.contexts.map((c) => c.document_id),
      ),
    );
    expect(s.overlap).toEqual([{ service: "shop", version_a: "sample-v1", version_b: "sample-v2", questions: 2, mean_jaccard: (expected[0]! + expected[1]!) / 2 }]);
    expect(s.groups[0]!.statuses).toEqual({ content_missing: 5 });
    // 5 of 9 content_missing: the warning names the variable, in live and in serve's progress log.
    expect(s.content_missing).toBe(5);
    expect(s.warnings[0]).toContain("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT");
    for (;;) {
      if (/live traces are content_missing \(dark\)/u.test(serveLog)) break;
      await new Promise((res) => setTimeout(res, 300));
    }
    expect(serveLog).toMatch(/"level":"?(40|warn)"?[^\n]*OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/u);
  }, 120_000);

  it("live --service and --pipeline-version filter; text output names the groups", async () => {
    const r = ragmeter(["live", "--service", "shop", "--pipeline-version", "sample-v2", "--home", home], { RAGMETER_COLLECTOR_TOKEN: TOKEN });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("shop · pipeline sample-v2");
    expect(r.out).not.toContain("dark");
    expect(r.out).toMatch(/traces +2 seen, 2 scored/u);
  });

  it("runs: the stale run is aborted with its dead PID as the reason, read over the API", () => {
    const r = ragmeter(["runs", "--json", "--home", home], { RAGMETER_COLLECTOR_TOKEN: TOKEN });
    expect(r.code, r.err).toBe(0);
    const runs = JSON.parse(r.out) as { run_id: string; status: string; aborted_reason?: string }[];
    expect(runs.map((x) => [x.run_id, x.status])).toEqual([["r-stale", "aborted"]]);
    expect(runs[0]!.aborted_reason).toContain(`PID ${deadPid}`);
    expect(serveLog).toContain('"run_id":"r-stale"');
  });

  it("report and compare from another process go through the API too", async () => {
    const out = path.join(home, "report.html");
    const r = ragmeter(["report", "--out", out, "--home", home], { RAGMETER_COLLECTOR_TOKEN: TOKEN });
    expect(r.code, r.err).toBe(0);
    const html = await readFile(out, "utf8");
    expect(html).toContain('id="live-section"');
    expect(html).toContain('data-service="dark" data-version="sample-v1"');
    expect(html).not.toContain('http-equiv="refresh"'); // the file does not reload itself; the served page does
    const c = ragmeter(["compare", "r-stale", "r-nope", "--home", home], { RAGMETER_COLLECTOR_TOKEN: TOKEN });
    expect(c.code).toBe(2);
    expect(c.err).toContain("unknown run id: r-nope");
  });

  it("the API wants the collector's token; / serves the report with its live section, reloading itself", async () => {
    const r = ragmeter(["runs", "--home", home]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^ragmeter: \/api\/runs on the store's owner API \(http:\/\/127\.0\.0\.1:\d+\) answered 401/u);
    const page = await fetch(`${otlp}/`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<meta http-equiv="refresh"');
    expect(html).toContain('id="live-section"');
    expect(html).toContain('data-service="shop" data-version="sample-v2"');
    const auth = { headers: { authorization: `Bearer ${TOKEN}` } };
    const q = await fetch(`${otlp}/api/runs/r-stale/questions`, auth);
    expect([q.status, await q.json()]).toEqual([200, {}]); // the aborted run scored no question
    const unknown = await fetch(`${otlp}/api/runs/r-nope/questions`, auth);
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: "unknown run id: r-nope" }]);
    const bad = await fetch(`${otlp}/api/live?window_ms=-5`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/^query parameter window_ms: /u);
  });
});
