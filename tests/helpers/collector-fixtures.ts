// Shared fixtures for the collector tests (unit and integration).
import { randomBytes } from "node:crypto";
import type { KeyValue, Span, TraceRequest } from "../../otlp/src/model.js";

export const hex = (bytes: number): string => randomBytes(bytes).toString("hex");

/** A span with every field set, ids random unless given. */
export function makeSpan(traceId: string, over: Partial<Span> = {}): Span {
  return {
    traceId,
    spanId: hex(8),
    traceState: "vendor=x",
    parentSpanId: hex(8),
    flags: 1,
    name: "retrieve",
    kind: 3,
    startTimeUnixNano: 1_764_480_000_123_456_789n,
    endTimeUnixNano: 1_764_480_000_223_456_789n,
    attributes: richAttributes(),
    droppedAttributesCount: 0,
    events: [{ timeUnixNano: 1_764_480_000_200_000_000n, name: "gen_ai.content", attributes: [{ key: "k", value: { stringValue: "v" } }], droppedAttributesCount: 0 }],
    droppedEventsCount: 0,
    links: [{ traceId: hex(16), spanId: hex(8), traceState: "", attributes: [], droppedAttributesCount: 0, flags: 0 }],
    droppedLinksCount: 0,
    status: { code: 1, message: "" },
    ...over,
  };
}

export function richAttributes(): KeyValue[] {
  return [
    { key: "gen_ai.operation.name", value: { stringValue: "retrieval" } },
    { key: "small", value: { intValue: 25n } },
    { key: "big", value: { intValue: 9007199254740993n } },
    { key: "negative", value: { intValue: -9223372036854775808n } },
    { key: "score", value: { doubleValue: 0.8125 } },
    { key: "flag", value: { boolValue: true } },
    { key: "list", value: { arrayValue: { values: [{ stringValue: "a" }, { intValue: 2n }] } } },
    { key: "map", value: { kvlistValue: { values: [{ key: "inner", value: { boolValue: false } }] } } },
    { key: "raw", value: { bytesValue: new Uint8Array([0, 1, 2, 255]) } },
    { key: "empty", value: {} },
  ];
}

/** Two resources, two traces interleaved across them. */
export function makeRequest(traceA = hex(16), traceB = hex(16)): TraceRequest {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "rag-a" } }], droppedAttributesCount: 0, entityRefs: [] },
        schemaUrl: "https://opentelemetry.io/schemas/1.30.0",
        scopeSpans: [
          {
            scope: { name: "ragmeter", version: "0.1.0", attributes: [], droppedAttributesCount: 0 },
            schemaUrl: "",
            spans: [makeSpan(traceA), makeSpan(traceB), makeSpan(traceA)],
          },
        ],
      },
      {
        resource: { attributes: [{ key: "service.name", value: { stringValue: "rag-b" } }], droppedAttributesCount: 0, entityRefs: [] },
        schemaUrl: "",
        scopeSpans: [{ scope: { name: "other", version: "", attributes: [], droppedAttributesCount: 0 }, schemaUrl: "", spans: [makeSpan(traceB, { parentSpanId: "" })] }],
      },
    ],
  };
}

/** All spans of a request, in order. */
export function spansOf(req: TraceRequest): Span[] {
  return req.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}
