// Overhead of @ragmeter/instrumentation per wrapped call, measured against the built package.
// Run: npx tsc -p instrumentation && node bench/instrumentation.mjs [iterations]
// Spans go through the production path (SDK tracer, BatchSpanProcessor) into an exporter
// that discards them, so the figures are the in-process cost, without the network.
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createRagInstrumentation } from "../instrumentation/dist/index.js";

const iterations = Number(process.argv[2] ?? 20_000);
const warmup = Math.min(5_000, iterations);

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
let exported = 0;
const discard = {
  export(spans, done) {
    exported += spans.length;
    done({ code: 0 });
  },
  shutdown: async () => {},
};
const provider = new BasicTracerProvider({
  spanProcessors: [new BatchSpanProcessor(discard, { maxQueueSize: 65_536, maxExportBatchSize: 2_048, scheduledDelayMillis: 50 })],
});
const tracer = provider.getTracer("bench");

const chunk = (i) => ({
  id: `doc-${i}#c${i}`,
  document_id: `doc-${i}`,
  text: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(9), // ~510 chars
  score: 1 / (i + 1),
});
const ITEMS = Array.from({ length: 5 }, (_, i) => chunk(i));
const QUESTION = "How long is the refund window for orders paid by gift card?";
const RESULT = { answer: "Thirty days. ".repeat(20), model: "m-2026", usage: { input_tokens: 812, output_tokens: 64 } };
const retrieve = async () => ITEMS;
const generate = async () => RESULT;

async function measure(label, fn) {
  for (let i = 0; i < warmup; i++) await fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn();
  const us = Number(process.hrtime.bigint() - start) / 1000 / iterations;
  return { label, us };
}

const variants = {
  // API without an SDK: the package's own cost (no span is recorded)
  "no SDK registered, content on": createRagInstrumentation({ tracer: trace.getTracer("noop"), captureContent: true }),
  "content off": createRagInstrumentation({ tracer, captureContent: false }),
  "content on": createRagInstrumentation({ tracer, captureContent: true }),
  "content on + OpenInference": createRagInstrumentation({ tracer, captureContent: true, openInference: true }),
};

const rows = [];
const baseRetrieval = await measure("bare retrieval call (no span)", retrieve);
const baseGeneration = await measure("bare generation call (no span)", generate);
rows.push({ ...baseRetrieval, overhead: 0 }, { ...baseGeneration, overhead: 0 });
for (const [name, rag] of Object.entries(variants)) {
  const r = await measure(`traceRetrieval, 5 chunks, ${name}`, () => rag.traceRetrieval({ query: QUESTION, topK: 5 }, retrieve));
  rows.push({ ...r, overhead: r.us - baseRetrieval.us });
  const g = await measure(`traceGeneration, ${name}`, () => rag.traceGeneration({ model: "m", question: QUESTION }, generate));
  rows.push({ ...g, overhead: g.us - baseGeneration.us });
}
await provider.forceFlush();
await provider.shutdown();

console.log(`@ragmeter/instrumentation overhead (node ${process.version}, ${iterations} calls each, warm-up ${warmup})`);
console.log("| call | µs per call | overhead µs |");
console.log("| --- | ---: | ---: |");
for (const row of rows) console.log(`| ${row.label} | ${row.us.toFixed(2)} | ${row.overhead.toFixed(2)} |`);
console.log(`spans exported (discarded): ${exported}`);
