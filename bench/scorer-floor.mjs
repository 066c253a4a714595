#!/usr/bin/env node
// The streaming scorer's work per trace, stage by stage, without Kafka (`npm run bench:scorer-floor`):
// what each stage costs when it runs alone, so the sum is a floor under what `bench:scorer` can reach
// on this box. The same traces as bench:scorer: production-shaped (`--shape prod`, the default:
// bench/lib/prod-traces.mjs) or the tiny ones of before (`--shape tiny`: bench/lib/scorer-traces.mjs).
//   JS stages, on the main thread, each over a chunk of 5,000 traces at a time (the scorer's pass
//   size), measured on the second of two passes (the first warms the JIT): decode (OTLP protobuf →
//   spans, as the consumer does), extract (spans → interaction), score (heuristic judges), rows
//   (the result rows).
//   store: the spans and rows those stages built, inserted into a fresh embedded store as the
//   scorer inserts them (spans a fetch at a time on the second connection, results a pass at a time
//   on the first, both at once), then until the engine's merges are done: the CPU of all threads.
// Prints µs of CPU per trace per stage, their sum, and the traces/s it allows on the box's cores
// against issue 15's 10,000 traces/s (on 2 cores: 200 µs per trace for broker, engine and scorer).
// With `--shape prod` it also prints the share of claims the heuristic grounding judge did not find
// SUPPORTED beside the share of answer sentences the generator invented.
// Usage: node bench/scorer-floor.mjs [--shape prod|tiny] [--traces N (prod 10000, tiny 30000)]
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { extractInteraction } from "../core/dist/extract/interaction.js";
import { createHeuristicJudge } from "../core/dist/judges/heuristic/heuristicJudge.js";
import { judgePromptVersion } from "../core/dist/judges/promptVersion.js";
import { scoreTrace, traceRows } from "../core/dist/scoring/trace.js";
import { recordHeaders } from "../otlp/dist/index.js";
import { openStore } from "../store/dist/client.js";
import { saveResults } from "../store/dist/results.js";
import { saveSpans } from "../store/dist/spans.js";
import { decodeMessage } from "../stream/dist/ingest.js";
import { passBatchSize } from "../stream/dist/loop.js";
import { threadCpuSeconds } from "./lib/proc.mjs";
import { createProdCorpus, prodTraceBytes } from "./lib/prod-traces.mjs";
import { traceBytes } from "./lib/scorer-traces.mjs";

const { values: args } = parseArgs({ options: { traces: { type: "string" }, shape: { type: "string", default: "prod" } } });
const SHAPE = args.shape;
if (SHAPE !== "prod" && SHAPE !== "tiny") throw new Error(`--shape: ${SHAPE} is neither prod nor tiny`);
const N = Number(args.traces ?? (SHAPE === "prod" ? 10_000 : 30_000));
if (!Number.isInteger(N) || N < 5000) throw new Error(`--traces: ${args.traces} is not an integer ≥ 5000`);
const KS = [1, 3, 5, 10];
const judge = createHeuristicJudge();
const PASS = passBatchSize(judge);
const promptVersion = judgePromptVersion(judge);
const headers = recordHeaders("traces");
const corpus = SHAPE === "prod" ? createProdCorpus() : null;
// What the generator invented: answer sentences of RAG traces, and how many are in no chunk.
const made = { sentences: 0, invented: 0 };
const values = Array.from({ length: N }, (_, i) => {
  if (!corpus) return traceBytes(i).value;
  const b = prodTraceBytes(corpus, i);
  if (b.trace.rag) {
    made.sentences += b.trace.sentences.length;
    made.invented += b.trace.invented;
  }
  return b.value;
});
// A fetch of the consumer is its default 1 MiB per partition: as many of these messages as fit.
const FETCH = Math.floor(1_048_576 / values[0].length);

const cpuMicros = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

/** One pass of the JS stages over every trace; returns µs of CPU per stage and what they built. */
async function jsPass() {
  const micros = { decode: 0, extract: 0, score: 0, rows: 0 };
  const spans = [];
  const results = [];
  for (let b = 0; b < N; b += PASS) {
    let t = cpuMicros();
    const lap = (stage) => {
      const now = cpuMicros();
      micros[stage] += now - t;
      t = now;
    };
    const decoded = values.slice(b, b + PASS).map((v) => decodeMessage(headers, v));
    lap("decode");
    const extracted = decoded.map((d) => extractInteraction(d.spans[0].trace_id, d.spans, d.logs));
    lap("extract");
    const scored = [];
    for (let i = 0; i < decoded.length; i++) {
      const d = decoded[i];
      scored.push(await scoreTrace(d.spans[0].trace_id, d.spans, d.logs, { judge, ks: KS, liveSampleRate: 1, golden: null }, extracted[i]));
    }
    lap("score");
    const batch = { interactions: [], scores: [], claims: [] };
    for (const s of scored) {
      const r = traceRows(s, judge, KS, promptVersion);
      batch.interactions.push(r.interaction);
      batch.scores.push(...r.scores);
      batch.claims.push(...r.claims);
    }
    lap("rows");
    spans.push(...decoded.flatMap((d) => d.spans));
    results.push(batch);
  }
  return { micros, spans, results };
}

/** Inserts what the JS stages built as the scorer does, waits for the merges; µs of CPU and per thread. */
async function storePass(spans, results) {
  const home = mkdtempSync(path.join(tmpdir(), "ragmeter-bench-floor-"));
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" }, { releaseStartupPages: true });
  try {
    const second = await store.secondClient();
    const spanStore = { ...store, client: second };
    const threads0 = threadCpuSeconds();
    const t0 = cpuMicros();
    const perFetch = 2 * FETCH;
    const writeSpans = async () => {
      for (let i = 0; i < spans.length; i += perFetch) await saveSpans(spanStore, spans.slice(i, i + perFetch), { partition: 0, offset: String(i) }, Date.now());
    };
    const writeResults = async () => {
      for (const batch of results) await saveResults(store, batch);
    };
    await Promise.all([writeSpans(), writeResults()]);
    // Merges in flight or still to be assigned: done once none ran for three checks in a row.
    for (let quiet = 0; quiet < 3; ) {
      await new Promise((r) => setTimeout(r, 500));
      const rs = await store.client.query({ query: "SELECT count() AS c FROM system.merges", format: "JSONEachRow" });
      quiet = Number((await rs.json())[0].c) === 0 ? quiet + 1 : 0;
    }
    const micros = cpuMicros() - t0;
    const threads1 = threadCpuSeconds();
    const byThread = Object.fromEntries(Object.entries(threads1).map(([k, v]) => [k, v - (threads0[k] ?? 0)]));
    return { micros, byThread };
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await jsPass();
const js = await jsPass();
const st = await storePass(js.spans, js.results);
const per = (micros) => micros / N;
const rows = [
  ["decode (OTLP protobuf → spans)", per(js.micros.decode)],
  ["extract (spans → interaction)", per(js.micros.extract)],
  ["score (heuristic judges)", per(js.micros.score)],
  ["rows (result rows)", per(js.micros.rows)],
  [`store (spans ${FETCH} traces per insert, results ${PASS}; merges done; all threads)`, per(st.micros)],
];
const sum = rows.reduce((s, [, v]) => s + v, 0);
const cores = availableParallelism();
const bytes = values.reduce((a, v) => a + v.length, 0) / N;
console.log(
  `scorer floor: ${N} ${SHAPE === "prod" ? "production-shaped" : "tiny"} traces (bench:scorer's, ${Math.round(bytes)} bytes of OTLP protobuf each), stages alone, no Kafka; µs of CPU per trace`,
);
for (const [name, v] of rows) console.log(`  ${name.padEnd(82)} ${v.toFixed(1).padStart(7)}`);
const threads = Object.entries(st.byThread)
  .filter(([, v]) => v >= 0.01)
  .sort((a, b) => b[1] - a[1])
  .map(([k, v]) => `${k} ${((v * 1e6) / N).toFixed(0)}`)
  .join(", ");
console.log(`  store by thread: ${threads}`);
console.log(
  `  sum ${sum.toFixed(1)} µs → at most ${Math.round((cores * 1e6) / sum)} traces/s on ${cores} cores with nothing else running (no Kafka, no broker); issue 15's 10,000 traces/s allows ${((cores * 1e6) / 10_000).toFixed(0)} µs per trace for broker, engine and scorer together (ratio ${((cores * 1e6) / 10_000 / sum).toFixed(2)})`,
);
if (corpus) {
  const verdicts = new Map();
  for (const b of js.results) for (const c of b.claims) verdicts.set(c.verdict, (verdicts.get(c.verdict) ?? 0) + 1);
  const claims = [...verdicts.values()].reduce((a, b) => a + b, 0);
  const notSupported = claims - (verdicts.get("SUPPORTED") ?? 0);
  console.log(
    `  grounding (heuristic judge): ${claims} claims, ${((100 * notSupported) / Math.max(1, claims)).toFixed(1)} % not SUPPORTED (${[...verdicts].map(([k, v]) => `${k} ${v}`).join(", ")}); the generator invented ${((100 * made.invented) / Math.max(1, made.sentences)).toFixed(1)} % of the RAG answers' ${made.sentences} sentences`,
  );
}
