// The request bodies bench:peer sends (issue 38): one content — requests of 10 traces × 10 GenAI
// spans — encoded three ways, so that the body sets differ only in how they were written:
//   ragmeter    ragmeter's own codec (@ragmeter/otlp encodeTraceRequest), as bench:peer always sent
//   sdk-js      the OpenTelemetry JS SDK: spans recorded by sdk-trace-base's BasicTracerProvider and
//               serialized by ProtobufTraceSerializer (@opentelemetry/otlp-transformer), which is what
//               @opentelemetry/exporter-trace-otlp-proto posts
//   sdk-python  the OpenTelemetry Python SDK: spans recorded by its TracerProvider and serialized as
//               opentelemetry-exporter-otlp-proto-http posts them (bench/lib/sdk_bodies.py, run with
//               the interpreter of scripts/python-env.mjs; cached in .ragmeter/bench/, see pythonBodies)
//
// Shapes: `prod` (default) gives the spans production-sized attributes — retrievals carry 5 passages of
// 700–900 characters as `gen_ai.retrieval.documents` JSON, chats their input and output messages —
// `small` the six short attributes bench:peer sent before issue 38. Everything is deterministic from
// the seed (ids included), so each set holds the same traces.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { chunkText, createProdCorpus } from "./prod-traces.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BODY_SETS = Object.freeze(["ragmeter", "sdk-js", "sdk-python"]);
export const SHAPES = Object.freeze(["prod", "small"]);
const SCOPE = Object.freeze({ name: "ragmeter-bench", version: "1" });
const T0 = 1_764_480_000_000_000_000n;

const hex = (rng, bytes) => {
  let s = "";
  for (let i = 0; i < bytes; i++) s += uniformInt(rng, 0, 255).toString(16).padStart(2, "0");
  return s;
};

/**
 * The content of `requests` requests of `traces` × `spansPerTrace` spans: plain data (JSON-safe;
 * 64-bit integers as `{int: "…"}`, times as decimal strings of nanoseconds), spans of a trace in the
 * order they end (children, then the root).
 */
export function bodyContent({ requests, traces = 10, spansPerTrace = 10, shape = "prod", seed = 38 }) {
  if (!SHAPES.includes(shape)) throw new Error(`shape must be one of ${SHAPES.join(", ")}, got ${shape}`);
  const rng = xoroshiro128plus(seed);
  const corpus = shape === "prod" ? createProdCorpus({ seed, chunks: 400, documents: 40, chunkChars: [700, 900], languages: { en: 1 } }) : undefined;
  const passage = () => corpus.chunks[uniformInt(rng, 0, corpus.chunks.length - 1)];
  const out = [];
  for (let q = 0; q < requests; q++) {
    const request = { resource: { "service.name": "bench-rag", "deployment.environment.name": "bench" }, traces: [] };
    for (let t = 0; t < traces; t++) {
      const traceId = hex(rng, 16);
      const rootId = hex(rng, 8);
      const spans = [];
      for (let i = 0; i < spansPerTrace; i++) {
        const kind = i === 0 ? "root" : i % 3 === 1 ? "retrieve" : "chat";
        const attributes = [
          ["gen_ai.operation.name", kind === "retrieve" ? "retrieval" : "chat"],
          ["gen_ai.request.model", "gpt-4o-mini"],
          ["gen_ai.usage.input_tokens", { int: "512" }],
          ["gen_ai.usage.output_tokens", { int: "128" }],
          ["ragmeter.pipeline.version", "v42"],
          ["gen_ai.retrieval.query.text", "How do I rotate the signing keys of the payments service without downtime?"],
        ];
        if (corpus && kind === "retrieve") {
          const docs = Array.from({ length: 5 }, (_, k) => {
            const c = passage();
            return { id: c.id, score: Number((0.9 - k * 0.07).toFixed(2)), content: chunkText(c) };
          });
          attributes.push(["gen_ai.retrieval.documents", JSON.stringify(docs)]);
        }
        if (corpus && kind === "chat") {
          const context = chunkText(passage());
          attributes.push(["gen_ai.request.temperature", 0.2]);
          attributes.push([
            "gen_ai.input.messages",
            JSON.stringify([
              { role: "system", parts: [{ type: "text", content: "Answer from the context only; say when it does not say." }] },
              { role: "user", parts: [{ type: "text", content: `Context:\n${context}\n\nQuestion: How do I rotate the signing keys of the payments service without downtime?` }] },
            ]),
          ]);
          attributes.push([
            "gen_ai.output.messages",
            JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: chunkText(passage()).slice(0, 400) }], finish_reason: "stop" }]),
          ]);
        }
        spans.push({
          spanId: i === 0 ? rootId : hex(rng, 8),
          parentSpanId: i === 0 ? "" : rootId,
          name: kind === "root" ? "rag.query" : kind,
          kind: kind === "root" ? 2 : kind === "retrieve" ? 1 : 3, // OTLP SpanKind: SERVER, INTERNAL, CLIENT
          start: String(T0 + BigInt(q * 1_000_000_000 + t * 10_000_000 + i * 1_000_000)),
          end: String(T0 + BigInt(q * 1_000_000_000 + t * 10_000_000 + 50_000_000 + i * 1_000_000)),
          attributes,
        });
      }
      request.traces.push({ traceId, spans: [...spans.slice(1), spans[0]] });
    }
    out.push(request);
  }
  return { scope: SCOPE, requests: out };
}

const anyValue = (v) =>
  typeof v === "string" ? { stringValue: v } : typeof v === "number" ? { doubleValue: v } : typeof v === "boolean" ? { boolValue: v } : { intValue: BigInt(v.int) };

/** The content's requests encoded by ragmeter's codec (`codec` = @ragmeter/otlp from otlp/dist). */
export function ragmeterBodies(codec, content) {
  return content.requests.map((request) =>
    Buffer.from(
      codec.encodeTraceRequest({
        resourceSpans: [
          {
            resource: { attributes: Object.entries(request.resource).map(([key, v]) => ({ key, value: anyValue(v) })), droppedAttributesCount: 0, entityRefs: [] },
            schemaUrl: "",
            scopeSpans: [
              {
                scope: { ...content.scope, attributes: [], droppedAttributesCount: 0 },
                schemaUrl: "",
                spans: request.traces.flatMap((t) =>
                  t.spans.map((s) => ({
                    traceId: t.traceId,
                    spanId: s.spanId,
                    traceState: "",
                    parentSpanId: s.parentSpanId,
                    flags: 1,
                    name: s.name,
                    kind: s.kind,
                    startTimeUnixNano: BigInt(s.start),
                    endTimeUnixNano: BigInt(s.end),
                    attributes: s.attributes.map(([key, v]) => ({ key, value: anyValue(v) })),
                    droppedAttributesCount: 0,
                    events: [],
                    droppedEventsCount: 0,
                    links: [],
                    droppedLinksCount: 0,
                    status: { code: 0, message: "" },
                  })),
                ),
              },
            ],
          },
        ],
      }),
    ),
  );
}

const hrTime = (ns) => [Number(BigInt(ns) / 1_000_000_000n), Number(BigInt(ns) % 1_000_000_000n)];

/** The content's requests as the OpenTelemetry JS SDK's proto exporter serializes them. */
export async function sdkJsBodies(content) {
  const api = await import("@opentelemetry/api");
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
  const { defaultResource, resourceFromAttributes } = await import("@opentelemetry/resources");
  const { ProtobufTraceSerializer } = await import("@opentelemetry/otlp-transformer");
  const kinds = { 1: api.SpanKind.INTERNAL, 2: api.SpanKind.SERVER, 3: api.SpanKind.CLIENT };
  const bodies = [];
  for (const request of content.requests) {
    const ids = { trace: [], span: [] };
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource: defaultResource().merge(resourceFromAttributes(request.resource)),
      idGenerator: { generateTraceId: () => ids.trace.shift(), generateSpanId: () => ids.span.shift() },
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer(content.scope.name, content.scope.version);
    for (const t of request.traces) {
      const started = new Map();
      for (const s of [...t.spans].sort((a, b) => (a.parentSpanId === "" ? 0 : 1) - (b.parentSpanId === "" ? 0 : 1))) {
        ids.span.push(s.spanId);
        let ctx = api.ROOT_CONTEXT;
        if (s.parentSpanId === "") ids.trace.push(t.traceId);
        else ctx = api.trace.setSpan(ctx, started.get(s.parentSpanId));
        const attributes = Object.fromEntries(s.attributes.map(([k, v]) => [k, typeof v === "object" ? Number(v.int) : v]));
        started.set(s.spanId, tracer.startSpan(s.name, { kind: kinds[s.kind], attributes, startTime: hrTime(s.start) }, ctx));
      }
      for (const s of t.spans) started.get(s.spanId).end(hrTime(s.end));
    }
    bodies.push(Buffer.from(ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans())));
    await provider.shutdown();
  }
  return bodies;
}

/**
 * The content's requests as the OpenTelemetry Python SDK's OTLP/HTTP exporter serializes them,
 * produced once by bench/lib/sdk_bodies.py and kept in `.ragmeter/bench/` under a name that hashes
 * the content, the script and the Python requirements (so any change produces them again).
 * @param {{python: string, log?: (m: string) => void}} options
 */
export function pythonBodies(content, { python, log = () => {} }) {
  const script = join(root, "bench", "lib", "sdk_bodies.py");
  const input = JSON.stringify(content);
  const hash = createHash("sha256")
    .update(input)
    .update(readFileSync(script))
    .update(readFileSync(join(root, "tests", "python", "requirements.txt")))
    .digest("hex")
    .slice(0, 16);
  const file = join(root, ".ragmeter", "bench", `peer-bodies-python-${hash}.bin`);
  if (!existsSync(file)) {
    const started = Date.now();
    const r = spawnSync(python, [script], { input, maxBuffer: 1 << 30, stdio: ["pipe", "pipe", "pipe"] });
    if (r.error || r.status !== 0)
      throw new Error(`${python} ${script} failed (${r.error?.message ?? `exit ${r.status}`}): ${String(r.stderr).trim().split("\n").slice(-5).join(" | ")}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, r.stdout);
    renameSync(`${file}.tmp`, file);
    log(`Python SDK bodies written to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const all = readFileSync(file);
  const bodies = [];
  for (let pos = 0; pos < all.length; ) {
    const n = all.readUInt32BE(pos);
    bodies.push(all.subarray(pos + 4, pos + 4 + n));
    pos += 4 + n;
  }
  if (bodies.length !== content.requests.length) throw new Error(`${file} holds ${bodies.length} bodies, expected ${content.requests.length}: delete it`);
  return bodies;
}
