// The traces of the scorer benchmarks (bench/scorer.mjs pre-fills a topic with them; bench/scorer-floor.mjs
// runs them through the scorer's stages without Kafka).
import { randomBytes } from "node:crypto";
import { encodeTraceRequest } from "../../otlp/dist/index.js";

const kv = (key, v) => ({ key, value: typeof v === "number" ? { intValue: BigInt(v) } : { stringValue: v } });
/**
 * Trace i of the benchmarks: a retrieval span (five chunks, each of its own document) and a chat span with its
 * answer, as one OTLP protobuf request keyed by its trace id, as the collector writes it.
 */
export function traceBytes(i) {
  const traceId = randomBytes(16).toString("hex");
  const span = (name, attributes, start) => ({
    traceId,
    spanId: randomBytes(8).toString("hex"),
    traceState: "",
    parentSpanId: "",
    flags: 1,
    name,
    kind: 1,
    startTimeUnixNano: start,
    endTimeUnixNano: start + 1_000_000n,
    attributes,
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: { code: 0, message: "" },
  });
  const docs = Array.from({ length: 5 }, (_, d) => ({
    id: `doc-${(i + d) % 500}.md#${d + 1}`,
    document_id: `doc-${(i + d) % 500}.md`,
    score: 5 - d,
    content: `Plan ${i % 7} includes ${d + 2} vCPUs and ${(d + 1) * 4} GB of memory; backups are kept for ${7 + d} days.`,
  }));
  const q = `How many vCPUs does plan ${i % 7} include?`;
  const spans = [
    span(
      "retrieval kb",
      [kv("gen_ai.operation.name", "retrieval"), kv("gen_ai.retrieval.query.text", q), kv("gen_ai.retrieval.documents", JSON.stringify(docs))],
      1_764_460_800_000_000_000n,
    ),
    span(
      "chat gen",
      [
        kv("gen_ai.operation.name", "chat"),
        kv("gen_ai.request.model", "gen-1"),
        kv("gen_ai.usage.input_tokens", 420),
        kv("gen_ai.usage.output_tokens", 24),
        kv("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: `Plan ${i % 7} includes 2 vCPUs and 4 GB of memory.` }] }])),
      ],
      1_764_460_800_010_000_000n,
    ),
  ];
  const req = {
    resourceSpans: [
      {
        resource: { attributes: [kv("service.name", "bench")], droppedAttributesCount: 0, entityRefs: [] },
        scopeSpans: [{ scope: { name: "bench", version: "1", attributes: [], droppedAttributesCount: 0 }, spans, schemaUrl: "" }],
        schemaUrl: "",
      },
    ],
  };
  return { key: traceId, value: Buffer.from(encodeTraceRequest(req, "protobuf")) };
}
