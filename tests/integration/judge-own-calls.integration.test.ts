// The judge's own LLM calls are never judged (issue 38, design §10 `ragmeter.judge.call`): an
// OpenTelemetry SDK registered in the judge's process with OpenInference's `openai` instrumentation
// (as a `--target-module` pipeline or zero-code instrumentation would) records each judge request;
// its span is the child of the judge's root span `ragmeter.judge`, so the trace carries the marker.
// Exported by the real proto exporter through the real collector and Kafka, the streaming scorer
// (with the same LLM judge) stores the trace, counts it and calls no judge on it.
import { randomUUID } from "node:crypto";
import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectorConfigSchema } from "../../collector/src/config.js";
import { type RunningCollector, startCollector } from "../../collector/src/server.js";
import { createLlmJudge } from "../../core/src/judges/llm/llmJudge.js";
import { judgeRelevance } from "../../core/src/judges/types.js";
import { startScorerService } from "../../stream/src/service.js";
import { BROKER, createTopic } from "../helpers/collector-kafka-helpers.js";
import { type KafkaEngine, openKafkaEngine } from "../helpers/kafkaEngine.js";
import { startFakeOpenAI } from "../helpers/openaiServer.js";
import { rows, waitFor } from "../helpers/streaming.js";

const silent = { info: () => {}, warn: () => {}, error: () => {} };

let engine: KafkaEngine;
let judgeServer: Awaited<ReturnType<typeof startFakeOpenAI>>;
let collector: RunningCollector;
let topic: string;
let drop: () => Promise<void>;
let provider: BasicTracerProvider;
let instrumentation: OpenAIInstrumentation;
const memory = new InMemorySpanExporter();

beforeAll(async () => {
  engine = await openKafkaEngine("ragmeter-judge-own-");
  judgeServer = await startFakeOpenAI(() => ({ content: '{"score": 4, "reason": "answers it"}' }));
  ({ topic, drop } = await createTopic(3));
  collector = await startCollector(collectorConfigSchema.parse({ host: "127.0.0.1", port: 0, brokers: [BROKER], topic, sendTimeoutMs: 5_000 }));
  // The user's SDK in the judge's process: registered globally, OpenInference patching the `openai`
  // module the judge uses (core's own copy, its ES module build).
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "ragmeter-judge-host" }),
    spanProcessors: [new SimpleSpanProcessor(memory), new BatchSpanProcessor(new OTLPTraceExporter({ url: `${collector.url}/v1/traces` }))],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  instrumentation = new OpenAIInstrumentation({ tracerProvider: provider });
  // the module namespace (its `OpenAI` export is what the instrumentation patches), typed as the instrumentation's own copy
  const openai = (await import("../../core/node_modules/openai/index.mjs")) as unknown as Parameters<OpenAIInstrumentation["manuallyInstrument"]>[0];
  instrumentation.manuallyInstrument(openai);
});
afterAll(async () => {
  instrumentation?.disable();
  await provider?.shutdown();
  trace.disable();
  context.disable();
  await collector?.close();
  await drop?.();
  await judgeServer?.close();
  await engine?.close();
});

describe("the judge's own LLM calls", () => {
  it("an instrumented judge request is a child of the judge's root span carrying ragmeter.judge.call; the scorer stores that trace and never judges it", async () => {
    const judge = createLlmJudge({ baseURL: judgeServer.baseURL, apiKey: "test", model: "judge-1", timeoutMs: 5_000, maxRetries: 0 });
    const r = await judgeRelevance(judge, { question: "Which port?", answer: "Port 5432.", answerable: true });
    expect(r.status).toBe("ok");
    const spans = memory.getFinishedSpans();
    const root = spans.find((s) => s.name === "ragmeter.judge");
    const llm = spans.find((s) => s.name !== "ragmeter.judge");
    expect(root?.attributes["ragmeter.judge.call"]).toBe(true);
    expect(root?.parentSpanContext).toBeUndefined();
    // OpenInference's LLM span of the request, in the judge's trace under its root span
    expect(llm?.attributes["openinference.span.kind"]).toBe("LLM");
    expect(llm?.spanContext().traceId).toBe(root?.spanContext().traceId);
    expect(llm?.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
    const judgeTrace = root?.spanContext().traceId as string;
    await provider.forceFlush();

    // the streaming scorer (an LLM judge of its own, same server) reads the collector's topic
    const store = await engine.freshStore();
    const requests = judgeServer.requests.length;
    const svc = await startScorerService({
      store,
      stream: { brokers: [BROKER], topic, quietMs: 500, liveSampleRate: 1, groupId: `g-${randomUUID()}`, sessionTimeoutMs: 6000, concurrency: 2 },
      consume: true,
      log: silent,
      scoring: { judge, ks: [1], quietMs: 500, liveSampleRate: 1, concurrency: 2, batchSize: 100 },
      intervalMs: 200,
      consumer: { maxWaitTimeMs: 200 },
    });
    try {
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL WHERE trace_id = {t: String}", { t: judgeTrace })).length > 0, 30_000);
      // the pass counts the trace just after its rows are written: wait for the count too
      await waitFor(async () => svc.stats().judge_own_traces > 0, 10_000);
      expect(svc.stats().judge_own_traces).toBe(1);
      const stored = await rows<{ n: string }>(store, "SELECT count() AS n FROM DB.spans FINAL WHERE trace_id = {t: String}", { t: judgeTrace });
      expect(stored).toEqual([{ n: "2" }]);
      const scores = await rows<{ metric: string; status: string; reason: string }>(
        store,
        "SELECT metric, status, reason FROM DB.scores FINAL WHERE trace_id = {t: String} AND metric IN ('grounding', 'relevance') ORDER BY metric",
        { t: judgeTrace },
      );
      const reason = "the judge's own LLM call (span attribute ragmeter.judge.call): never judged";
      expect(scores).toEqual([
        { metric: "grounding", status: "not_applicable", reason },
        { metric: "relevance", status: "not_applicable", reason },
      ]);
      // no judge request for it (nor for anything else: no other trace arrived)
      expect(judgeServer.requests.length).toBe(requests);
    } finally {
      await svc.stop();
    }
  });
});
