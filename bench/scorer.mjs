#!/usr/bin/env node
import { spawn } from "node:child_process";
// Streaming scorer throughput (`npm run bench:scorer`): a topic pre-filled with N traces (as the
// collector writes them) on the real local broker, consumed, stored, settled, scored and written into
// the embedded ClickHouse engine. `--shape prod` (the default): production-shaped traces
// (bench/lib/prod-traces.mjs: 5–10 chunks of 0.5–2 KB, answers of 300–1,000 characters, 4 spans, 10 %
// without retrieval, OpenInference and GenAI); `--shape tiny`: the traces of before (a retrieval of
// five ~90-character chunks and a chat span, bench/lib/scorer-traces.mjs).
//   1. heuristic judges: traces/s end to end (first message consumed → last trace scored);
//   2. an LLM judge behind a local OpenAI-compatible server that answers after a fixed delay:
//      judge-bound efficiency = achieved judge calls/s ÷ (concurrency ÷ delay).
// Usage: node bench/scorer.mjs [--shape prod|tiny] [--traces N (prod 20000, tiny 100000)] [--llm-traces 3000 (0: heuristic only)] [--delay-ms 200] [--judge-concurrency 64]
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createAdmin } from "@ragmeter/kafka";
import { runtimeTuning, runtimeTuningEnabled } from "@ragmeter/tuning";
import { createHeuristicJudge } from "../core/dist/judges/heuristic/heuristicJudge.js";
import { createLlmJudge } from "../core/dist/judges/llm/llmJudge.js";
import { envSchema } from "../scorer/dist/cli/config.js";
import { startKafka, stopKafka } from "../scripts/kafka/kafka.mjs";
import { openStore } from "../store/dist/client.js";
import { passBatchSize } from "../stream/dist/loop.js";
import { startScorerService } from "../stream/dist/service.js";

const { values: args } = parseArgs({
  options: {
    shape: { type: "string", default: "prod" },
    traces: { type: "string" },
    "llm-traces": { type: "string", default: "3000" },
    "delay-ms": { type: "string", default: "200" },
    "judge-concurrency": { type: "string", default: "64" },
    "fetch-bytes": { type: "string" },
  },
});
const SHAPE = args.shape;
if (SHAPE !== "prod" && SHAPE !== "tiny") throw new Error(`--shape: ${SHAPE} is neither prod nor tiny`);
const N = Number(args.traces ?? (SHAPE === "prod" ? 20_000 : 100_000));
const LLM_N = Number(args["llm-traces"]);
const DELAY = Number(args["delay-ms"]);
const JUDGE_C = Number(args["judge-concurrency"]);
const FETCH_BYTES = args["fetch-bytes"] === undefined ? undefined : Number(args["fetch-bytes"]);
const BROKER = process.env.KAFKA_BROKERS ?? "127.0.0.1:9092";
// RAGMETER_RELEASE_STARTUP_PAGES as the scorer reads it (default true; an invalid value is an error).
const RELEASE_PAGES = envSchema.shape.RAGMETER_RELEASE_STARTUP_PAGES.parse(process.env.RAGMETER_RELEASE_STARTUP_PAGES || undefined);
const connection = { brokers: BROKER.split(","), security: { protocol: "PLAINTEXT" } };
const silent = {
  info() {},
  warn() {},
  error(m, f) {
    console.error(m, f);
  },
};

/** Pre-fills the topic from a child process (bench/lib/scorer-prefill.mjs); resolves to its seconds and the spans it sent. */
function prefill(topic, n) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(path.dirname(new URL(import.meta.url).pathname), "lib", "scorer-prefill.mjs"), topic, String(n), SHAPE], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += String(d);
    });
    child.on("exit", (code) => {
      const [seconds, spans] = out.trim().split(" ").map(Number);
      return code === 0 ? resolve({ seconds, spans }) : reject(new Error(`prefill exited with ${code}`));
    });
  });
}

async function dropTopic(topic) {
  const admin = createAdmin(connection, "bench-scorer");
  const existing = new Set(await admin.listTopics());
  const mine = [topic, `${topic}.dlq`].filter((t) => existing.has(t));
  if (mine.length > 0) await admin.deleteTopics({ topics: mine });
  await admin.close();
}

/**
 * Rows of `table`: as stored (`final`, one per key) for the check after a run, or from the parts'
 * metadata (no read, so polling it costs the scorer nothing measurable).
 */
async function count(store, table, final = true) {
  const rs = await store.client.query({ query: `SELECT count() AS c FROM ${store.database}.${table}${final ? " FINAL" : ""}`, format: "JSONEachRow" });
  return Number((await rs.json())[0].c);
}

async function runOnce(label, n, judge, judgeConcurrency) {
  const topic = `ragmeter.bench.${randomUUID()}`;
  const { seconds: fillSeconds, spans: spansSent } = await prefill(topic, n);
  const home = mkdtempSync(path.join(tmpdir(), "ragmeter-bench-scorer-"));
  // As `ragmeter scorer` opens it: startup pages released unless RAGMETER_RELEASE_STARTUP_PAGES is false/0.
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" }, { releaseStartupPages: RELEASE_PAGES });
  const quietMs = 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let firstScoredAt = null;
  let lastScoredAt = null;
  const rss0 = process.memoryUsage().rss;
  let peakRss = rss0;
  let peakHeap = process.memoryUsage().heapUsed;
  // The run ends when the service reports the last trace scored (its results written), not at the
  // next poll; what it wrote is then counted in the store (FINAL), outside the timed part.
  let reported = 0;
  let allScored = () => {};
  const done = new Promise((resolve) => {
    allScored = resolve;
  });
  let cpu = null;
  let t1 = null;
  // As `ragmeter scorer` starts: the runtime tuning (RAGMETER_RUNTIME_TUNING, on unless set off) keeps
  // the heap near the live set at RAGMETER_SCORER_HEAP_GROWTH_PERCENT (unset: its default).
  const heapGrowth = process.env.RAGMETER_SCORER_HEAP_GROWTH_PERCENT;
  runtimeTuning(runtimeTuningEnabled(process.env)).limitHeapGrowth(heapGrowth ? Number(heapGrowth) : undefined);
  const svc = await startScorerService({
    store,
    stream: {
      brokers: [BROKER],
      topic,
      quietMs,
      liveSampleRate: 1,
      groupId: `bench-${randomUUID()}`,
      sessionTimeoutMs: 30_000,
      concurrency: judgeConcurrency,
      // RAGMETER_SCORER_HEAP_GROWTH_PERCENT as the scorer reads it (unset: its default).
      ...(process.env.RAGMETER_SCORER_HEAP_GROWTH_PERCENT ? { heapGrowthPercent: Number(process.env.RAGMETER_SCORER_HEAP_GROWTH_PERCENT) } : {}),
    },
    consume: true,
    log: silent,
    scoring: { judge, ks: [1, 3, 5, 10], quietMs, liveSampleRate: 1, concurrency: judgeConcurrency, batchSize: passBatchSize(judge) },
    intervalMs: 250,
    consumer: { maxWaitTimeMs: 100, ...(FETCH_BYTES !== undefined ? { maxBytesPerPartition: FETCH_BYTES } : {}) },
    onScored: (scored) => {
      firstScoredAt ??= performance.now();
      lastScoredAt = performance.now();
      reported += scored.length;
      if (reported >= n && t1 === null) {
        t1 = performance.now();
        cpu = process.cpuUsage(cpu0);
        allScored();
      }
    },
  });
  let storedAt = null;
  const sample = async () => {
    const mem = process.memoryUsage();
    peakRss = Math.max(peakRss, mem.rss);
    peakHeap = Math.max(peakHeap, mem.heapUsed);
    if (storedAt === null && (await count(store, "spans", false)) >= spansSent) storedAt = performance.now();
  };
  const sampler = setInterval(() => void sample(), 250);
  const timeout = setTimeout(allScored, 900_000);
  if (n === 0) allScored();
  await done;
  clearInterval(sampler);
  clearTimeout(timeout);
  t1 ??= performance.now();
  cpu ??= process.cpuUsage(cpu0);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  await svc.stop();
  const scored = await count(store, "interactions");
  if (scored !== n) console.error(`${label}: ${scored} of ${n} traces scored in the store`);
  // Bytes stored per trace (issue 31): the active parts of the store's tables after a final merge.
  const parts = await store.client.query({
    query: `SELECT table, sum(bytes_on_disk) AS disk, sum(data_uncompressed_bytes) AS raw FROM system.parts WHERE database = {db:String} AND active GROUP BY table ORDER BY disk DESC`,
    query_params: { db: store.database },
    format: "JSONEachRow",
  });
  const tables = (await parts.json()).map((r) => ({ table: r.table, disk: Number(r.disk), raw: Number(r.raw) }));
  const scoredEnd = lastScoredAt ?? t1;
  await store.close();
  rmSync(home, { recursive: true, force: true });
  await dropTopic(topic);
  const total = (t1 - t0) / 1000;
  const scoring = firstScoredAt === null ? total : Math.max(0.001, (scoredEnd - firstScoredAt) / 1000);
  return {
    label,
    n,
    fillSeconds,
    spansSent,
    total,
    storeSeconds: storedAt === null ? null : (storedAt - t0) / 1000,
    scoring,
    scored,
    cpuMsPerTrace: (cpu.user + cpu.system) / 1000 / Math.max(1, scored),
    tables,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakRssMiB: Math.round(peakRss / 2 ** 20),
    // The kernel's high-water mark of the whole process so far (no sampling gap).
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    startRssMiB: Math.round(rss0 / 2 ** 20),
    peakHeapMiB: Math.round(peakHeap / 2 ** 20),
    quietMs,
  };
}

/** The fake judge runs in a child process (bench/lib/judge-server.mjs), as a real endpoint would. */
async function fakeJudgeServer(delayMs) {
  const child = spawn(process.execPath, [path.join(path.dirname(new URL(import.meta.url).pathname), "lib", "judge-server.mjs"), String(delayMs)], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const url = await new Promise((resolve) => child.stdout.once("data", (d) => resolve(String(d).trim())));
  const report = () =>
    new Promise((resolve) => {
      child.once("message", resolve);
      child.send("report");
    });
  return { url, report, close: () => child.kill() };
}

// A broker this script started is stopped at the end; a running one (shared) is left as it is.
const broker = await startKafka({ log: () => {} });
console.log(
  `scorer benchmark on ${BROKER}; embedded ClickHouse; ${SHAPE === "prod" ? "production-shaped traces (bench/lib/prod-traces.mjs)" : "tiny traces (2 spans, five ~90-character chunks)"}; quiet window 1000 ms`,
);
const h = await runOnce("heuristic", N, createHeuristicJudge(), 8);
console.log(
  `heuristic: ${h.n} traces pre-filled in ${h.fillSeconds.toFixed(1)} s; all spans stored after ${h.storeSeconds?.toFixed(1)} s (${h.spansSent} spans, ${Math.round(h.spansSent / (h.storeSeconds ?? h.total))} spans/s; scorer CPU per span ${((h.cpuSeconds * 1000) / h.spansSent).toFixed(3)} ms)`,
);
console.log(
  `heuristic: ${h.scored} traces stored, settled, scored and written in ${h.total.toFixed(1)} s → ${Math.round(h.scored / h.total)} traces/s end to end (scoring phase ${Math.round(h.scored / h.scoring)} traces/s); scorer process CPU ${h.cpuSeconds.toFixed(1)} s = ${h.cpuMsPerTrace.toFixed(3)} ms per trace (→ ${Math.round(1000 / h.cpuMsPerTrace)} traces/s per busy core); peak RSS ${h.peakRssMiB} MiB sampled every 250 ms, ${h.maxRssMiB} MiB the kernel's high-water mark (${h.startRssMiB} MiB at the start, engine open${RELEASE_PAGES ? ", startup pages released" : ""}; peak V8 heap used ${h.peakHeapMiB} MiB)`,
);

{
  const sum = (k) => h.tables.reduce((a, t) => a + t[k], 0);
  const per = (b) => Math.round(b / Math.max(1, h.scored));
  console.log(
    `heuristic: stored ${per(sum("disk"))} bytes on disk and ${per(sum("raw"))} bytes uncompressed per trace (system.parts, active parts of the store's tables; ${h.tables
      .slice(0, 5)
      .map((t) => `${t.table} ${per(t.disk)}/${per(t.raw)}`)
      .join(", ")})`,
  );
}

if (LLM_N === 0) {
  if (broker.status === "started") await stopKafka({ log: () => {} });
  process.exit(0);
}
const fake = await fakeJudgeServer(DELAY);
const judge = createLlmJudge({ baseURL: fake.url, model: "bench-judge", concurrency: JUDGE_C, timeoutMs: 30_000 });
const l = await runOnce("llm", LLM_N, judge, JUDGE_C);
const { calls, seconds: judging } = await fake.report();
fake.close();
const ideal = JUDGE_C / (DELAY / 1000);
const achieved = calls / judging;
console.log(
  `llm judge (${DELAY} ms per call, concurrency ${JUDGE_C}): ${l.scored} traces, ${calls} judge calls from the first call to the last answer in ${judging.toFixed(1)} s → ${Math.round(achieved)} calls/s of an ideal ${Math.round(ideal)} (concurrency ÷ delay) → judge-bound efficiency ${(achieved / ideal).toFixed(2)}; ${Math.round(l.scored / l.total)} traces/s end to end`,
);
if (broker.status === "started") await stopKafka({ log: () => {} });
process.exit(0);
