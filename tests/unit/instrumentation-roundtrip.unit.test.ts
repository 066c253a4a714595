import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRagInstrumentation, withIncomingContext } from "../../instrumentation/src/index.js";
import { decodeTraceRequest } from "../../otlp/src/index.js";
import { ITEMS, installContextAndPropagators } from "../helpers/instrumentation-setup.js";
import { decodeJsonTraces, decodeProtobufTraces, extractInteraction, fromCollectorRequest } from "../helpers/otlp-decode.js";

// Spans serialised exactly as the OTLP exporters do (otlp-transformer), then decoded from
// the bytes by the collector's own decoder (decodeTraceRequest) and, independently, by a
// protobufjs schema written from opentelemetry-proto and by JSON.parse.

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  resource: resourceFromAttributes({ "service.name": "rag-under-test", "ragmeter.pipeline.version": "pv-7" }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
let uninstall: () => void;
beforeAll(() => {
  uninstall = installContextAndPropagators();
});
afterAll(async () => {
  uninstall();
  await provider.shutdown();
});

const QUESTION = "Combien de jours pour un remboursement ? 😀";
const ANSWER = "Vous avez 30 jours. «Remboursement» — ok.";
const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const headers = {
  traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01`,
  baggage: "ragmeter.run.id=run-1,ragmeter.golden.id=g%2F42",
};

async function emit() {
  exporter.reset();
  const rag = createRagInstrumentation({
    tracer: provider.getTracer("roundtrip"),
    captureContent: true,
    pipelineVersion: "pv-7",
  });
  await withIncomingContext(headers, async () => {
    const items = await rag.traceRetrieval({ query: QUESTION, topK: 3, dataSourceId: "kb" }, () => ITEMS);
    await rag.traceGeneration({ model: "m", question: QUESTION }, () => ({
      answer: ANSWER,
      usage: { input_tokens: 100, output_tokens: 9 },
      contexts: items,
    }));
  });
  return exporter.getFinishedSpans();
}

const expectedDocuments = [
  { id: "doc-7", score: 0.91, content: "The refund window is 30 days." },
  { id: "doc-3#c2", document_id: "doc-3", score: 0.72, content: "Refunds go to the original card." },
  { id: "doc-9#c0", document_id: "doc-9", score: 0.4, content: "Gift cards are non-refundable." },
];

describe("OTLP round trip", () => {
  it("protobuf: question, ranked documents and answer come back", async () => {
    const spans = await emit();
    const body = ProtobufTraceSerializer.serializeRequest(spans);
    expect(body).toBeInstanceOf(Uint8Array);
    const decoded = decodeProtobufTraces(body as Uint8Array);
    expect(decoded).toHaveLength(2);
    expect(decoded[0]?.resource["service.name"]).toBe("rag-under-test");
    const interaction = extractInteraction(decoded);
    expect(interaction).toEqual({
      traceId: TRACE_ID,
      question: QUESTION,
      documents: expectedDocuments,
      answer: ANSWER,
      goldenId: "g/42",
      runId: "run-1",
      pipelineVersion: "pv-7",
    });
    const generation = decoded.find((s) => s.name === "chat m");
    expect(generation?.attributes["gen_ai.usage.input_tokens"]).toBe(100);
    expect(generation?.attributes["gen_ai.usage.output_tokens"]).toBe(9);
    expect(generation?.traceId).toBe(TRACE_ID);
  });

  it("JSON: the same interaction comes back", async () => {
    const spans = await emit();
    const body = JsonTraceSerializer.serializeRequest(spans);
    expect(body).toBeInstanceOf(Uint8Array);
    const fromJson = extractInteraction(decodeJsonTraces(body as Uint8Array));
    const fromProto = extractInteraction(decodeProtobufTraces(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array));
    expect(fromJson).toEqual(fromProto);
    expect(fromJson.documents.map((d) => d.id)).toEqual(["doc-7", "doc-3#c2", "doc-9#c0"]);
  });

  async function viaCollector(encoding: "protobuf" | "json") {
    const spans = await emit();
    const expected = extractInteraction(decodeProtobufTraces(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array));
    expect(expected.documents).toEqual(expectedDocuments);
    const body = encoding === "protobuf" ? ProtobufTraceSerializer.serializeRequest(spans) : JsonTraceSerializer.serializeRequest(spans);
    const contentType = encoding === "protobuf" ? "application/x-protobuf" : "application/json";
    const decoded = decodeTraceRequest(body as Uint8Array, contentType);
    expect(decoded.rejected).toBe(0);
    const flat = fromCollectorRequest(decoded.request);
    expect(flat).toHaveLength(2);
    expect(extractInteraction(flat)).toEqual(expected);
    expect(flat.find((s) => s.name === "chat m")?.attributes["gen_ai.usage.input_tokens"]).toBe(100);
  }

  it("protobuf through the collector's decodeTraceRequest gives back the same interaction", async () => {
    await viaCollector("protobuf");
  });

  it("OTLP/JSON through the collector's decodeTraceRequest gives back the same interaction", async () => {
    await viaCollector("json");
  });
});
