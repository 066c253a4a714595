// Test helper: decodes OTLP/HTTP trace bodies (protobuf and JSON) into plain spans, independently
// of @ragmeter/otlp's codecs: protobuf bodies are read with the message classes generated from the
// official opentelemetry-proto files (otlp/generated/, see otlp/proto/README.md), JSON bodies with
// JSON.parse.
import { opentelemetry } from "../../otlp/generated/otlp.js";

const ExportTraceServiceRequest = opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** A span as the scorer needs it: ids in lower-case hex, attributes as plain values. */
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

type Json = Record<string, unknown>;

// Own properties only: generated messages carry defaults (null for oneof members) on their prototype.
const has = (v: Json, k: string): boolean => Object.hasOwn(v, k) && v[k] !== null;

function anyValue(v: Json | undefined): unknown {
  if (v === undefined || v === null) return undefined;
  if (has(v, "stringValue")) return v["stringValue"];
  if (has(v, "boolValue")) return v["boolValue"];
  if (has(v, "intValue")) return Number(String(v["intValue"]));
  if (has(v, "doubleValue")) return Number(v["doubleValue"]);
  if (has(v, "arrayValue")) return (((v["arrayValue"] as Json)["values"] as Json[] | undefined) ?? []).map(anyValue);
  if (has(v, "kvlistValue")) return attributes(((v["kvlistValue"] as Json)["values"] as Json[] | undefined) ?? []);
  return undefined;
}

function attributes(list: Json[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) out[String(kv["key"])] = anyValue(kv["value"] as Json | undefined);
  return out;
}

function hex(v: unknown): string {
  if (v === undefined || v === null || v === "") return "";
  if (typeof v === "string") return v.toLowerCase(); // OTLP/JSON: ids are hex strings
  return Buffer.from(v as Uint8Array).toString("hex"); // protobuf: bytes (empty for an absent parent)
}

function flatten(request: Json): DecodedSpan[] {
  const spans: DecodedSpan[] = [];
  for (const rs of (request["resourceSpans"] as Json[] | undefined) ?? []) {
    const resource = attributes(((rs["resource"] as Json | undefined)?.["attributes"] as Json[] | undefined) ?? []);
    for (const ss of (rs["scopeSpans"] as Json[] | undefined) ?? []) {
      for (const s of (ss["spans"] as Json[] | undefined) ?? []) {
        spans.push({
          traceId: hex(s["traceId"]),
          spanId: hex(s["spanId"]),
          parentSpanId: hex(s["parentSpanId"]),
          name: String(s["name"]),
          kind: Number(s["kind"] ?? 0),
          attributes: attributes(s["attributes"] as Json[] | undefined),
          resource,
        });
      }
    }
  }
  return spans;
}

/** Decodes an `application/x-protobuf` ExportTraceServiceRequest body. */
export function decodeProtobufTraces(body: Uint8Array): DecodedSpan[] {
  return flatten(ExportTraceServiceRequest.decode(body) as unknown as Json);
}

/** Decodes an `application/json` (OTLP/JSON) ExportTraceServiceRequest body. */
export function decodeJsonTraces(body: Uint8Array | string): DecodedSpan[] {
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  return flatten(JSON.parse(text) as Json);
}

/** Flattens the collector's decoded `TraceRequest` (bigint ints, hex ids) into {@link DecodedSpan}s. */
export function fromCollectorRequest(request: unknown): DecodedSpan[] {
  const plain = JSON.parse(JSON.stringify(request, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))) as Json;
  return flatten(plain);
}

/** What the scorer extracts from one trace (design §2), from the GenAI attributes. */
export interface ExtractedInteraction {
  traceId: string;
  question: string | undefined;
  documents: Array<{ id: string; document_id?: string; score?: number; content?: string }>;
  answer: string | undefined;
  goldenId: unknown;
  runId: unknown;
  pipelineVersion: unknown;
}

export function extractInteraction(spans: DecodedSpan[]): ExtractedInteraction {
  const retrieval = spans.find((s) => s.attributes["gen_ai.operation.name"] === "retrieval");
  const generation = spans.find((s) => s.attributes["gen_ai.operation.name"] === "chat");
  const output = generation?.attributes["gen_ai.output.messages"];
  const answer = typeof output === "string" ? (JSON.parse(output) as Array<{ parts: Array<{ content: string }> }>)[0]?.parts[0]?.content : undefined;
  const docs = retrieval?.attributes["gen_ai.retrieval.documents"];
  return {
    traceId: retrieval?.traceId ?? "",
    question: retrieval?.attributes["gen_ai.retrieval.query.text"] as string | undefined,
    documents: typeof docs === "string" ? (JSON.parse(docs) as ExtractedInteraction["documents"]) : [],
    answer,
    goldenId: retrieval?.attributes["ragmeter.golden.id"],
    runId: retrieval?.attributes["ragmeter.run.id"],
    pipelineVersion: retrieval?.attributes["ragmeter.pipeline.version"],
  };
}
