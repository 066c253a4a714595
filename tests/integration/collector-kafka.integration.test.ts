// The collector against the real Apache Kafka broker: round trips, bad input, partial success,
// splitting, logs, auth, readiness, and the official OTel exporters end to end.
import { gzipSync } from "node:zlib";
import { context, trace } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CollectorConfig, collectorConfigSchema } from "../../collector/src/config.js";
import { type RunningCollector, startCollector } from "../../collector/src/server.js";
import { decodeErrorStatus, decodeExportResponse, decodeLogsRequest, decodeTraceRequest, encodeLogsRequest, encodeTraceRequest } from "../../otlp/src/codec.js";
import type { LogsRequest, Span } from "../../otlp/src/model.js";
import { hex, makeRequest, makeSpan, spansOf } from "../helpers/collector-fixtures.js";
import { BROKER, type Consumed, consume, createTopic, ensureBroker, post } from "../helpers/collector-kafka-helpers.js";
import { javaPartition } from "../helpers/javaPartitioner.js";

const PB = { "content-type": "application/x-protobuf" };
const JS = { "content-type": "application/json" };

let topic: string;
let drop: () => Promise<void>;
let collector: RunningCollector;
const extra: RunningCollector[] = [];

function config(over: Partial<CollectorConfig> = {}): CollectorConfig {
  return collectorConfigSchema.parse({ host: "127.0.0.1", port: 0, brokers: [BROKER], topic, sendTimeoutMs: 5_000, ...over });
}

async function another(over: Partial<CollectorConfig>): Promise<RunningCollector> {
  const c = await startCollector(config(over));
  extra.push(c);
  return c;
}

const marker = { current: "" };
/** Sends a one-span marker trace (its id in marker.current). */
async function sendMarker(): Promise<void> {
  marker.current = hex(16);
  const req = makeRequest();
  req.resourceSpans = [req.resourceSpans[0]!];
  req.resourceSpans[0]!.scopeSpans[0]!.spans = [makeSpan(marker.current)];
  const res = await post(`${collector.url}/v1/traces`, encodeTraceRequest(req), PB);
  expect(res.status).toBe(200);
}

const seen = new Set<string>();
/** Messages not returned by an earlier call (the topic is shared by the tests of this file). */
async function newMessages(until: (m: Consumed[]) => boolean): Promise<Consumed[]> {
  const all = await consume(topic, (m) => until(m.filter((x) => !seen.has(x.value.toString("base64")))));
  const fresh = all.filter((x) => !seen.has(x.value.toString("base64")));
  for (const m of fresh) seen.add(m.value.toString("base64"));
  return fresh;
}

beforeAll(async () => {
  await ensureBroker();
  ({ topic, drop } = await createTopic(3));
  collector = await startCollector(config());
});

afterAll(async () => {
  await Promise.all(extra.map((c) => c.close()));
  await collector?.close();
  await drop?.();
});

describe("collector → Kafka round trip", () => {
  it("protobuf (gzip): one message per trace, keyed by trace id, spans exact", async () => {
    const a = hex(16);
    const b = hex(16);
    const req = makeRequest(a, b);
    const traceparent = `00-${hex(16)}-${hex(8)}-01`;
    const res = await post(`${collector.url}/v1/traces`, gzipSync(encodeTraceRequest(req)), { ...PB, "content-encoding": "gzip", traceparent });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    expect(decodeExportResponse("traces", res.body)).toBeUndefined();
    const msgs = await newMessages((m) => m.length >= 2);
    expect(msgs).toHaveLength(2);
    expect(msgs.map((m) => m.key).sort()).toEqual([a, b].sort());
    const sent = spansOf(req);
    for (const m of msgs) {
      expect(m.headers["ragmeter-signal"]).toBe("traces");
      expect(m.headers["traceparent"]).toBe(traceparent);
      const got = spansOf(decodeTraceRequest(m.value, "application/x-protobuf").request);
      expect(got).toEqual(sent.filter((s) => s.traceId === m.key));
    }
    const big = spansOf(decodeTraceRequest(msgs[0]!.value, "application/x-protobuf").request)[0]!.attributes;
    expect(big).toContainEqual({ key: "small", value: { intValue: 25n } });
    expect(big).toContainEqual({ key: "big", value: { intValue: 9007199254740993n } });
  });

  it("JSON: intValue strings and numbers stay exact, upper-case hex stored lower-case", async () => {
    const traceUpper = hex(16).toUpperCase();
    const spanUpper = hex(8).toUpperCase();
    const text = `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"json-svc"}}]},"scopeSpans":[{"scope":{"name":"s"},"spans":[
      {"traceId":"${traceUpper}","spanId":"${spanUpper}","name":"chat","kind":3,"startTimeUnixNano":"1764480000000000001","endTimeUnixNano":1764480000000000002,
       "attributes":[{"key":"a","value":{"intValue":"25"}},{"key":"b","value":{"intValue":"9007199254740993"}},{"key":"c","value":{"intValue":9007199254740993}}]}]}]}]}`;
    const res = await post(`${collector.url}/v1/traces`, text, JS);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({});
    const msgs = await newMessages((m) => m.length >= 1);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]!.key).toBe(traceUpper.toLowerCase());
    const span = spansOf(decodeTraceRequest(msgs[0]!.value, "application/x-protobuf").request)[0]!;
    expect(span.traceId).toBe(traceUpper.toLowerCase());
    expect(span.spanId).toBe(spanUpper.toLowerCase());
    expect(span.startTimeUnixNano).toBe(1764480000000000001n);
    expect(span.endTimeUnixNano).toBe(1764480000000000002n);
    expect(span.attributes.map((x) => x.value)).toEqual([{ intValue: 25n }, { intValue: 9007199254740993n }, { intValue: 9007199254740993n }]);
  });

  it("a base64 trace id → 400 naming traceId, and nothing reaches Kafka", async () => {
    const text = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "W47/95gDgQPSabYzgT/GDA==", spanId: hex(8), name: "x" }] }] }] });
    const res = await post(`${collector.url}/v1/traces`, text, JS);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString()).message).toMatch(/traceId/);
    await sendMarker();
    // Nothing new may precede the marker sent after the refused request.
    const fresh = await newMessages((m) => m.some((x) => x.key === marker.current));
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.key).toBe(marker.current);
  });

  it("one bad span among valid ones → 200 with partialSuccess, valid spans on the topic", async () => {
    const t = hex(16);
    const good = [makeSpan(t), makeSpan(t)];
    const text = JSON.parse(
      new TextDecoder().decode(
        encodeTraceRequest(
          {
            resourceSpans: [
              {
                resource: { attributes: [], droppedAttributesCount: 0, entityRefs: [] },
                schemaUrl: "",
                scopeSpans: [{ scope: { name: "s", version: "", attributes: [], droppedAttributesCount: 0 }, schemaUrl: "", spans: good }],
              },
            ],
          },
          "json",
        ),
      ),
    );
    text.resourceSpans[0].scopeSpans[0].spans.splice(1, 0, { traceId: t, spanId: "1234", name: "bad" });
    const res = await post(`${collector.url}/v1/traces`, JSON.stringify(text), JS);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body.toString());
    expect(Number(body.partialSuccess.rejectedSpans)).toBe(1);
    expect(body.partialSuccess.errorMessage).toMatch(/spans\[1\]\.spanId/);
    const msgs = await newMessages((m) => m.length >= 1);
    expect(msgs).toHaveLength(1);
    expect(spansOf(decodeTraceRequest(msgs[0]!.value, "application/x-protobuf").request)).toEqual(good);
  });

  it("protobuf partial success is a protobuf ExportTraceServiceResponse", async () => {
    const req = makeRequest();
    req.resourceSpans[0]!.scopeSpans[0]!.spans.push(makeSpan("0".repeat(32)));
    const res = await post(`${collector.url}/v1/traces`, encodeTraceRequest(req), PB);
    expect(res.status).toBe(200);
    const ps = decodeExportResponse("traces", res.body);
    expect(ps?.rejected).toBe(1n);
    expect(ps?.errorMessage).toMatch(/traceId: must not be all zeros/);
    await newMessages((m) => m.length >= 2);
  });

  it("splits a trace bigger than the message limit over several messages with the same key", async () => {
    const small = await another({ maxMessageBytes: 8_192 });
    const t = hex(16);
    const spans: Span[] = Array.from({ length: 60 }, () => makeSpan(t, { attributes: [{ key: "gen_ai.output", value: { stringValue: "y".repeat(1_000) } }] }));
    const req = makeRequest();
    req.resourceSpans = [req.resourceSpans[0]!];
    req.resourceSpans[0]!.scopeSpans[0]!.spans = spans;
    const res = await post(`${small.url}/v1/traces`, encodeTraceRequest(req), PB);
    expect(res.status).toBe(200);
    const msgs = await newMessages((m) => m.reduce((n, x) => n + spansOf(decodeTraceRequest(x.value, "application/x-protobuf").request).length, 0) >= 60);
    expect(msgs.length).toBeGreaterThan(5);
    expect(new Set(msgs.map((m) => m.key))).toEqual(new Set([t]));
    expect(new Set(msgs.map((m) => m.partition)).size).toBe(1);
    const got = msgs.flatMap((m) => spansOf(decodeTraceRequest(m.value, "application/x-protobuf").request));
    expect(got.map((s) => s.spanId).sort()).toEqual(spans.map((s) => s.spanId).sort());
  });

  it("puts each trace on the partition Kafka's Java producer picks for its key", async () => {
    // The scorer groups a trace's spans by partition: the producer must place keys as Kafka's Java
    // client does, murmur2 with the sign bit cleared, modulo the partition count (3 here), computed
    // by the test's own port of Java's Utils.murmur2 (checked on Kafka's test vectors).
    const ids = Array.from({ length: 30 }, () => hex(16));
    const req = makeRequest();
    req.resourceSpans = [req.resourceSpans[0]!];
    req.resourceSpans[0]!.scopeSpans[0]!.spans = ids.map((t) => makeSpan(t));
    const res = await post(`${collector.url}/v1/traces`, encodeTraceRequest(req), PB);
    expect(res.status).toBe(200);
    const msgs = await newMessages((m) => ids.every((t) => m.some((x) => x.key === t)));
    const want = ids.map((t) => [t, javaPartition(t, 3)]);
    expect(ids.map((t) => [t, msgs.find((m) => m.key === t)?.partition])).toEqual(want);
    expect(new Set(want.map(([, p]) => p)).size).toBe(3); // 30 random keys reach every partition
  });

  it("forwards /v1/logs keyed by trace id with ragmeter-signal: logs", async () => {
    const t = hex(16);
    const req: LogsRequest = {
      resourceLogs: [
        {
          resource: { attributes: [], droppedAttributesCount: 0, entityRefs: [] },
          schemaUrl: "",
          scopeLogs: [
            {
              scope: { name: "genai", version: "", attributes: [], droppedAttributesCount: 0 },
              schemaUrl: "",
              logRecords: [
                {
                  timeUnixNano: 1n,
                  observedTimeUnixNano: 2n,
                  severityNumber: 9,
                  severityText: "",
                  body: { stringValue: "What is RAG?" },
                  attributes: [],
                  droppedAttributesCount: 0,
                  flags: 1,
                  traceId: t,
                  spanId: hex(8),
                  eventName: "gen_ai.user.message",
                },
              ],
            },
          ],
        },
      ],
    };
    const res = await post(`${collector.url}/v1/logs`, encodeLogsRequest(req), PB);
    expect(res.status).toBe(200);
    const msgs = await newMessages((m) => m.length >= 1);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]!.key).toBe(t);
    expect(msgs[0]!.headers["ragmeter-signal"]).toBe("logs");
    expect(decodeLogsRequest(msgs[0]!.value, "application/x-protobuf").request).toEqual(req);
  });

  it.each([
    ["protobuf", ProtoExporter],
    ["json", JsonExporter],
  ] as const)("official OTel %s exporter → collector → Kafka", async (_kind, Exporter) => {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": "otel-e2e" }),
      spanProcessors: [new BatchSpanProcessor(new Exporter({ url: `${collector.url}/v1/traces` }))],
    });
    const tracer = provider.getTracer("e2e");
    const root = tracer.startSpan("rag", { attributes: { n: 7 } });
    tracer.startSpan("retrieve", {}, trace.setSpan(context.active(), root)).end();
    root.end();
    await provider.forceFlush();
    await provider.shutdown();
    const msgs = await newMessages((m) => m.length >= 1);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]!.key).toBe(root.spanContext().traceId);
    const spans = spansOf(decodeTraceRequest(msgs[0]!.value, "application/x-protobuf").request);
    expect(spans.map((s) => s.name).sort()).toEqual(["rag", "retrieve"]);
  });
});

describe("bad input keeps the collector serving", () => {
  const validPb = () => encodeTraceRequest(makeRequest());
  /** A case: name, the request (body and headers), the status expected, and what its error message must say. */
  type BadInput = readonly [name: string, make: () => readonly [body: Uint8Array | string, headers: Readonly<Record<string, string>>], status: number, message: RegExp];
  const cases: readonly BadInput[] = [
    ["malformed protobuf", () => [Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), PB], 400, /body: malformed protobuf/],
    ["malformed JSON", () => ['{"resourceSpans": [', JS], 400, /body: malformed JSON/],
    [
      "int64 as an object",
      () => [JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: hex(16), spanId: hex(8), startTimeUnixNano: { low: 1, high: 0 } }] }] }] }), JS],
      400,
      /startTimeUnixNano: must be an unsigned 64-bit integer/,
    ],
    [
      "all-zero trace id",
      () => [JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "0".repeat(32), spanId: hex(8) }] }] }] }), JS],
      400,
      /traceId: must not be all zeros/,
    ],
    [
      "15-digit span id",
      () => [JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: hex(16), spanId: "abcdefabcdefabc" }] }] }] }), JS],
      400,
      /spanId: must be 16 hex digits/,
    ],
    ["text/plain", () => ["hello", { "content-type": "text/plain" }], 415, /unsupported content type/],
    ["no content type", () => [validPb(), {}], 415, /unsupported content type/],
    ["brotli", () => [validPb(), { ...PB, "content-encoding": "br" }], 415, /content encoding/],
    ["broken gzip", () => [Buffer.from("not gzip"), { ...PB, "content-encoding": "gzip" }], 400, /not valid gzip/],
  ];
  it.each(cases)("%s → %i naming the problem", async (_name, make, status, re) => {
    const [body, headers] = make();
    const res = await post(`${collector.url}/v1/traces`, body, { ...headers });
    expect(res.status).toBe(status);
    const isPb = headers["content-type"] === PB["content-type"];
    const msg = isPb ? decodeErrorStatus(res.body).message : JSON.parse(res.body.toString()).message;
    expect(msg).toMatch(re);
    expect((await fetch(`${collector.url}/healthz`)).status).toBe(200);
    expect((await post(`${collector.url}/v1/traces`, validPb(), PB)).status).toBe(200);
  });

  it("413 over the body limit, raw or after gunzip", async () => {
    const small = await another({ bodyLimitBytes: 4_096 });
    const big = Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: hex(16), spanId: hex(8), name: "x".repeat(10_000) }] }] }] }));
    expect((await post(`${small.url}/v1/traces`, big, JS)).status).toBe(413);
    const bomb = gzipSync(big);
    expect(bomb.length).toBeLessThan(4_096);
    const res = await post(`${small.url}/v1/traces`, bomb, { ...JS, "content-encoding": "gzip" });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString()).message).toMatch(/decompressed body is over the limit/);
    expect((await post(`${small.url}/v1/traces`, encodeTraceRequest(makeRequest()), PB)).status).toBe(200);
  });

  it("401 when the token is set and the bearer differs; health endpoints stay open", async () => {
    const guarded = await another({ token: "s3cret" });
    const body = encodeTraceRequest(makeRequest());
    expect((await post(`${guarded.url}/v1/traces`, body, PB)).status).toBe(401);
    expect((await post(`${guarded.url}/v1/traces`, body, { ...PB, authorization: "Bearer wrong" })).status).toBe(401);
    expect((await post(`${guarded.url}/v1/traces`, body, { ...PB, authorization: "Bearer s3cret" })).status).toBe(200);
    expect((await post(`${guarded.url}/v1/traces`, body, { ...PB, authorization: "bearer s3cret" })).status).toBe(200); // scheme is case-insensitive
    expect((await post(`${guarded.url}/v1/traces`, body, { ...PB, authorization: "Bearer S3CRET" })).status).toBe(401); // the token is not
    expect((await fetch(`${guarded.url}/healthz`)).status).toBe(200);
  });

  it("429 with Retry-After past the in-flight byte bound", async () => {
    const tiny = await another({ maxInflightBytes: 1_000 });
    const body = encodeTraceRequest(makeRequest());
    const results = await Promise.all(Array.from({ length: 20 }, () => post(`${tiny.url}/v1/traces`, body, PB)));
    const codes = results.map((r) => r.status);
    expect(codes).toContain(200);
    expect(codes).toContain(429);
    for (const r of results.filter((x) => x.status === 429)) expect(r.headers.get("retry-after")).toBe("2");
    expect(tiny.stats().inflightBytes).toBe(0);
  });
});

describe("readiness and Kafka unavailable", () => {
  it("/readyz is 200 with the broker, 503 without; sends get 503 + Retry-After", async () => {
    expect((await fetch(`${collector.url}/readyz`)).status).toBe(200);
    const orphan = await another({ brokers: ["127.0.0.1:1"], sendTimeoutMs: 1_500 });
    expect((await fetch(`${orphan.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${orphan.url}/readyz`)).status).toBe(503);
    const res = await post(`${orphan.url}/v1/traces`, encodeTraceRequest(makeRequest()), PB);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(decodeErrorStatus(res.body).code).toBe(14);
  });
});
