// The request bodies the collector benchmarks send: OTLP protobuf ExportTraceServiceRequests of
// `traces` traces × `spansPerTrace` GenAI-shaped spans each (a root, retrievals and chats), random ids.
import { randomBytes } from "node:crypto";

function span(traceId, parentSpanId, i) {
  return {
    traceId,
    spanId: randomBytes(8).toString("hex"),
    traceState: "",
    parentSpanId,
    flags: 1,
    name: i === 0 ? "rag.query" : i % 3 === 1 ? "retrieve" : "chat",
    kind: 1,
    startTimeUnixNano: 1_764_480_000_000_000_000n + BigInt(i) * 1_000_000n,
    endTimeUnixNano: 1_764_480_000_050_000_000n + BigInt(i) * 1_000_000n,
    attributes: [
      { key: "gen_ai.operation.name", value: { stringValue: i % 3 === 1 ? "retrieval" : "chat" } },
      { key: "gen_ai.request.model", value: { stringValue: "gpt-4o-mini" } },
      { key: "gen_ai.usage.input_tokens", value: { intValue: 512n } },
      { key: "gen_ai.usage.output_tokens", value: { intValue: 128n } },
      { key: "ragmeter.pipeline.version", value: { stringValue: "v42" } },
      { key: "gen_ai.retrieval.query.text", value: { stringValue: "How do I rotate the signing keys of the payments service without downtime?" } },
    ],
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: { code: 0, message: "" },
  };
}

/**
 * One protobuf request body.
 * @param codec `@ragmeter/otlp` (its `encodeTraceRequest`), loaded by the caller from `otlp/dist`.
 */
export function benchBody(codec, traces = 10, spansPerTrace = 10) {
  const spans = [];
  for (let t = 0; t < traces; t++) {
    const traceId = randomBytes(16).toString("hex");
    const rootId = randomBytes(8).toString("hex");
    for (let i = 0; i < spansPerTrace; i++) {
      const s = span(traceId, i === 0 ? "" : rootId, i);
      if (i === 0) s.spanId = rootId;
      spans.push(s);
    }
  }
  return Buffer.from(
    codec.encodeTraceRequest({
      resourceSpans: [
        {
          resource: {
            attributes: [
              { key: "service.name", value: { stringValue: "bench-rag" } },
              { key: "deployment.environment.name", value: { stringValue: "bench" } },
            ],
            droppedAttributesCount: 0,
            entityRefs: [],
          },
          schemaUrl: "",
          scopeSpans: [{ scope: { name: "ragmeter-bench", version: "1", attributes: [], droppedAttributesCount: 0 }, schemaUrl: "", spans }],
        },
      ],
    }),
  );
}
