// The byte-walking splitter (otlp/src/split.ts) against the old path it replaces on the hot path:
// decode the whole request into the model, group by trace id, re-encode each trace.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { batchTraces, countSpans } from "../../collector/src/batching.js";
import { opentelemetry } from "../../otlp/generated/otlp.js";
import { DEFAULT_OTLP_LIMITS, type OtlpLimits } from "../../otlp/src/limits.js";
import type { ResourceSpans, Span, TraceRequest } from "../../otlp/src/model.js";
import { pb } from "../../otlp/src/proto.js";
import { decodeTraceRequestProtobuf, encodeTraceRequestProtobuf, resourceToPb, spanToPb } from "../../otlp/src/protobuf.js";
import { splitTraceRequestProtobuf } from "../../otlp/src/split.js";
import { makeRequest, makeSpan, richAttributes } from "../helpers/collector-fixtures.js";

const SpanPb = opentelemetry.proto.trace.v1.Span;

interface Outcome {
  records: { key: string | null; value: Uint8Array; items: number }[];
  total: number;
  rejected: number;
  errors: string[];
}

/** The old path, exactly as the collector ran it before the splitter. */
function oldPath(body: Uint8Array, maxBytes: number, limits: OtlpLimits): Outcome | "malformed" {
  let d: ReturnType<typeof decodeTraceRequestProtobuf>;
  try {
    d = decodeTraceRequestProtobuf(body, limits);
  } catch {
    return "malformed";
  }
  const b = batchTraces(d.request, maxBytes);
  return { records: b.records, total: countSpans(d.request) + d.rejected, rejected: d.rejected + b.rejected, errors: [...d.errors, ...b.errors] };
}

function newPath(body: Uint8Array, maxBytes: number, limits: OtlpLimits): Outcome | "malformed" {
  const s = splitTraceRequestProtobuf(body, maxBytes, limits);
  if (s === null) return "malformed";
  return { records: s.records, total: s.total, rejected: s.rejected, errors: s.errors };
}

/**
 * A record value as the generated classes decode it, in a comparable form: the fields the decoder
 * set on each message (it deletes fields read with their default value), bytes as hex, 64-bit
 * integers as decimal strings, and the unknown fields it kept (`$unknowns`).
 */
function generatedView(value: Uint8Array): unknown {
  const view = (o: unknown): unknown => {
    if (o instanceof Uint8Array) return Buffer.from(o).toString("hex");
    if (Array.isArray(o)) return o.map(view);
    if (o === null || typeof o !== "object") return o;
    if ("low" in o && "high" in o && "unsigned" in o) return String(o);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) out[k] = view(v);
    const u = (o as { $unknowns?: Uint8Array[] }).$unknowns;
    if (u) out["$unknowns"] = view(u);
    return out;
  };
  return view(pb.ExportTraceServiceRequest.decode(value));
}

function expectSameDecoded(body: Uint8Array, maxBytes: number, limits: OtlpLimits = DEFAULT_OTLP_LIMITS): Outcome | "malformed" {
  const a = oldPath(body, maxBytes, limits);
  const b = newPath(body, maxBytes, limits);
  if (a === "malformed" || b === "malformed") {
    expect(b).toBe(a);
    return a;
  }
  expect(b.total).toBe(a.total);
  expect(b.rejected).toBe(a.rejected);
  expect(b.errors).toEqual(a.errors);
  expect(b.records.map((r) => [r.key, r.items])).toEqual(a.records.map((r) => [r.key, r.items]));
  for (let i = 0; i < a.records.length; i++) expect(generatedView(b.records[i]!.value)).toEqual(generatedView(a.records[i]!.value));
  return a;
}

function expectSameBytes(body: Uint8Array, maxBytes: number): Outcome | "malformed" {
  const a = expectSameDecoded(body, maxBytes);
  const b = newPath(body, maxBytes, DEFAULT_OTLP_LIMITS);
  if (a !== "malformed" && b !== "malformed") {
    for (let i = 0; i < a.records.length; i++) expect(Buffer.from(b.records[i]!.value).equals(Buffer.from(a.records[i]!.value))).toBe(true);
  }
  return a;
}

// ---- raw protobuf building ----
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}
const ld = (field: number, bytes: ArrayLike<number>): number[] => [...varint((field << 3) | 2), ...varint(bytes.length), ...Array.from(bytes)];
const str = (s: string): number[] => [...Buffer.from(s, "utf8")];
const spanBytes = (s: Span): number[] => [...SpanPb.encode(spanToPb(s) as never).finish()];
const resourceBytes = (rs: ResourceSpans): number[] => [...opentelemetry.proto.resource.v1.Resource.encode(resourceToPb(rs.resource) as never).finish()];

/** A request built from raw parts: resources → scopes → span byte strings, with optional extra raw bytes at each level. */
interface RawResource {
  resource?: number[] | null;
  schemaUrl?: string;
  extra?: number[];
  scopes: { scope?: number[] | null; schemaUrl?: string; extra?: number[]; spans: number[][] }[];
}
function rawRequest(resources: RawResource[], extra: number[] = []): Uint8Array {
  const out: number[] = [];
  for (const r of resources) {
    const rs: number[] = [];
    if (r.resource) rs.push(...ld(1, r.resource));
    for (const s of r.scopes) {
      const ss: number[] = [];
      if (s.scope) ss.push(...ld(1, s.scope));
      for (const sp of s.spans) ss.push(...ld(2, sp));
      if (s.schemaUrl) ss.push(...ld(3, str(s.schemaUrl)));
      if (s.extra) ss.push(...s.extra);
      rs.push(...ld(2, ss));
    }
    if (r.schemaUrl) rs.push(...ld(3, str(r.schemaUrl)));
    if (r.extra) rs.push(...r.extra);
    out.push(...ld(1, rs));
  }
  out.push(...extra);
  return Uint8Array.from(out);
}

// Span mutations that keep a span valid but make its bytes non-canonical (appended raw fields merge).
const UNKNOWN_VARINT = [...varint((99 << 3) | 0), 7];
const MUTATIONS: Record<string, (s: number[]) => number[]> = {
  unknownField: (s) => [...s, ...UNKNOWN_VARINT],
  unknownNested: (s) => [...s, ...ld(9, [...ld(1, str("k")), ...ld(2, [...ld(1, str("v")), ...UNKNOWN_VARINT])])],
  emptyStatus: (s) => [...s, ...ld(15, [])],
  zeroParent: (s) => [...s, ...ld(4, new Array(8).fill(0))],
  keyWithoutValue: (s) => [...s, ...ld(9, ld(1, str("novalue")))],
  twoKindsOfValue: (s) => [...s, ...ld(9, [...ld(1, str("both")), ...ld(2, [...ld(1, str("a")), ...varint((3 << 3) | 0), 3])])],
  explicitDefaults: (s) => [...s, ...varint((6 << 3) | 0), 0, ...ld(3, [])],
  wrongWireType: (s) => [...s, ...varint((5 << 3) | 0), 1],
  nonAsciiName: (s) => [...s, ...ld(5, str("réponse ✓"))],
};
// Span mutations that make a span invalid (rejected by id checks).
const INVALID: Record<string, (s: number[]) => number[]> = {
  shortTraceId: (s) => [...s, ...ld(1, new Array(15).fill(1))],
  zeroSpanId: (s) => [...s, ...ld(2, new Array(8).fill(0))],
  badParent: (s) => [...s, ...ld(4, [1, 2, 3, 4])],
  badLink: (s) => [...s, ...ld(13, [...ld(1, new Array(16).fill(0)), ...ld(2, new Array(8).fill(1))])],
};

/** Small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const idHex = (r: () => number, bytes: number): string =>
  Array.from({ length: bytes }, () =>
    Math.floor(r() * 256)
      .toString(16)
      .padStart(2, "0"),
  ).join("");

function randomModelRequest(r: () => number): TraceRequest {
  const traces = Array.from({ length: 1 + Math.floor(r() * 3) }, () => idHex(r, 16));
  return {
    resourceSpans: Array.from({ length: Math.floor(r() * 4) }, (_, i) => ({
      resource: { attributes: r() < 0.8 ? [{ key: "service.name", value: { stringValue: `svc-${i}` } }] : [], droppedAttributesCount: r() < 0.2 ? 3 : 0, entityRefs: [] },
      schemaUrl: r() < 0.5 ? "https://opentelemetry.io/schemas/1.30.0" : "",
      scopeSpans: Array.from({ length: Math.floor(r() * 4) }, (_, j) => ({
        scope: { name: r() < 0.7 ? `scope-${j}` : "", version: r() < 0.5 ? "1.0" : "", attributes: [], droppedAttributesCount: 0 },
        schemaUrl: r() < 0.3 ? "https://example.com/s" : "",
        spans: Array.from({ length: Math.floor(r() * 6) }, () =>
          makeSpan(pick(r, traces), {
            spanId: idHex(r, 8),
            parentSpanId: r() < 0.3 ? "" : idHex(r, 8),
            attributes: r() < 0.5 ? richAttributes() : [{ key: "text", value: { stringValue: "x".repeat(Math.floor(r() * 400)) } }],
            events: r() < 0.5 ? [] : makeSpan("").events,
            links: r() < 0.5 ? [] : [{ traceId: idHex(r, 16), spanId: idHex(r, 8), traceState: "", attributes: [], droppedAttributesCount: 0, flags: 1 }],
            status: r() < 0.5 ? { code: 0, message: "" } : { code: 2, message: "boom" },
          }),
        ),
      })),
    })),
  };
}

describe("splitTraceRequestProtobuf (byte-walking splitter) against decode + re-encode", () => {
  it("produces byte-identical records for canonical requests (fixture of two resources, interleaved traces)", () => {
    const body = encodeTraceRequestProtobuf(makeRequest());
    const out = expectSameBytes(body, 1_000_000);
    expect(out !== "malformed" && out.records.length).toBe(2);
  });

  it("produces byte-identical records for 300 random canonical requests, with splits over small limits", () => {
    const r = rng(15);
    let records = 0;
    let tooBig = 0;
    for (let n = 0; n < 300; n++) {
      const body = encodeTraceRequestProtobuf(randomModelRequest(r));
      const out = expectSameBytes(body, pick(r, [1_000_000, 4000, 1500, 900, 600]));
      if (out !== "malformed") {
        records += out.records.length;
        tooBig += out.rejected;
      }
    }
    expect(records).toBeGreaterThan(300);
    expect(tooBig).toBeGreaterThan(0);
  });

  it("decodes to what the old path produced when spans are non-canonical or invalid, scopes empty, headers absent, unknown fields anywhere", () => {
    const r = rng(42);
    const names = Object.keys(MUTATIONS);
    const invalid = Object.keys(INVALID);
    let rejected = 0;
    for (let n = 0; n < 300; n++) {
      const model = randomModelRequest(r);
      const raw: RawResource[] = model.resourceSpans.map((rs) => ({
        resource: r() < 0.2 ? null : resourceBytes(rs),
        ...(rs.schemaUrl ? { schemaUrl: rs.schemaUrl } : {}),
        ...(r() < 0.2 ? { extra: UNKNOWN_VARINT } : {}),
        scopes: rs.scopeSpans.map((ss) => ({
          scope: r() < 0.2 ? null : [...ld(1, str(ss.scope.name || "s")), ...(r() < 0.2 ? UNKNOWN_VARINT : [])],
          ...(ss.schemaUrl ? { schemaUrl: ss.schemaUrl } : {}),
          ...(r() < 0.2 ? { extra: ld(77, [1, 2, 3]) } : {}),
          spans: ss.spans.map((s) => {
            let b = spanBytes(s);
            if (r() < 0.4) b = MUTATIONS[pick(r, names)]!(b);
            if (r() < 0.15) b = INVALID[pick(r, invalid)]!(b);
            return b;
          }),
        })),
      }));
      const out = expectSameDecoded(rawRequest(raw, r() < 0.2 ? UNKNOWN_VARINT : []), 1_000_000);
      if (out !== "malformed") rejected += out.rejected;
    }
    expect(rejected).toBeGreaterThan(10);
  });

  it.each(Object.entries(MUTATIONS))("handles a span with %s like the old path", (_name, mutate) => {
    const t = "5b8efff798038103d269b633813fc60c";
    const body = rawRequest([{ resource: null, scopes: [{ scope: null, spans: [mutate(spanBytes(makeSpan(t))), spanBytes(makeSpan(t))] }, { spans: [] }] }]);
    const out = expectSameDecoded(body, 1_000_000);
    expect(out !== "malformed" && out.records.map((x) => x.key)).toEqual([t]);
  });

  it.each(Object.entries(INVALID))("rejects a span with %s naming the field as the decoder does", (_name, mutate) => {
    const t = "5b8efff798038103d269b633813fc60c";
    const body = rawRequest([{ resource: [], scopes: [{ scope: [], spans: [spanBytes(makeSpan(t)), mutate(spanBytes(makeSpan(t)))] }] }]);
    const out = expectSameDecoded(body, 1_000_000);
    expect(out !== "malformed" && out.rejected).toBe(1);
    expect(out !== "malformed" && out.errors[0]).toMatch(/^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[1\]\./);
  });

  it("rejects spans over the limits (attributes, events, links, value bytes, depth) as the decoder does, naming the same field", () => {
    const r = rng(39);
    let rejected = 0;
    const reasons = new Set<string>();
    for (let n = 0; n < 300; n++) {
      const limits: OtlpLimits = { maxItems: 1000, maxAttributes: pick(r, [1, 2, 3, 12]), maxValueBytes: pick(r, [50, 200, 1000]), maxDepth: pick(r, [1, 2, 3]) };
      const model = randomModelRequest(r);
      for (const rs of model.resourceSpans) rs.resource.attributes = [];
      for (const span of model.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans))) {
        if (r() < 0.3) span.events = Array.from({ length: 3 }, (_, i) => ({ ...makeSpan("").events[0]!, attributes: richAttributes().slice(0, i + 1) }));
        if (r() < 0.3) span.links = Array.from({ length: 3 }, (_, i) => ({ ...makeSpan("").links[0]!, attributes: richAttributes().slice(6, 7 + i) }));
      }
      const out = expectSameDecoded(encodeTraceRequestProtobuf(model), 1_000_000, limits);
      if (out !== "malformed") {
        rejected += out.rejected;
        for (const e of out.errors) reasons.add(e.replace(/^.*?spans\[\d+\]\./, "").replace(/[\d[\]]+/g, "#"));
      }
    }
    expect(rejected).toBeGreaterThan(100);
    // Every kind of limit was met (the messages, without indices and counts).
    const text = [...reasons].join("\n");
    for (const kind of ["RAGMETER_OTLP_MAX_ATTRIBUTES", "RAGMETER_OTLP_MAX_VALUE_BYTES", "RAGMETER_OTLP_MAX_VALUE_DEPTH", "events: #", "links: #", "links#.attributes"])
      expect(text).toContain(kind);
  });

  it("refuses malformed bodies exactly when the generated decoder does", () => {
    const good = encodeTraceRequestProtobuf(makeRequest());
    const t = "5b8efff798038103d269b633813fc60c";
    const badUtf8 = rawRequest([{ scopes: [{ spans: [[...spanBytes(makeSpan(t)), ...ld(5, [0xc3, 0x28])]] }] }]);
    const cases: Uint8Array[] = [badUtf8, new Uint8Array([0x0a, 0xff, 0xff, 0x01]), new Uint8Array([0x0a, 0x05, 0x01]), Uint8Array.from([...good, 0x0f])];
    for (let cut = 1; cut < good.length; cut += 37) cases.push(good.subarray(0, cut));
    let malformed = 0;
    for (const body of cases) if (expectSameDecoded(body, 1_000_000) === "malformed") malformed++;
    expect(malformed).toBeGreaterThan(5);
  });
});

// ---- bodies written by the SDKs' exporters (issue 38) ----

/** Spans of a body whose status is present but empty (code unset, no message), counted with the generated decoder. */
function emptyStatuses(body: Uint8Array): number {
  let n = 0;
  for (const rs of pb.ExportTraceServiceRequest.decode(body).resourceSpans)
    for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) if (s.status && !s.status.code && !s.status.message) n++;
  return n;
}

/**
 * What an instrumented Node service sends through @opentelemetry/exporter-trace-otlp-proto: spans
 * recorded by the SDK and serialized by its ProtobufTraceSerializer (the exporter's serializer).
 * Unset, error and ok statuses, events (an exception among them), links, attributes of every kind,
 * a remote parent, two scopes (one with a schema URL and attributes), a span without attributes.
 */
async function jsSdkBody(service: string, traces: number): Promise<Uint8Array> {
  const api = await import("@opentelemetry/api");
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
  const { defaultResource, resourceFromAttributes } = await import("@opentelemetry/resources");
  const { ProtobufTraceSerializer } = await import("@opentelemetry/otlp-transformer");
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ "service.name": service, "deployment.environment.name": "test" })),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const app = provider.getTracer("rag-app", "1.2.0", { schemaUrl: "https://opentelemetry.io/schemas/1.28.0" });
  const llm = provider.getTracer("openai-instrumentation");
  for (let n = 0; n < traces; n++) {
    const t = 1_764_480_000_000 + n * 1000;
    const root = app.startSpan("POST /ask", { kind: api.SpanKind.SERVER, startTime: t, attributes: { "http.request.method": "POST", "http.response.status_code": 200 } });
    const ctx = api.trace.setSpan(api.ROOT_CONTEXT, root);
    const retrieve = app.startSpan(
      "retrieve",
      {
        startTime: t + 1,
        attributes: {
          "gen_ai.operation.name": "retrieval",
          "gen_ai.retrieval.query.text": "Как повернуть ключи? 如何轮换密钥？ 🔑",
          "retrieval.top_k": 5,
          "retrieval.scores": [0.91, 0.82, 0.5],
          "retrieval.ids": ["doc-1#0", "doc-7#3", ""],
          "retrieval.hit": true,
          "retrieval.flags": [true, false],
          "retrieval.ranks": [1, 2, 3],
          empty: "",
        },
      },
      ctx,
    );
    retrieve.addEvent("chunks.loaded", { count: 3, source: "vector-store" }, t + 2);
    retrieve.end(t + 5);
    const chat = llm.startSpan(
      "chat gpt-4o-mini",
      {
        kind: api.SpanKind.CLIENT,
        startTime: t + 6,
        attributes: { "gen_ai.request.model": "gpt-4o-mini", "gen_ai.usage.input_tokens": 512, "gen_ai.request.temperature": 0.2 },
        links: [{ context: retrieve.spanContext(), attributes: { "link.kind": "context" } }],
      },
      ctx,
    );
    if (n % 2) {
      chat.recordException(new Error("rate limited"), t + 7);
      chat.setStatus({ code: api.SpanStatusCode.ERROR, message: "rate limited" });
    } else chat.setStatus({ code: api.SpanStatusCode.OK });
    chat.end(t + 9);
    app.startSpan("bare", { startTime: t + 9 }, ctx).end(t + 9);
    root.end(t + 10);
    const remote = api.trace.setSpanContext(api.ROOT_CONTEXT, {
      traceId: `0af7651916cd43dd8448eb211c8031${(n + 16).toString(16)}`,
      spanId: "b7ad6b7169203331",
      traceFlags: 1,
      isRemote: true,
    });
    app.startSpan("consume", { kind: api.SpanKind.CONSUMER, startTime: t + 11 }, remote).end(t + 12);
  }
  const body = ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans());
  await provider.shutdown();
  if (!body) throw new Error("the serializer wrote nothing");
  return body;
}

/** Bodies from tests/fixtures/otlp-sdk/python-sdk-bodies.json (written by the Python SDK's exporter; its script says how). */
function pythonSdkBodies(): Uint8Array[] {
  const doc = JSON.parse(readFileSync(join(import.meta.dirname, "..", "fixtures", "otlp-sdk", "python-sdk-bodies.json"), "utf8")) as { bodies: string[] };
  return doc.bodies.map((b) => new Uint8Array(Buffer.from(b, "base64")));
}

/**
 * The fast path on `body`: records that decode as the re-encoding path's, every span copied (none
 * re-encoded), each empty status left out. Under small record limits the copied spans are longer than
 * their re-encodings (SDKs write zero counts and flags the model leaves out), so which spans are too
 * big differs from the old path: there every record is within the limit and every span is in one or refused.
 */
function expectFastPath(body: Uint8Array): void {
  expect(expectSameDecoded(body, 1_000_000)).not.toBe("malformed");
  for (const maxBytes of [1_000_000, 2000, 700]) {
    const s = splitTraceRequestProtobuf(body, maxBytes, DEFAULT_OTLP_LIMITS)!;
    expect(s.reencoded).toBe(0);
    expect(s.trimmed).toBe(emptyStatuses(body) - s.invalid);
    for (const r of s.records) expect(r.value.length).toBeLessThanOrEqual(maxBytes);
    expect(s.records.reduce((n, r) => n + r.items, 0) + s.rejected).toBe(s.total);
  }
}

describe("the splitter on bodies written by the SDKs' exporters (issue 38)", () => {
  it("keeps the fast path on the JS SDK's bodies (exporter-trace-otlp-proto's serializer): same records as re-encoding, no span re-encoded", async () => {
    const a = await jsSdkBody("rag-api", 3);
    const b = await jsSdkBody("rag-worker", 2);
    for (const body of [a, b, Uint8Array.from([...a, ...b])]) expectFastPath(body);
    expect(emptyStatuses(a)).toBe(3 * 4); // per trace: root, retrieve, bare, consume
  });

  it("keeps the fast path on the Python SDK's bodies (exporter-otlp-proto-http's encode_spans)", () => {
    const bodies = pythonSdkBodies();
    expect(bodies.length).toBe(3);
    for (const body of bodies) expectFastPath(body);
    expect(emptyStatuses(bodies[0]!)).toBe(3 * 4);
  });

  it("keeps the fast path on bench:peer's SDK bodies (both shapes)", async () => {
    const { bodyContent, sdkJsBodies } = await import("../../bench/lib/sdk-bodies.mjs");
    for (const shape of ["small", "prod"]) for (const body of await sdkJsBodies(bodyContent({ requests: 2, shape }))) expectFastPath(body);
  });

  it("re-encodes a span whose merged statuses are empty but given twice, and copies one whose later empty status merges into a set one", () => {
    const t = "5b8efff798038103d269b633813fc60c";
    const twice = (s: number[]) => [...s, ...ld(15, []), ...ld(15, [...varint((3 << 3) | 0), 0])];
    const merged = (s: number[]) => [...s, ...ld(15, [...varint((3 << 3) | 0), 2]), ...ld(15, [])];
    for (const [mutate, reencoded] of [
      [twice, 1],
      [merged, 0],
    ] as const) {
      const body = rawRequest([{ resource: [], scopes: [{ scope: [], spans: [mutate(spanBytes(makeSpan(t))), spanBytes(makeSpan(t))] }] }]);
      expectSameDecoded(body, 1_000_000);
      const s = splitTraceRequestProtobuf(body, 1_000_000, DEFAULT_OTLP_LIMITS)!;
      expect([s.reencoded, s.trimmed]).toEqual([reencoded, 0]);
    }
  });
});

describe("counting items before decoding (issue 39)", () => {
  it("stops as soon as a count passes the bound, and counts exactly below it", async () => {
    const { countProtobufItems } = await import("../../otlp/src/count.js");
    // ExportTraceServiceRequest { resource_spans (1) { scope_spans (2) { spans (2) × n, each empty } } }, written by hand
    const request = (n: number) => {
      const spans = Buffer.concat(Array.from({ length: n }, () => Buffer.from([0x12, 0x00])));
      const scope = Buffer.concat([Buffer.from([0x12, ...varint(spans.length)]), spans]);
      return new Uint8Array(Buffer.concat([Buffer.from([0x0a, ...varint(scope.length)]), scope]));
    };
    expect(countProtobufItems(request(1000))).toEqual({ items: 1000, containers: 2, complete: true });
    expect(countProtobufItems(request(1000), 1000)).toEqual({ items: 1000, containers: 2, complete: true });
    expect(countProtobufItems(request(1000), 10)).toEqual({ items: 11, containers: 2, complete: false });
    expect(countProtobufItems(request(1000).subarray(0, 50))).toBeNull();
  });

  it("counts what protobufjs' generated decoder finds, on 300 random requests (unknown fields and a group added)", async () => {
    const { countProtobufItems } = await import("../../otlp/src/count.js");
    const r = rng(20261206);
    for (let i = 0; i < 300; i++) {
      const body = encodeTraceRequestProtobuf(randomModelRequest(r));
      // an unknown varint field, an unknown fixed64 and an unknown group (field 99) at the request's level
      const extra = Buffer.from([0xa8, 0x06, 0x96, 0x01, 0xa1, 0x06, 1, 2, 3, 4, 5, 6, 7, 8, 0x9b, 0x06, 0x08, 0x01, 0x9c, 0x06]);
      const withUnknown = new Uint8Array(Buffer.concat([Buffer.from(body), extra]));
      const decoded = opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.decode(withUnknown);
      const spans = decoded.resourceSpans.reduce((a, rs) => a + (rs.scopeSpans ?? []).reduce((b, ss) => b + (ss.spans ?? []).length, 0), 0);
      const containers = decoded.resourceSpans.reduce((a, rs) => a + 1 + (rs.scopeSpans ?? []).length, 0);
      expect(countProtobufItems(withUnknown), `request ${i}`).toEqual({ items: spans, containers, complete: true });
    }
  });
});
