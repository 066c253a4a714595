#!/usr/bin/env node
// Cost of one `/api/live` call against the history in the store (`npm run bench:live`, issue 31).
// Fills a fresh embedded store with N scored live traces through the store's own write path
// (`saveResults`, batches of 5,000, as the scoring loop writes them): services `shop` (versions v1
// and v2, the same questions) and `dark` (content_missing), a score of every live metric of the
// metric table each (`live: true`, read by name),
// their `created_at` spread evenly over the last `--history-hours` (`--versions 1`: shop has v1 only,
// so no overlap to compute). Computes the minutes' aggregates (as a scorer's periodic refresh has them once
// their writes settled), waits for the engine's merges, then serves the read API in this process
// (`startReadApi`, as `serve --api-port` does) and calls `GET /api/live?window_ms=W` `--calls` times
// per window, each call after one more live trace per group was written (outside the measurement),
// as live traffic does between two reloads of the page: CPU of this whole process (the embedded
// engine's threads included) and wall time per call, p50 / p95, the first call apart, and p50 CPU
// against issue 31's 50 ms. The idle engine's own background CPU (ms per s, measured before the
// calls) is printed beside them: it falls into every measured call too.
// `--statements`: the engine statements of each call (the store client's queries, counted and timed:
// wall and this process's CPU from send to the last row read), their p50 over the calls printed per
// window.
// With `node --expose-gc`: the JS heap (and ArrayBuffers) after a full GC before the first call and after each window's
// calls (what the read API's reader keeps between calls, the window cache, is the difference).
// `--interval-ms I`: I ms between calls (a page polling the view; default 0, back to back), and
// before each call the traffic of I ms at the history's rate (at least six traces, as without it).
// Usage: node bench/live.mjs [--traces 100000] [--history-hours 24] [--versions 2] [--windows 3600000,86400000] [--calls 20] [--interval-ms 0] [--statements] [--keep (leave the store)]
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { metricTable } from "../core/dist/domain/metricTable.js";
import { storeReader } from "../scorer/dist/cli/api/reader.js";
import { startReadApi } from "../scorer/dist/cli/api/server.js";
import { openStore } from "../store/dist/client.js";
import { refreshLiveMinutes } from "../store/dist/liveMinutes.js";
import { saveResults } from "../store/dist/results.js";

const { values: args } = parseArgs({
  options: {
    traces: { type: "string", default: "100000" },
    "history-hours": { type: "string", default: "24" },
    versions: { type: "string", default: "2" },
    windows: { type: "string", default: "3600000,86400000" },
    calls: { type: "string", default: "20" },
    "interval-ms": { type: "string", default: "0" },
    statements: { type: "boolean", default: false },
    seed: { type: "string", default: "31" },
    keep: { type: "boolean", default: false },
  },
});
const N = Number(args.traces);
const HISTORY_MS = Number(args["history-hours"]) * 3_600_000;
const WINDOWS = args.windows.split(",").map(Number);
const CALLS = Number(args.calls);
/** Time between two calls (a page polling the view): the traffic of that time is written before each. */
const INTERVAL_MS = Number(args["interval-ms"]);
if (!Number.isFinite(INTERVAL_MS) || INTERVAL_MS < 0) throw new Error(`--interval-ms: ${args["interval-ms"]} is not a non-negative number`);
/** Traces written before each call: the history's rate over the interval, at least six. */
const PER_CALL = Math.max(6, Math.round((N * INTERVAL_MS) / (Number(args["history-hours"]) * 3_600_000)));
const VERSIONS = Number(args.versions);
if (VERSIONS !== 1 && VERSIONS !== 2) throw new Error(`--versions: ${args.versions} is neither 1 nor 2`);
const TARGET_MS = 50;
const BATCH = 5000;
if (!Number.isInteger(CALLS) || CALLS < 2) throw new Error(`--calls: ${args.calls} is not an integer ≥ 2`);
if (!Number.isInteger(N) || N < 1) throw new Error(`--traces: ${args.traces} is not a positive integer`);
if (!(HISTORY_MS > 0)) throw new Error(`--history-hours: ${args["history-hours"]} is not a positive number`);

/** The live metrics of the metric table, in table order. */
const LIVE = metricTable([]).filter((m) => m.live);
const rng = xoroshiro128plus(Number(args.seed));
const int = (lo, hi) => uniformInt(rng, lo, hi);
const hex = (digits) => {
  let s = "";
  for (let i = 0; i < digits; i += 8) s += int(0, 0xffffffff).toString(16).padStart(8, "0");
  return s.slice(0, digits);
};

/** Trace i: its interaction and a score of every live metric, as the scoring loop writes a live trace. */
function trace(i, createdAt) {
  const trace_id = hex(32);
  const r = int(0, 99);
  const service = r < 10 ? "dark" : "shop";
  const version = service === "dark" || r < 55 || VERSIONS === 1 ? "v1" : "v2";
  const missing = service === "dark";
  const q = int(0, 9999);
  const k = int(5, 10);
  const retrieved = Array.from({ length: missing ? 0 : k }, (_, rank) => {
    const c = (q * 7 + rank * 131 + (version === "v2" && rank >= 3 ? 17 : 0)) % 20000;
    return { id: `chunk-${c}`, document_id: `doc-${Math.floor(c / 10)}`, text: "", score: 1 - rank / 10, rank: rank + 1 };
  });
  const interaction = {
    trace_id,
    run_id: "live",
    golden_id: "",
    source: "live",
    service_name: service,
    deployment_environment: "bench",
    pipeline_version: version,
    question: missing ? "" : `question ${q}`,
    answer: missing ? null : `answer ${i}`,
    retrieved,
    generator_model: "gen-1",
    input_tokens: 900,
    output_tokens: 160,
    abstained: missing ? null : false,
    status: "ok",
    reason: "",
    latency_ms: 1200,
    judge_prompt_version: "bench",
    created_at: createdAt,
  };
  const score = (metric, value, status) => ({
    run_id: "live",
    trace_id,
    golden_id: "",
    metric,
    value,
    status,
    reason: "",
    judge_kind: "heuristic",
    judge_model: "heuristic",
    judge_prompt_version: "bench",
    repeat_index: 0,
    pipeline_version: version,
    source: "live",
    judge_input_tokens: 0,
    judge_output_tokens: 0,
    latency_ms: 0,
  });
  // Shares (largest value 1) in eighths, scales (0–max) in whole steps; one value in 50 not measured.
  const scores = LIVE.map((m) =>
    missing ? score(m.name, null, "content_missing") : score(m.name, (m.max ?? 1) === 1 ? int(0, 8) / 8 : int(0, m.max), int(0, 49) === 0 ? "judge_error" : "ok"),
  );
  return { interaction, scores: scores.map((s) => (s.status === "ok" ? s : { ...s, value: null })) };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

const home = mkdtempSync(path.join(tmpdir(), "ragmeter-bench-live-"));
const store = await openStore({ kind: "embedded", home, database: "ragmeter" }, { releaseStartupPages: true });
let api = null;
try {
  const now = Date.now();
  const t0 = performance.now();
  for (let b = 0; b < N; b += BATCH) {
    const batch = { interactions: [], scores: [], claims: [] };
    for (let i = b; i < Math.min(N, b + BATCH); i++) {
      // Oldest first, the newest a second before now.
      const t = trace(i, now - 1000 - Math.floor(((N - 1 - i) * (HISTORY_MS - 2000)) / Math.max(1, N - 1)));
      batch.interactions.push(t.interaction);
      batch.scores.push(...t.scores);
    }
    await saveResults(store, batch);
  }
  const fillS = (performance.now() - t0) / 1000;
  // The minutes' aggregates as a scorer's periodic refresh has them once their writes settled
  // (store/liveMinutes.ts: 5 s after a minute's last write; the calls' own traffic stays uncovered).
  let minutes = 0;
  for (let n = -1; n !== 0; minutes += n) n = await refreshLiveMinutes(store, Date.now() + 5_000);
  // Merges in flight or still to be assigned: done once none ran for three checks in a row.
  for (let quiet = 0; quiet < 3; ) {
    await new Promise((r) => setTimeout(r, 500));
    const rs = await store.client.query({ query: "SELECT count() AS c FROM system.merges", format: "JSONEachRow" });
    quiet = Number((await rs.json())[0].c) === 0 ? quiet + 1 : 0;
  }
  console.log(
    `live benchmark: ${N} scored live traces (live metrics ${LIVE.map((m) => m.name).join(", ")}) written through saveResults in ${fillS.toFixed(1)} s (${minutes} minutes' aggregates computed), created over the last ${args["history-hours"]} h; embedded ClickHouse, API in this process; load average ${load()}`,
  );
  const idle0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, 2000));
  const idle = process.cpuUsage(idle0);
  console.log(`idle engine: ${((idle.user + idle.system) / 2000).toFixed(1)} ms of CPU per s`);
  /** The statements of the current call when `--statements`: first words, wall ms, CPU ms. */
  let statements = null;
  if (args.statements) {
    const query = store.client.query.bind(store.client);
    store.client.query = async (params) => {
      if (statements === null) return query(params);
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const rs = await query(params);
      const rows = await rs.json();
      const d = process.cpuUsage(c0);
      const sql = params.query.replace(/\s+/g, " ").trim();
      statements.push({ sql: `${sql.slice(0, 60)} …${sql.length > 200 ? sql.slice(-40) : ""}`, wall: performance.now() - w0, cpu: (d.user + d.system) / 1000 });
      return { json: async () => rows };
    };
  }
  /** The JS heap and the ArrayBuffers' memory (typed arrays' contents live outside the heap) after a full GC, MiB (null without --expose-gc). */
  const heap = () => {
    if (typeof globalThis.gc !== "function") return null;
    globalThis.gc();
    const m = process.memoryUsage();
    return (m.heapUsed + m.arrayBuffers) / 2 ** 20;
  };
  const heap0 = heap();
  if (heap0 !== null) console.log(`JS heap + ArrayBuffers after GC before the calls: ${heap0.toFixed(1)} MiB`);
  api = await startReadApi(storeReader(store, null), { host: "127.0.0.1", port: 0 });
  let next = N;
  for (const w of WINDOWS) {
    const cpu = [];
    const wall = [];
    let seen = null;
    const byCall = [];
    for (let c = 0; c < CALLS; c++) {
      if (INTERVAL_MS > 0) await new Promise((r) => setTimeout(r, INTERVAL_MS));
      // New traffic since the last call (six traces, or the interval's at the history's rate), now.
      const batch = { interactions: [], scores: [], claims: [] };
      for (let k = 0; k < PER_CALL; k++) {
        const t = trace(next++, Date.now());
        batch.interactions.push(t.interaction);
        batch.scores.push(...t.scores);
      }
      await saveResults(store, batch);
      if (args.statements) statements = [];
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const res = await fetch(`${api.url}/api/live?window_ms=${w}`);
      const body = await res.json();
      const d = process.cpuUsage(c0);
      if (statements !== null) byCall.push(statements);
      statements = null;
      wall.push(performance.now() - w0);
      cpu.push((d.user + d.system) / 1000);
      if (res.status !== 200) throw new Error(`/api/live answered ${res.status}: ${JSON.stringify(body)}`);
      seen = body.traces_seen;
    }
    const rest = cpu.slice(1);
    const restWall = wall.slice(1);
    const heapAfter = heap();
    console.log(
      byCall.length === 0
        ? ""
        : `statements per call (p50 of calls 2–${CALLS}: ${pct(
            byCall.slice(1).map((s) => s.length),
            50,
          )}):\n${byCall[CALLS >> 1]
            .map(
              (s, k) =>
                `  ${k + 1}. wall p50 ${pct(
                  byCall.slice(1).map((c) => c[k]?.wall ?? 0),
                  50,
                ).toFixed(1)} ms, CPU p50 ${pct(
                  byCall.slice(1).map((c) => c[k]?.cpu ?? 0),
                  50,
                ).toFixed(1)} ms: ${s.sql}`,
            )
            .join("\n")}\n`,
      heapAfter === null
        ? ""
        : `JS heap + ArrayBuffers after GC after the calls: ${heapAfter.toFixed(1)} MiB (${(heapAfter - (heap0 ?? 0)).toFixed(1)} MiB more than before them)\n`,
      `window ${w} ms (${seen} traces in it): first call ${cpu[0].toFixed(1)} ms CPU / ${wall[0].toFixed(1)} ms wall; next ${rest.length}: CPU p50 ${pct(rest, 50).toFixed(1)} p95 ${pct(rest, 95).toFixed(1)} ms, wall p50 ${pct(restWall, 50).toFixed(1)} p95 ${pct(restWall, 95).toFixed(1)} ms; p50 CPU / ${TARGET_MS} ms = ${(pct(rest, 50) / TARGET_MS).toFixed(2)}; load average ${load()}`,
    );
  }
} finally {
  await api?.close();
  await store.close();
  if (args.keep) console.log(`store kept in ${home}`);
  else rmSync(home, { recursive: true, force: true });
}
