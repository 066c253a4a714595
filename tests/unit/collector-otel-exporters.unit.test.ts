// Proves the OTLP schema against bodies produced by the official OpenTelemetry JS exporters
// (protobuf and JSON, gzip or not), captured by a plain HTTP server on 127.0.0.1.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { context, trace } from "@opentelemetry/api";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider } from "@opentelemetry/sdk-logs";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeLogsRequest, decodeTraceRequest } from "../../otlp/src/codec.js";

interface Captured {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: Server;
let base: string;
const captured: Captured[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      captured.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/json" });
      res.end(req.headers["content-type"]?.includes("json") ? "{}" : "");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

function body(c: Captured): Buffer {
  return c.headers["content-encoding"] === "gzip" ? gunzipSync(c.body) : c.body;
}

async function exportSpans(exporter: SpanExporter) {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "exporter-test", "ragmeter.pipeline.version": "v7" }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("ragmeter-test", "1.2.3");
  const root = tracer.startSpan("rag.query", { attributes: { "gen_ai.operation.name": "chat", tokens: 25, ratio: 0.5, ok: true, tags: ["a", "b"] } });
  const ctx = trace.setSpan(context.active(), root);
  const child = tracer.startSpan("retrieve", { attributes: { "gen_ai.retrieval.query.text": "why?" } }, ctx);
  child.addEvent("hit", { rank: 1 });
  child.end();
  root.end();
  await provider.forceFlush();
  await provider.shutdown();
  return { root: root.spanContext(), child: child.spanContext() };
}

describe("bodies from the official OpenTelemetry JS exporters", () => {
  it.each([
    ["protobuf", false],
    ["protobuf", true],
    ["json", false],
    ["json", true],
  ] as const)("decodes %s traces (gzip %s)", async (kind, gzip) => {
    captured.length = 0;
    const opts = { url: `${base}/v1/traces`, ...(gzip ? { compression: "gzip" as never } : {}) };
    const ids = await exportSpans(kind === "protobuf" ? new ProtoExporter(opts) : new JsonExporter(opts));
    expect(captured).toHaveLength(1);
    const c = captured[0]!;
    expect(c.path).toBe("/v1/traces");
    expect(c.headers["content-encoding"] === "gzip").toBe(gzip);
    const d = decodeTraceRequest(body(c), c.headers["content-type"] ?? "");
    expect(d.errors).toEqual([]);
    const rs = d.request.resourceSpans[0]!;
    expect(rs.resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "exporter-test" } });
    const ss = rs.scopeSpans[0]!;
    expect(ss.scope.name).toBe("ragmeter-test");
    expect(ss.scope.version).toBe("1.2.3");
    const byName = new Map(ss.spans.map((s) => [s.name, s]));
    const root = byName.get("rag.query")!;
    const child = byName.get("retrieve")!;
    expect(root.traceId).toBe(ids.root.traceId);
    expect(root.spanId).toBe(ids.root.spanId);
    expect(root.parentSpanId).toBe("");
    expect(child.parentSpanId).toBe(ids.root.spanId);
    expect(child.traceId).toBe(ids.root.traceId);
    expect(root.attributes).toEqual([
      { key: "gen_ai.operation.name", value: { stringValue: "chat" } },
      { key: "tokens", value: { intValue: 25n } },
      { key: "ratio", value: { doubleValue: 0.5 } },
      { key: "ok", value: { boolValue: true } },
      { key: "tags", value: { arrayValue: { values: [{ stringValue: "a" }, { stringValue: "b" }] } } },
    ]);
    expect(child.events[0]!.name).toBe("hit");
    expect(child.events[0]!.attributes).toEqual([{ key: "rank", value: { intValue: 1n } }]);
    expect(root.endTimeUnixNano).toBeGreaterThan(root.startTimeUnixNano);
    expect(root.startTimeUnixNano).toBeGreaterThan(1_600_000_000_000_000_000n);
  });

  it("decodes protobuf log records (GenAI content events) tied to a span", async () => {
    captured.length = 0;
    const provider = new LoggerProvider({
      resource: resourceFromAttributes({ "service.name": "exporter-test" }),
      processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter({ url: `${base}/v1/logs` }) })],
    });
    const tracerProvider = new BasicTracerProvider();
    const span = tracerProvider.getTracer("t").startSpan("chat");
    const ctx = trace.setSpan(context.active(), span);
    provider.getLogger("genai").emit({ eventName: "gen_ai.user.message", body: { content: "What is RAG?" }, attributes: { "gen_ai.system": "openai" }, context: ctx });
    span.end();
    await provider.forceFlush();
    await provider.shutdown();
    expect(captured).toHaveLength(1);
    const c = captured[0]!;
    const d = decodeLogsRequest(body(c), c.headers["content-type"] ?? "");
    expect(d.errors).toEqual([]);
    const rec = d.request.resourceLogs[0]!.scopeLogs[0]!.logRecords[0]!;
    expect(rec.traceId).toBe(span.spanContext().traceId);
    expect(rec.spanId).toBe(span.spanContext().spanId);
    expect(rec.eventName).toBe("gen_ai.user.message");
    expect(rec.body).toEqual({ kvlistValue: { values: [{ key: "content", value: { stringValue: "What is RAG?" } }] } });
  });
});
