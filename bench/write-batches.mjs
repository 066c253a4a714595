#!/usr/bin/env node
// What a span write costs by its size (issue 38, the scorer's write batches): production-shaped traces
// (bench/lib/prod-traces.mjs, as bench:phoenix sends them) decoded once, then written to a fresh
// embedded store as the scorer writes them (writeRecords: the forgotten-traces lookup, then one
// insert per table) in batches of B traces, for each B of --batches; until the engine's merges are
// done. Per batch size it prints the statements, the OTLP bytes per batch (what the scorer's byte
// limit counts), µs of CPU per trace (all threads of this process) and wall ms per batch.
// Usage: node bench/write-batches.mjs [--traces 4000] [--batches 1,4,16,64,256,1024]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { recordHeaders } from "../otlp/dist/index.js";
import { openStore } from "../store/dist/client.js";
import { decodeMessage, writeRecords } from "../stream/dist/ingest.js";
import { createProdCorpus, prodTraceBytes } from "./lib/prod-traces.mjs";

const { values: args } = parseArgs({ options: { traces: { type: "string", default: "4000" }, batches: { type: "string", default: "1,4,16,64,256,1024" } } });
const N = Number(args.traces);
const sizes = args.batches.split(",").map(Number);
if (!Number.isInteger(N) || N < 1) throw new Error(`--traces: ${args.traces} is not a positive integer`);
if (!sizes.every((b) => Number.isInteger(b) && b >= 1)) throw new Error(`--batches: ${args.batches} is not a list of positive integers`);
const corpus = createProdCorpus({ openInferenceShare: 1, nonRagShare: 0 });
const headers = recordHeaders("traces");
const values = Array.from({ length: N }, (_, i) => prodTraceBytes(corpus, i).value);
const decoded = values.map((v) => decodeMessage(headers, v));
const cpuMicros = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

async function run(b) {
  const home = mkdtempSync(path.join(tmpdir(), "ragmeter-bench-write-"));
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  try {
    const t0 = cpuMicros();
    const w0 = performance.now();
    let batches = 0;
    let bytes = 0;
    for (let i = 0; i < N; i += b) {
      await writeRecords(store, decoded.slice(i, i + b), { partition: 0, offset: String(i) }, Date.now());
      for (const v of values.slice(i, i + b)) bytes += v.length;
      batches++;
    }
    const wall = performance.now() - w0;
    for (let quiet = 0; quiet < 3; ) {
      await new Promise((r) => setTimeout(r, 300));
      const rs = await store.client.query({ query: "SELECT count() AS c FROM system.merges", format: "JSONEachRow" });
      quiet = Number((await rs.json())[0].c) === 0 ? quiet + 1 : 0;
    }
    const micros = cpuMicros() - t0;
    return {
      b,
      batches,
      kib_per_batch: Math.round(bytes / batches / 1024),
      cpu_us_per_trace: Math.round(micros / N),
      wall_ms_per_batch: +(wall / batches).toFixed(1),
      traces_s_writing: Math.round((N * 1000) / wall),
    };
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

process.stderr.write(`write-batches: ${N} traces, ${Math.round(values.reduce((a, v) => a + v.length, 0) / N)} bytes of OTLP each, load ${load()}\n`);
for (const b of sizes) console.log(JSON.stringify(await run(b)));
process.stderr.write(`load ${load()}\n`);
