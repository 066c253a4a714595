// Online-evaluation controls on the live path (issue 38, deliverable 3): the streaming scorer on the
// real broker and the embedded ClickHouse engine, with the LLM judge (the real `openai` client) against
// the scripted OpenAI-compatible server. Sampling per service by a hash of the trace id (the same on a
// second replica), the judge budget per service (`budget_exhausted`), judge failures counted by kind,
// and spans whose SDK dropped attributes (the real OpenTelemetry SDK and proto exporter through the
// real collector), counted per service with one warning each.
import { createHash, randomUUID } from "node:crypto";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectorConfigSchema } from "../../collector/src/config.js";
import { startCollector } from "../../collector/src/server.js";
import { createLlmJudge, type LlmJudgeOptions } from "../../core/src/judges/llm/llmJudge.js";
import { JudgeBudget } from "../../core/src/scoring/budget.js";
import type { BytesProducer } from "../../kafka/src/index.js";
import type { Store } from "../../store/src/client.js";
import type { ConsumerLogger } from "../../stream/src/consumer.js";
import type { ScoringSettings } from "../../stream/src/loop.js";
import { type ScorerService, startScorerService } from "../../stream/src/service.js";
import { BROKER, createTopic } from "../helpers/collector-kafka-helpers.js";
import { type KafkaEngine, openKafkaEngine } from "../helpers/kafkaEngine.js";
import { type RecordedRequest, type ScriptedReply, startFakeOpenAI } from "../helpers/openaiServer.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { DOCS as docs, rows, sender, waitFor } from "../helpers/streaming.js";

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const QUIET = 800;
const ANSWER = "PostgreSQL listens on port 5432.";
const GOOD = JSON.stringify({ verdicts: [{ verdict: "SUPPORTED", chunk_ids: ["kb/ports.md#1"] }] });

/** The judge's replies: a question holding a marker gets that failure, every other a good reply. */
function script(req: RecordedRequest): ScriptedReply {
  const system = req.body.messages[0]?.content ?? "";
  const user = req.body.messages[1]?.content ?? "";
  if (user.includes("[503]")) return { status: 503, body: JSON.stringify({ error: { message: "overloaded" } }) };
  if (user.includes("[401]")) return { status: 401, body: JSON.stringify({ error: { message: "Incorrect API key provided" } }) };
  if (user.includes("[garbage]")) return { content: "I cannot answer in JSON today." };
  if (user.includes("[slow]")) return { content: '{"score": 4, "reason": "late"}', delayMs: 2_500 };
  return system.startsWith("You rate") ? { content: '{"score": 4, "reason": "answers it"}' } : { content: GOOD };
}

let engine: KafkaEngine;
let producer: BytesProducer;
let judgeServer: Awaited<ReturnType<typeof startFakeOpenAI>>;
beforeAll(async () => {
  engine = await openKafkaEngine("ragmeter-online-controls-");
  producer = engine.producer;
  judgeServer = await startFakeOpenAI(script);
});
afterAll(async () => {
  await judgeServer?.close();
  await engine?.close();
});

const llmJudge = (o: Partial<LlmJudgeOptions> = {}) => createLlmJudge({ baseURL: judgeServer.baseURL, apiKey: "test", model: "judge-1", timeoutMs: 5_000, maxRetries: 0, ...o });

async function startService(store: Store, topic: string, scoring: Partial<ScoringSettings>, log: ConsumerLogger = silent): Promise<ScorerService> {
  return startScorerService({
    store,
    stream: { brokers: [BROKER], topic, quietMs: QUIET, liveSampleRate: 1, groupId: `g-${randomUUID()}`, sessionTimeoutMs: 6000, concurrency: 4 },
    consume: true,
    log,
    scoring: { judge: llmJudge(), ks: [1, 5], quietMs: QUIET, liveSampleRate: 1, concurrency: 4, batchSize: 100, ...scoring },
    intervalMs: 200,
    consumer: { maxWaitTimeMs: 200 },
  });
}

/** Sends one RAG trace of `service` asking `question`; returns its id. */
async function sendTrace(topic: string, service: string, question: string, id = traceId()): Promise<string> {
  const { retrieval, generation } = ragSpans({ traceId: id, question, docs, answer: ANSWER });
  await sender(producer)(topic, id, protobufOf(traceRequest([retrieval, generation], service)));
  return id;
}

/** Per trace: its grounding and relevance status, and the grounding reason (scores FINAL). */
async function statuses(store: Store): Promise<Map<string, { grounding: string; relevance: string; reason: string }>> {
  const r = await rows<{ trace_id: string; metric: string; status: string; reason: string }>(
    store,
    "SELECT trace_id, metric, status, reason FROM DB.scores FINAL WHERE metric IN ('grounding', 'relevance')",
  );
  const out = new Map<string, { grounding: string; relevance: string; reason: string }>();
  for (const x of r) {
    const cur = out.get(x.trace_id) ?? { grounding: "", relevance: "", reason: "" };
    out.set(x.trace_id, x.metric === "grounding" ? { ...cur, grounding: x.status, reason: x.reason } : { ...cur, relevance: x.status });
  }
  return out;
}

const interactions = async (store: Store): Promise<number> => Number((await rows<{ c: string }>(store, "SELECT count() AS c FROM DB.interactions FINAL"))[0]?.c ?? 0);

/** Independent of core/src/scoring/sampling.ts: SHA-256 of the id, first 4 bytes big-endian, over 2^32, below the rate. */
const expectedIn = (id: string, rate: number): boolean => createHash("sha256").update(id).digest().readUInt32BE(0) / 2 ** 32 < rate;

describe("judge sampling per service and the judge budget on the live path", () => {
  it("rates 1 / 0 / 0.5 per service decide by the trace id's hash (a second replica decides the same); a service over its calls budget gets budget_exhausted, counted", async () => {
    const { topic, drop } = await createTopic(3);
    const store = await engine.freshStore();
    const sampling = { liveSampleRate: 0.5, liveSampleRates: { all: 1, none: 0, capped: 1 } };
    const budget = () => new JudgeBudget({ calls: { perService: null, byService: { capped: 4 } }, tokens: { perService: null } });
    const before = judgeServer.requests.length;
    const svc = await startService(store, topic, { ...sampling, budget: budget() });
    const sent: { id: string; service: string }[] = [];
    try {
      for (const service of ["all", "all", "all", "none", "none", "none", "capped", "capped", "capped", "capped", "capped"]) {
        sent.push({ id: await sendTrace(topic, service, "Which port does Postgres listen on?"), service });
      }
      for (let n = 0; n < 16; n++) sent.push({ id: await sendTrace(topic, "half", "Which port does Postgres listen on?"), service: "half" });
      await waitFor(async () => (await interactions(store)) === sent.length, 60_000);
      const got = await statuses(store);
      const half = sent.filter((t) => t.service === "half");
      const halfIn = half.filter((t) => expectedIn(t.id, 0.5)).length;
      for (const t of sent) {
        const s = got.get(t.id);
        if (t.service === "all" || (t.service === "half" && expectedIn(t.id, 0.5))) expect(s, t.service).toMatchObject({ grounding: "ok", relevance: "ok" });
        else if (t.service === "none" || t.service === "half") {
          expect(s).toMatchObject({ grounding: "not_sampled", relevance: "not_sampled" });
          expect(s?.reason).toMatch(
            t.service === "none"
              ? /^live trace outside the judge sampling rate 0 of service "none" \(RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE\)$/u
              : /^live trace outside the judge sampling rate 0\.5 \(RAGMETER_LIVE_SAMPLE_RATE\)$/u,
          );
        }
      }
      // capped: 2 calls per trace, cap 4: two traces judged, three budget_exhausted, whichever came first
      const capped = sent.filter((t) => t.service === "capped").map((t) => got.get(t.id));
      expect(capped.filter((s) => s?.grounding === "ok" && s.relevance === "ok")).toHaveLength(2);
      const exhausted = capped.filter((s) => s?.grounding === "budget_exhausted" && s.relevance === "budget_exhausted");
      expect(exhausted).toHaveLength(3);
      for (const s of exhausted)
        expect(s?.reason).toMatch(/^judge budget of 4 calls per hour used by service "capped" \(\d+ in the last 60 minutes.*; RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE\)$/u);
      // judge requests: 2 per judged trace (3 all, halfIn half, 2 capped)
      expect(judgeServer.requests.length - before).toBe(2 * (3 + halfIn + 2));
      // a batch's traces are counted once its write resolved, a moment after the rows are readable
      const skipped = 6 + 2 * (3 + half.length - halfIn);
      await waitFor(async () => {
        const k = svc.stats().judge_skipped;
        return (k.budget_exhausted ?? 0) + (k.not_sampled ?? 0) >= skipped;
      }, 10_000).catch(() => undefined);
      const stats = svc.stats();
      expect(stats.judge_skipped.budget_exhausted).toBe(6);
      expect(stats.judge_skipped.not_sampled).toBe(2 * (3 + half.length - halfIn));
      expect(stats.judge_errors).toEqual({});
    } finally {
      await svc.stop();
    }
    // the stats row of the minute carries the budget count (migration 9)
    const row = await rows<{ b: string }>(store, "SELECT sum(judge_skipped_budget_exhausted) AS b FROM DB.ingestion_stats FINAL");
    expect(row).toEqual([{ b: "6" }]);
    // a second replica (another group, another store) reads the same topic and decides the same
    const again = await engine.freshStore();
    const replica = await startService(again, topic, { ...sampling, budget: budget() });
    try {
      await waitFor(async () => (await interactions(again)) === sent.length, 60_000);
      const first = await statuses(store);
      const second = await statuses(again);
      const sampled = (m: typeof first) => sent.filter((t) => t.service !== "capped").map((t) => `${t.id} ${m.get(t.id)?.grounding}`);
      expect(sampled(second)).toEqual(sampled(first));
    } finally {
      await replica.stop();
      await drop();
    }
  });
});

describe("judge failures counted by kind", () => {
  it("503, 401, a reply that is no JSON and a reply slower than the budget: each judgment's judge_error counted under its kind, in the stats and ingestion_stats", async () => {
    const { topic, drop } = await createTopic(3);
    const store = await engine.freshStore();
    const warned: string[] = [];
    const svc = await startService(store, topic, { judge: llmJudge({ timeoutMs: 1_500 }) }, { ...silent, warn: (msg) => warned.push(msg) });
    try {
      for (const marker of ["[503]", "[401]", "[garbage]", "[slow]"]) await sendTrace(topic, "flaky", `Which port does Postgres listen on? ${marker}`);
      await sendTrace(topic, "flaky", "Which port does Postgres listen on?");
      await waitFor(async () => (await interactions(store)) === 5, 60_000);
      // counted once the scoring write is done: its interactions come first, the live rows after them
      await waitFor(async () => Object.values(svc.stats().judge_errors).reduce((a, b) => a + b, 0) >= 8, 10_000);
      // grounding and relevance of each failing trace
      expect(svc.stats().judge_errors).toEqual({ server_error: 2, refused: 2, bad_reply: 2, timeout: 2 });
      // one warning per kind, with the first reason of that kind
      expect(warned.filter((w) => w.startsWith("judge failing (")).sort()).toEqual([
        expect.stringMatching(/^judge failing \(bad_reply\): .*\(after 2 attempts\); counted by kind in the progress log's judge_errors and ingestion_stats\.judge_errors$/u),
        expect.stringMatching(/^judge failing \(refused\): judge call failed: 401 /u),
        expect.stringMatching(/^judge failing \(server_error\): judge call failed: 503 /u),
        expect.stringMatching(/^judge failing \(timeout\): timed out: the judgment used its time budget of 1500 ms \(RAGMETER_JUDGE_TIMEOUT_MS\)/u),
      ]);
      const st = [...(await statuses(store)).values()].map((s) => `${s.grounding}/${s.relevance}`).sort();
      expect(st).toEqual(["judge_error/judge_error", "judge_error/judge_error", "judge_error/judge_error", "judge_error/judge_error", "ok/ok"]);
    } finally {
      await svc.stop();
      await drop();
    }
    const kinds = await rows<{ kind: string; n: string }>(
      store,
      "SELECT kind, sum(n) AS n FROM DB.ingestion_stats FINAL ARRAY JOIN mapKeys(judge_errors) AS kind, mapValues(judge_errors) AS n GROUP BY kind ORDER BY kind",
    );
    expect(kinds).toEqual([
      { kind: "bad_reply", n: "2" },
      { kind: "refused", n: "2" },
      { kind: "server_error", n: "2" },
      { kind: "timeout", n: "2" },
    ]);
  });
});

describe("spans whose SDK dropped attributes", () => {
  it("the real SDK with a 4-attribute limit, exported by the proto exporter through the collector: counted per service, one warning naming OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT", async () => {
    const { topic, drop } = await createTopic(3);
    const store = await engine.freshStore();
    const collector = await startCollector(collectorConfigSchema.parse({ host: "127.0.0.1", port: 0, brokers: [BROKER], topic, sendTimeoutMs: 5_000 }));
    const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
    const svc = await startService(store, topic, {}, { ...silent, warn: (msg, fields) => warnings.push({ msg, ...(fields ? { fields } : {}) }) });
    const provider = (service: string, limit?: number) =>
      new BasicTracerProvider({
        resource: resourceFromAttributes({ "service.name": service }),
        ...(limit !== undefined ? { spanLimits: { attributeCountLimit: limit } } : {}),
        spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${collector.url}/v1/traces` }))],
      });
    const limited = provider("rag-limited", 4);
    const roomy = provider("rag-roomy");
    try {
      for (const p of [limited, limited, limited, roomy]) {
        const span = p.getTracer("test").startSpan("retrieve");
        // 10 attributes (6 dropped at a limit of 4), as a retrieval of chunks records them
        for (let k = 0; k < 10; k++) span.setAttribute(`retrieval.documents.${k}.document.id`, `doc-${k}`);
        span.end();
        await p.forceFlush();
      }
      await waitFor(async () => svc.stats().spans >= 4, 30_000);
      expect(svc.stats().spans_attributes_dropped).toEqual({ "rag-limited": 3 });
      const lines = warnings.filter((w) => w.msg.includes("dropped"));
      expect(lines).toHaveLength(1);
      expect(lines[0]?.msg).toBe(
        'service "rag-limited" sends spans whose attributes its OpenTelemetry SDK dropped (6 on span "retrieve"): raise OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT (or OTEL_ATTRIBUTE_COUNT_LIMIT; the SDK default is 128) in that service, or retrieved documents and messages past the limit are lost before ragmeter sees them',
      );
    } finally {
      await limited.shutdown();
      await roomy.shutdown();
      await svc.stop();
      await collector.close();
      await drop();
    }
    const dropped = await rows<{ service: string; n: string }>(
      store,
      "SELECT service, sum(n) AS n FROM DB.ingestion_stats FINAL ARRAY JOIN mapKeys(spans_attributes_dropped) AS service, mapValues(spans_attributes_dropped) AS n GROUP BY service",
    );
    expect(dropped).toEqual([{ service: "rag-limited", n: "3" }]);
  });
});
