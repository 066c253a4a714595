#!/usr/bin/env node
// The heuristic judge's CPU per trace with and without its chunk cache (issue 31;
// `npm run bench:judge-chunks`). The same production-shaped traces (bench/lib/prod-traces.mjs, seed
// 31: 5–10 chunks of 500–2,000 characters per trace from a 20,000-chunk corpus with Zipf reuse, a
// tenth without retrieval) are judged, grounding then relevance as the scorer does, four ways:
//   fresh judge per trace  no cache across traces at all (chunks, stems, questions and answers)
//   chunk cache off        one judge whose chunk cache keeps nothing (stems and the rest kept)
//   chunk cache, cold      a new judge with the default chunk cache, over the traces once
//   chunk cache, warm      that judge over the same traces again (a long-running scorer's state)
// in rounds, the ways alternating, after a warm-up pass (the JIT). CPU is the process's user + system
// time (GC threads included) per trace; the median of the rounds is printed with each round's
// figures, the ratios against "fresh" and "off", the load average before and after (`uptime`: another
// process on the box moves the figures), and what the cache holds after one pass over the traces,
// entries, segments and their heap (with --expose-gc, as the npm script runs it).
// Usage: node --expose-gc bench/judge-chunks.mjs [--traces 2000] [--rounds 3] [--segments N (the
// cache's bound in segments instead of the judge's)] (needs `npx tsc -b` first)
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createHeuristicJudge } from "../core/dist/judges/heuristic/heuristicJudge.js";
import { CHUNK_CACHE, Tokens } from "../core/dist/judges/heuristic/tokens.js";
import { judgeGrounding, judgeRelevance } from "../core/dist/judges/types.js";
import { chunkText, createProdCorpus, PROD_DEFAULTS, prodTrace } from "./lib/prod-traces.mjs";

const { values: args } = parseArgs({
  options: { traces: { type: "string", default: "2000" }, rounds: { type: "string", default: "3" }, segments: { type: "string" } },
});
const N = Number(args.traces);
const ROUNDS = Number(args.rounds);
if (!Number.isInteger(N) || N <= 0) throw new Error(`--traces: ${args.traces} is not a positive integer`);
if (!Number.isInteger(ROUNDS) || ROUNDS <= 0) throw new Error(`--rounds: ${args.rounds} is not a positive integer`);
/** The chunk cache's bound: the judge's, or `--segments` in its place (to weigh memory against CPU). */
const BOUND = args.segments === undefined ? CHUNK_CACHE : { entries: CHUNK_CACHE.entries, segments: Number(args.segments) };
if (!Number.isInteger(BOUND.segments) || BOUND.segments < 0) throw new Error(`--segments: ${args.segments} is not a non-negative integer`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
const loadBefore = load();

const corpus = createProdCorpus();
const inputs = Array.from({ length: N }, (_, i) => {
  const t = prodTrace(corpus, i);
  const chunks = t.retrieved.map((c) => ({ id: corpus.chunks[c].id, text: chunkText(corpus.chunks[c]) }));
  return { question: t.question, answer: t.answer, chunks: t.rag ? chunks : [] };
});
const retrieved = inputs.reduce((a, x) => a + x.chunks.length, 0);
const distinct = new Set(inputs.flatMap((x) => x.chunks.map((c) => c.text))).size;

/** CPU ms per trace of judging every trace, each with the judge `judgeFor(i)` gives. */
async function pass(judgeFor) {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < inputs.length; i++) {
    const judge = judgeFor(i);
    const x = inputs[i];
    await judgeGrounding(judge, x);
    await judgeRelevance(judge, { question: x.question, answer: x.answer, answerable: true });
  }
  const c = process.cpuUsage(cpu0);
  return (c.user + c.system) / 1000 / inputs.length;
}

const OFF = { entries: 0, segments: 0 };
const ways = {
  fresh: () => pass(() => createHeuristicJudge()),
  off: () => {
    const judge = createHeuristicJudge(undefined, OFF);
    return pass(() => judge);
  },
  cold: async () => {
    const judge = createHeuristicJudge(undefined, BOUND);
    const cold = await pass(() => judge);
    return { cold, warm: await pass(() => judge) };
  },
};
await pass(() => createHeuristicJudge()); // warm-up
const figures = { fresh: [], off: [], cold: [], warm: [] };
for (let r = 0; r < ROUNDS; r++) {
  figures.fresh.push(await ways.fresh());
  figures.off.push(await ways.off());
  const on = await ways.cold();
  figures.cold.push(on.cold);
  figures.warm.push(on.warm);
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const m = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, median(v)]));

// The cache's contents after one pass, and the heap they hold (a Tokens of the judge's bound, filled
// with the traces' chunks, against one that keeps none).
const tokens = new Tokens(BOUND);
let heap = null;
if (typeof globalThis.gc === "function") {
  globalThis.gc();
  const h0 = process.memoryUsage().heapUsed;
  for (const x of inputs) for (const c of x.chunks) tokens.chunk(c.text);
  globalThis.gc();
  heap = process.memoryUsage().heapUsed - h0;
} else for (const x of inputs) for (const c of x.chunks) tokens.chunk(c.text);
const held = tokens.chunkCache();

const ms = (x) => `${x.toFixed(3)} ms`;
const rounds = (k) => figures[k].map((x) => x.toFixed(3)).join(", ");
console.log(`heuristic judge (grounding + relevance), ${N} production-shaped traces (seed ${PROD_DEFAULTS.seed}): ${retrieved} retrieved chunks, ${distinct} distinct`);
console.log(`load average before ${loadBefore}`);
console.log(`CPU per trace, median of ${ROUNDS} rounds (the rounds):`);
console.log(`  fresh judge per trace   ${ms(m.fresh)}  (${rounds("fresh")})`);
console.log(`  chunk cache off         ${ms(m.off)}  (${rounds("off")})`);
console.log(`  chunk cache, cold       ${ms(m.cold)}  (${rounds("cold")})`);
console.log(`  chunk cache, warm       ${ms(m.warm)}  (${rounds("warm")})`);
console.log(
  `ratios: fresh/cold ${(m.fresh / m.cold).toFixed(2)}, fresh/warm ${(m.fresh / m.warm).toFixed(2)}, off/cold ${(m.off / m.cold).toFixed(2)}, off/warm ${(m.off / m.warm).toFixed(2)}`,
);
const perChunk =
  heap === null ? "" : `, ${(heap / 2 ** 20).toFixed(1)} MiB of heap (${(heap / held.entries / 1024).toFixed(1)} KiB a chunk, ${(heap / held.segments).toFixed(0)} B a segment)`;
console.log(`chunk cache after one pass: ${held.entries} chunks, ${held.segments} segments (bound ${BOUND.entries} chunks, ${BOUND.segments} segments)${perChunk}`);
console.log(`load average after ${load()}`);
