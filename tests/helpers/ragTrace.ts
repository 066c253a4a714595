import { randomBytes } from "node:crypto";
import { encodeTraceRequest, type KeyValue, type Span, type TraceRequest } from "../../otlp/src/index.js";

const s = (key: string, v: string): KeyValue => ({ key, value: { stringValue: v } });
const i = (key: string, v: number): KeyValue => ({ key, value: { intValue: BigInt(v) } });

/** A random 32-hex trace id. */
export const traceId = (): string => randomBytes(16).toString("hex");
const spanId = (): string => randomBytes(8).toString("hex");

function span(trace: string, name: string, attributes: KeyValue[], parent = "", startNs = 1_764_460_800_000_000_000n): Span {
  return {
    traceId: trace,
    spanId: spanId(),
    traceState: "",
    parentSpanId: parent,
    flags: 1,
    name,
    kind: 1,
    startTimeUnixNano: startNs,
    endTimeUnixNano: startNs + 1_000_000n,
    attributes,
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: { code: 0, message: "" },
  };
}

/** The parts of a RAG trace a test controls. */
export interface RagTraceSpec {
  readonly traceId: string;
  readonly question: string;
  readonly docs: readonly { id: string; document_id: string; content: string; score: number }[];
  readonly answer: string;
  readonly model?: string;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** Baggage copied to span attributes (ragmeter.run.id, ragmeter.golden.id). */
  readonly runId?: string;
  readonly goldenId?: string;
  readonly service?: string;
}

/** The retrieval and the generation span of a RAG request, in OTel GenAI conventions with content. */
export function ragSpans(t: RagTraceSpec): { retrieval: Span; generation: Span } {
  const extras = [...(t.runId ? [s("ragmeter.run.id", t.runId)] : []), ...(t.goldenId ? [s("ragmeter.golden.id", t.goldenId)] : [])];
  const retrieval = span(t.traceId, "retrieval kb", [
    s("gen_ai.operation.name", "retrieval"),
    s("gen_ai.retrieval.query.text", t.question),
    s("gen_ai.retrieval.documents", JSON.stringify(t.docs)),
    ...extras,
  ]);
  const generation = span(
    t.traceId,
    `chat ${t.model ?? "gen-1"}`,
    [
      s("gen_ai.operation.name", "chat"),
      s("gen_ai.request.model", t.model ?? "gen-1"),
      i("gen_ai.usage.input_tokens", t.inputTokens ?? 100),
      i("gen_ai.usage.output_tokens", t.outputTokens ?? 10),
      s("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: t.answer }] }])),
      ...extras,
    ],
    "",
    1_764_460_800_010_000_000n,
  );
  return { retrieval, generation };
}

/** An OTLP trace request holding `spans` under one resource. */
export function traceRequest(spans: Span[], service = "rag-svc"): TraceRequest {
  return {
    resourceSpans: [
      {
        resource: { attributes: [s("service.name", service), s("deployment.environment.name", "test")], droppedAttributesCount: 0, entityRefs: [] },
        scopeSpans: [{ scope: { name: "test", version: "1", attributes: [], droppedAttributesCount: 0 }, spans, schemaUrl: "" }],
        schemaUrl: "",
      },
    ],
  };
}

/** Protobuf bytes of a trace request (what the collector puts on Kafka). */
export const protobufOf = (req: TraceRequest): Uint8Array => encodeTraceRequest(req, "protobuf");
