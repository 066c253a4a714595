#!/usr/bin/env node
// Judge calls spent on a mixed stream (`npm run bench:judge-calls`): N traces through the scoring
// core (`scoreTrace`, as the streaming scorer calls it) with a counting LLM-kind judge, live traffic
// sampled at 100%. The mix: RAG traces (retrieval + generation, content captured), non-RAG traces
// (one lone HTTP span: a health check) and capped traces (the documents JSON cut by an attribute
// length limit, so it no longer parses). Prints calls made per kind of trace, and the calls a
// trace that cannot be scored (or whose verdict would be discarded) cost.
// Usage: node bench/judge-calls.mjs [--traces 1000] [--non-rag 0.3] [--capped 0.1]
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { scoreTrace } from "../core/dist/scoring/trace.js";

const { values: args } = parseArgs({
  options: { traces: { type: "string", default: "1000" }, "non-rag": { type: "string", default: "0.3" }, capped: { type: "string", default: "0.1" } },
});
const N = Number(args.traces);
const nNonRag = Math.round(N * Number(args["non-rag"]));
const nCapped = Math.round(N * Number(args.capped));
const nRag = N - nNonRag - nCapped;
const LIMIT = 256; // the SDK's attributeValueLengthLimit in the capped traces

const calls = { grounding: 0, relevance: 0, reference_facts: 0 };
const verdict = { status: "ok", input_tokens: 1, output_tokens: 1, latency_ms: 0, reason: "" };
const judge = {
  kind: "llm",
  model: "counting",
  metered: true,
  promptVersion: { grounding: "g", relevance: "r" },
  async grounding() {
    calls.grounding++;
    return { ...verdict, value: 1, claims: [{ index: 0, text: "c", verdict: "SUPPORTED", chunk_ids: [] }] };
  },
  async relevance() {
    calls.relevance++;
    return { ...verdict, value: 4 };
  },
};

const hex = (n) => randomBytes(n).toString("hex");
function span(trace, name, attributes, parent = "") {
  return {
    trace_id: trace,
    span_id: hex(8),
    parent_span_id: parent,
    name,
    kind: 1,
    start_time_unix_nano: "1764460800000000000",
    end_time_unix_nano: "1764460800001000000",
    status_code: 0,
    attributes,
    resource_attributes: { "service.name": "bench" },
    scope_name: "bench",
    events: [],
    service_name: "bench",
  };
}
const docs = Array.from({ length: 5 }, (_, i) => ({ id: `c${i}`, document_id: `doc-${i}`, content: `Chunk ${i} says the refund window is ${i + 10} days.`, score: 1 - i / 10 }));
function ragTrace(trace, cap) {
  const json = JSON.stringify(docs);
  return [
    span(trace, "retrieval kb", {
      "gen_ai.operation.name": "retrieval",
      "gen_ai.retrieval.query.text": "How long is the refund window?",
      "gen_ai.retrieval.documents": cap ? json.slice(0, LIMIT) : json,
    }),
    span(trace, "chat gen-1", {
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gen-1",
      "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "How long is the refund window?" }] }]),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "The refund window is 10 days." }] }]),
    }),
  ];
}
const nonRag = (trace) => [span(trace, "GET /health", { "http.request.method": "GET", "url.path": "/health", "http.response.status_code": 200 })];

const kinds = [
  ["rag", nRag, (t) => ragTrace(t, false)],
  ["non-rag", nNonRag, nonRag],
  ["capped", nCapped, (t) => ragTrace(t, true)],
];
const perKind = {};
for (const [kind, n, build] of kinds) {
  const before = calls.grounding + calls.relevance + calls.reference_facts;
  const statuses = {};
  for (let i = 0; i < n; i++) {
    const trace = hex(16);
    const r = await scoreTrace(trace, build(trace), [], { judge, ks: [1, 3, 5], liveSampleRate: 1, golden: null });
    const key = `grounding=${r.result.grounding.status} relevance=${r.result.relevance.status}`;
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  perKind[kind] = { traces: n, judge_calls: calls.grounding + calls.relevance + calls.reference_facts - before, stored: statuses };
}
const total = calls.grounding + calls.relevance + calls.reference_facts;
console.log(JSON.stringify({ traces: N, per_kind: perKind, judge_calls: { total, ...calls }, calls_per_trace: total / N }, null, 2));
