import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractInteraction, type Interaction } from "../../core/src/extract/interaction.js";
import { logsOf, type StoredLog, type StoredSpan, spansOf } from "../../core/src/extract/spans.js";
import { scoreTrace, traceRows } from "../../core/src/scoring/trace.js";
import type { GoldenItem } from "../../golden/src/index.js";
import { decodeLogsRequest, decodeTraceRequest } from "../../otlp/src/index.js";
import { openStore } from "../../store/src/client.js";
import { saveResults } from "../../store/src/results.js";
import { startChatServer, startOtlpReceiver } from "../conventions/servers.js";
import { countingJudge } from "../helpers/countingJudge.js";
import { protobufOf, ragSpans, traceRequest } from "../helpers/ragTrace.js";
import { retrievalOf } from "../helpers/retrieval.js";

// Each driver under tests/conventions/drivers uses a real instrumentation library to record the same
// RAG request (tests/conventions/drivers/scenario.mjs) and exports it over OTLP/HTTP; this test
// decodes what arrived as the collector does and extracts the interaction as the scorer does.

const root = path.resolve(import.meta.dirname, "../..");
const ANSWER = "Customers have 30 days to ask for a refund [chunk-10].";
const QUESTION = "How many days do customers have to ask for a refund?";
const MODEL = "gpt-4o-mini-2024-07-18";
const CHUNK_IDS = ["chunk-0", "chunk-1", "chunk-2", "chunk-3", "chunk-4", "chunk-5", "chunk-6", "chunk-7", "chunk-8", "chunk-9", "chunk-10", "chunk-11"];
const DOCUMENT_IDS = ["doc-a", "doc-b", "doc-c", "doc-d", "doc-e", "doc-f", "doc-g", "doc-h", "doc-i", "doc-j", "doc-k", "doc-l"];
const TEXTS = CHUNK_IDS.map((_, i) => `Passage ${i}: refunds are accepted within ${i + 20} days of purchase.`);
const SCORES = [0.99, 0.94, 0.89, 0.84, 0.79, 0.74, 0.69, 0.64, 0.59, 0.54, 0.49, 0.44];

let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let chat: Awaited<ReturnType<typeof startChatServer>>;
beforeAll(async () => {
  otlp = await startOtlpReceiver();
  chat = await startChatServer(ANSWER);
});
afterAll(async () => {
  await otlp?.close();
  await chat?.close();
});

interface Captured {
  spans: StoredSpan[];
  logs: StoredLog[];
  interaction: Interaction;
}

/** Runs one driver, then decodes what it exported and extracts the interaction of its one trace. */
async function runDriver(name: string, env: Record<string, string> = {}): Promise<Captured> {
  const from = otlp.bodies.length;
  const child = spawn(process.execPath, [path.join(root, "tests/conventions/drivers", `${name}.mjs`)], {
    cwd: root,
    env: {
      ...process.env,
      RAGMETER_TEST_OTLP_URL: otlp.url,
      OPENAI_BASE_URL: chat.baseURL,
      OPENAI_API_KEY: "test-key",
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: undefined,
      TRACELOOP_API_KEY: undefined,
      TRACELOOP_BASE_URL: undefined,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  expect(code, `driver ${name} failed:\n${output}`).toBe(0);
  const bodies = otlp.bodies.slice(from);
  const spans: StoredSpan[] = [];
  const logs: StoredLog[] = [];
  for (const b of bodies) {
    if (b.signal === "traces") {
      const d = decodeTraceRequest(b.body, b.contentType);
      expect(d.errors).toEqual([]);
      spans.push(...spansOf(d.request));
    } else {
      const d = decodeLogsRequest(b.body, b.contentType);
      expect(d.errors).toEqual([]);
      logs.push(...logsOf(d.request, (s) => createHash("sha256").update(s).digest("hex")));
    }
  }
  const dump = process.env["RAGMETER_DUMP_CONVENTIONS"];
  if (dump) {
    const suffix = `${env["RAGMETER_TEST_CAPTURE"] === "false" ? "-nocontent" : ""}${env["RAGMETER_TEST_AISDK_RERANKING"] === "true" ? "-reranking" : ""}${env["RAGMETER_TEST_AISDK_TELEMETRY"] === "legacy" ? "-legacy" : ""}`;
    writeFileSync(path.join(dump, `${name}${suffix}.json`), JSON.stringify({ spans, logs }, null, 2));
  }
  const traceIds = new Set(spans.map((s) => s.trace_id));
  expect([...traceIds], `driver ${name} should record one trace`).toHaveLength(1);
  const traceId = [...traceIds][0]!;
  return {
    spans,
    logs,
    interaction: extractInteraction(
      traceId,
      spans,
      logs.filter((l) => l.trace_id === traceId),
    ),
  };
}

function expectRetrieved(i: Interaction, opts: { documentIds: boolean; scores: boolean }): void {
  expect(i.retrieved).not.toBeNull();
  const r = i.retrieved!;
  expect(r.map((d) => d.id)).toEqual(CHUNK_IDS);
  expect(r[10]!.id).toBe("chunk-10"); // index 10 follows 9, never 1
  expect(r.map((d) => d.text)).toEqual(TEXTS);
  expect(r.map((d) => d.document_id)).toEqual(opts.documentIds ? DOCUMENT_IDS : CHUNK_IDS.map(() => null));
  if (opts.scores) expect(r.map((d) => d.score)).toEqual(SCORES);
}

describe("interactions from the spans real instrumentation libraries emit (design §4)", () => {
  it("OTel GenAI, content on span attributes (@ragmeter/instrumentation): question, documents with ids in rank order, answer, model, tokens, run and golden ids", async () => {
    const { interaction: i } = await runDriver("ragmeter-genai");
    expect(i.conventions).toEqual({ retrieval: "otel-genai", generation: "otel-genai" });
    expect(i.question).toBe(QUESTION);
    expectRetrieved(i, { documentIds: true, scores: true });
    expect(i.answer).toBe(ANSWER);
    expect(i.generator_model).toBe(MODEL);
    expect([i.input_tokens, i.output_tokens]).toEqual(["321", "54"]);
    expect(i.truncated).toBe(false);
    expect([i.source, i.run_id, i.golden_id, i.pipeline_version]).toEqual(["golden", "run-conv", "g-refund", "pv-7"]);
    expect([i.service_name, i.deployment_environment]).toEqual(["conv-ragmeter", "conventions-test"]);
  });

  it("OTel GenAI, content in OTLP log events (@opentelemetry/instrumentation-openai): question and answer from gen_ai.user.message / gen_ai.choice events", async () => {
    const { interaction: i, spans, logs } = await runDriver("otel-genai-logs");
    expect(logs.map((l) => l.event_name)).toEqual(expect.arrayContaining(["gen_ai.system.message", "gen_ai.user.message", "gen_ai.choice"]));
    expect(i.conventions).toEqual({ retrieval: "otel-genai", generation: "otel-genai" });
    expect(i.question).toBe(QUESTION);
    expectRetrieved(i, { documentIds: true, scores: true });
    expect(i.answer).toBe(ANSWER);
    expect(i.generator_model).toBe(MODEL);
    expect([i.input_tokens, i.output_tokens]).toEqual(["321", "54"]);
    expect(i.source).toBe("live");
    // The generation's own content is only in the log events: without the retrieval span the
    // question comes from gen_ai.user.message, and without the logs there is no answer.
    const chatOnly = spans.filter((s) => s.attributes["gen_ai.operation.name"] === "chat");
    expect(chatOnly).toHaveLength(1);
    expect(chatOnly[0]!.attributes["gen_ai.input.messages"]).toBeUndefined();
    const fromLogs = extractInteraction(i.trace_id, chatOnly, logs);
    expect([fromLogs.question, fromLogs.answer]).toEqual([QUESTION, ANSWER]);
    expect(extractInteraction(i.trace_id, chatOnly, []).answer).toBeNull();
  });

  it("OTel GenAI with content capture off: documents keep their ids, texts, question and answer are null (never empty strings)", async () => {
    const { interaction: i, logs } = await runDriver("otel-genai-logs", { RAGMETER_TEST_CAPTURE: "false" });
    expect(logs.length).toBeGreaterThan(0); // events still sent, without content
    expect(i.retrieved!.map((d) => d.id)).toEqual(CHUNK_IDS);
    expect(i.retrieved!.map((d) => d.document_id)).toEqual(DOCUMENT_IDS);
    expect(i.retrieved!.every((d) => d.text === null)).toBe(true);
    expect([i.question, i.answer]).toEqual([null, null]);
    expect(i.has_generation).toBe(true);
    expect([i.input_tokens, i.output_tokens]).toEqual(["321", "54"]);
  });

  it("OpenInference (@arizeai/openinference-core + openinference-instrumentation-openai): retrieval.documents.<i> in integer order, document_id from metadata", async () => {
    const { interaction: i } = await runDriver("openinference");
    expect(i.conventions).toEqual({ retrieval: "openinference", generation: "openinference" });
    expect(i.question).toBe(QUESTION);
    expectRetrieved(i, { documentIds: true, scores: true });
    expect(i.answer).toBe(ANSWER);
    expect(i.generator_model).toBe(MODEL);
    expect([i.input_tokens, i.output_tokens]).toEqual(["321", "54"]);
  });

  it("OpenLLMetry (@traceloop/node-server-sdk): documents from the retrieval task's output, answer from the openai.chat span", async () => {
    const { interaction: i } = await runDriver("openllmetry");
    // OpenLLMetry 0.2x writes its LLM spans in the OTel GenAI semconv (gen_ai.input.messages / gen_ai.output.messages), so the generation is read as OTel GenAI.
    expect(i.conventions).toEqual({ retrieval: "openllmetry", generation: "otel-genai" });
    expect(i.question).toBe(QUESTION);
    expectRetrieved(i, { documentIds: true, scores: true });
    expect(i.answer).toBe(ANSWER);
    expect(i.generator_model).toBe(MODEL);
    expect([i.input_tokens, i.output_tokens]).toEqual(["321", "54"]);
  });

  // Vercel AI SDK 7 (ai 7.0, @ai-sdk/openai 4.0) through its OpenTelemetry integration (@ai-sdk/otel
  // 1.0, registerTelemetry(new OpenTelemetry())): OTel GenAI convention spans. AI SDK 6's `ai.*`
  // spans are read from the fixtures its drivers recorded (tests/unit/extract-vercel-ai-sdk6.unit.test.ts).
  const opOf = (s: StoredSpan) => s.attributes["gen_ai.operation.name"];
  const usageOf = (s: StoredSpan) => [s.attributes["gen_ai.usage.input_tokens"], s.attributes["gen_ai.usage.output_tokens"]];

  it("Vercel AI SDK 7 telemetry (ai + @ai-sdk/openai + @ai-sdk/otel): GenAI-convention spans; documents from the execute_tool result, answer from the last chat span, the whole run's usage from invoke_agent", async () => {
    const { interaction: i, spans } = await runDriver("vercel-ai");
    // AI SDK 7 writes OTel GenAI spans, no `ai.*` attribute: read as otel-genai
    expect(spans.filter((s) => Object.keys(s.attributes).some((k) => k.startsWith("ai.")))).toEqual([]);
    expect(spans.map(opOf).sort()).toEqual(["agent_step", "agent_step", "chat", "chat", "execute_tool", "invoke_agent"]);
    expect(i.conventions).toEqual({ retrieval: "otel-genai", generation: "otel-genai" });
    expect(i.question).toBe(QUESTION);
    expectRetrieved(i, { documentIds: true, scores: true });
    expect(i.answer).toBe(ANSWER);
    expect(i.generator_model).toBe(MODEL);
    // Two model calls, as the local server bills them: the tool call (300 in, 10 out) and the answer
    // (321, 54). Each chat span holds its own step's; invoke_agent the run's total, which wins.
    expect(spans.filter((s) => opOf(s) === "chat").map(usageOf)).toEqual(
      expect.arrayContaining([
        [300, 10],
        [321, 54],
      ]),
    );
    const agent = spans.find((s) => opOf(s) === "invoke_agent")!;
    expect(usageOf(agent)).toEqual([300 + 321, 10 + 54]);
    expect([i.input_tokens, i.output_tokens]).toEqual([String(300 + 321), String(10 + 54)]);
    expect(i.spans.retrieval).toBe(spans.find((s) => opOf(s) === "execute_tool")!.span_id);
    expect(i.guesses).toEqual([]);
  });

  it("Vercel AI SDK 7 telemetry, rerank() with new OpenTelemetry({ reranking: true }): documents in the order of ai.ranking, with its scores, from the rerank span; the generation as OTel GenAI", async () => {
    const { interaction: i, spans } = await runDriver("vercel-ai-rerank", { RAGMETER_TEST_AISDK_RERANKING: "true" });
    // two `rerank <model>` spans: the operation (the candidates, ai.documents) and the provider call (ai.documents and ai.ranking)
    const reranks = spans.filter((s) => opOf(s) === "rerank");
    expect(reranks.map((s) => s.name)).toEqual(["rerank reverse-reranker", "rerank reverse-reranker"]);
    const ranked = reranks.find((s) => s.attributes["ai.ranking"] !== undefined)!;
    expect(i.conventions).toEqual({ retrieval: "vercel-ai", generation: "otel-genai" });
    expect(i.spans.retrieval).toBe(ranked.span_id);
    expect(i.retrieval_uncaptured).toBeNull();
    expect(i.question).toBe(QUESTION);
    expectRetrieved(i, { documentIds: true, scores: true });
    expect(i.answer).toBe(ANSWER);
    expect(i.generator_model).toBe(MODEL);
    expect([i.input_tokens, i.output_tokens]).toEqual(["321", "54"]);
  });

  it("Vercel AI SDK 7 telemetry, rerank() with the default OpenTelemetry(): the rerank spans record no documents, so recall and grounding are content_missing naming the span and the option (never scored on a guess), relevance judged", async () => {
    const { interaction: i, spans } = await runDriver("vercel-ai-rerank");
    const reranks = spans.filter((s) => opOf(s) === "rerank");
    expect(reranks).toHaveLength(2);
    for (const s of reranks) expect(Object.keys(s.attributes).sort()).toEqual(["gen_ai.operation.name", "gen_ai.provider.name", "gen_ai.request.model"]);
    expect(i.conventions).toEqual({ retrieval: "vercel-ai", generation: "otel-genai" });
    expect(i.retrieved).toBeNull();
    expect(i.retrieval_uncaptured!.span).toMatch(/^rerank reverse-reranker \([0-9a-f]{16}\)$/);
    expect(i.retrieval_uncaptured!.reason).toContain("new OpenTelemetry({ reranking: true })");
    expect([i.question, i.answer, i.generator_model, i.input_tokens, i.output_tokens]).toEqual([QUESTION, ANSWER, MODEL, "321", "54"]);
    const judge = countingJudge();
    const r = await scoreTrace(i.trace_id, spans, [], { judge, ks: [1, 12], liveSampleRate: 1, golden });
    expect([retrievalOf(r.result).recall_status, r.result.metrics["grounding"]?.status, r.result.metrics["relevance"]?.status]).toEqual([
      "content_missing",
      "content_missing",
      "ok",
    ]);
    expect(r.result.metrics["grounding"]?.reason).toMatch(/^retrieved documents not recorded: the rerank span records no documents \(ai\.documents\) and ranking \(ai\.ranking\)/);
    expect(judge.calls).toEqual({ grounding: 0, relevance: 1 });
    expect(r.skipped).toEqual({ content_missing: 1 });
  });

  it("Vercel AI SDK 7 with @ai-sdk/otel's LegacyOpenTelemetry (AI SDK 6's ai.* spans): read as vercel-ai, the run's usage from ai.generateText, the rerank from ai.rerank.doRerank", async () => {
    const legacy = { RAGMETER_TEST_AISDK_TELEMETRY: "legacy" };
    const { interaction: tool, spans } = await runDriver("vercel-ai", legacy);
    expect(spans.every((s) => typeof s.attributes["ai.operationId"] === "string" && opOf(s) === undefined)).toBe(true);
    expect(tool.conventions).toEqual({ retrieval: "vercel-ai", generation: "vercel-ai" });
    expect([tool.question, tool.answer, tool.generator_model]).toEqual([QUESTION, ANSWER, MODEL]);
    expectRetrieved(tool, { documentIds: true, scores: true });
    expect([tool.input_tokens, tool.output_tokens]).toEqual([String(300 + 321), String(10 + 54)]);
    const { interaction: reranked } = await runDriver("vercel-ai-rerank", legacy);
    expect(reranked.conventions).toEqual({ retrieval: "vercel-ai", generation: "vercel-ai" });
    expect([reranked.question, reranked.answer, reranked.generator_model, reranked.input_tokens, reranked.output_tokens]).toEqual([QUESTION, ANSWER, MODEL, "321", "54"]);
    expectRetrieved(reranked, { documentIds: true, scores: true });
  });

  // LangChain.js through its instrumentations (issue 11): the chunk ids ride only on the Document's
  // id (the RETRIEVER's output.value), the document ids and scores in document.metadata JSON.
  for (const background of ["false", "true"]) {
    it(`LangChain.js (@langchain/core retriever + RunnableSequence + chat model) via @arizeai/openinference-instrumentation-langchain, callbacks ${background === "true" ? "not awaited" : "awaited"}: ids, document ids, scores, question and answer as the program produced them`, async () => {
      const { interaction: i } = await runDriver("langchain", { RAGMETER_TEST_LC: "openinference", LANGCHAIN_CALLBACKS_BACKGROUND: background });
      expect(i.conventions).toEqual({ retrieval: "openinference", generation: "openinference" });
      expect(i.question).toBe(QUESTION);
      expectRetrieved(i, { documentIds: true, scores: true });
      expect(i.answer).toBe(ANSWER);
      expect([i.input_tokens, i.output_tokens]).toEqual(["321", "54"]);
    });
  }

  // Plain OTel SDK traces that cannot be scored whole (issue 11): scored with a counting LLM judge.
  const golden: GoldenItem = {
    id: "g-refund",
    question: QUESTION,
    expected_source: "doc-k",
    expected_substring: "within 30 days",
    expected_chunk_id: null,
    reference_answer: null,
    key_facts: null,
    tags: [],
  };

  it("retrieval-only trace (plain OTel SDK, golden traffic, no generation): recall@k and MRR from the retrieval (hit at rank 11), grounding/relevance not_applicable, zero judge calls, top_k read", async () => {
    const { interaction: i, spans } = await runDriver("plain-otel", { RAGMETER_TEST_MODE: "retrieval-only" });
    expect(i.retrieved!.map((d) => d.id)).toEqual(CHUNK_IDS);
    expect([i.has_generation, i.top_k, i.source]).toEqual([false, 12, "golden"]);
    const judge = countingJudge();
    const r = await scoreTrace(i.trace_id, spans, [], { judge, ks: [1, 5, 12], liveSampleRate: 1, golden });
    expect(judge.calls).toEqual({ grounding: 0, relevance: 0 });
    expect([retrievalOf(r.result).recall, retrievalOf(r.result).reciprocal_rank]).toEqual([{ 1: 0, 5: 0, 12: 1 }, 1 / 11]);
    expect([r.result.metrics["grounding"]?.status, r.result.metrics["relevance"]?.status]).toEqual(["not_applicable", "not_applicable"]);
    expect(r.result.contexts.map((c) => c.id)).toEqual(CHUNK_IDS);
  });

  it("documents JSON cut by the SDK's attributeValueLengthLimit (512): other spans intact, grounding and recall context_incomplete naming the attribute, zero grounding calls", async () => {
    const { interaction: i, spans } = await runDriver("plain-otel", { RAGMETER_TEST_MODE: "capped", RAGMETER_TEST_LIMIT: "512" });
    const retrieval = spans.find((s) => s.name === "retrieval kb")!;
    expect(String(retrieval.attributes["gen_ai.retrieval.documents"]).length).toBe(512); // kept raw, as cut
    expect(retrieval.attributes["ragmeter.content.unparsed"]).toEqual(["gen_ai.retrieval.documents"]); // and flagged
    expect(spans.map((s) => s.name).sort()).toEqual(["POST /ask", "chat gpt-4o-mini", "retrieval kb"]);
    expect(i.question).toBe(QUESTION);
    expect(i.answer).toBe("30 days.");
    expect(i.incomplete.map((x) => x.attribute)).toEqual(["gen_ai.retrieval.documents"]);
    const judge = countingJudge();
    const r = await scoreTrace(i.trace_id, spans, [], { judge, ks: [1], liveSampleRate: 1, golden });
    expect(judge.calls).toEqual({ grounding: 0, relevance: 1 });
    expect([r.result.metrics["grounding"]?.status, retrievalOf(r.result).recall_status]).toEqual(["context_incomplete", "context_incomplete"]);
    expect(r.result.metrics["grounding"]?.reason).toMatch(/^gen_ai\.retrieval\.documents is not valid JSON \(512 characters, a common length cap\)/);
    expect(r.skipped).toEqual({ context_incomplete: 1 });
  });

  it("a lone non-RAG span (plain OTel SDK) with an LLM judge configured: zero judge calls", async () => {
    const { interaction: i, spans } = await runDriver("plain-otel", { RAGMETER_TEST_MODE: "health" });
    const judge = countingJudge();
    const r = await scoreTrace(i.trace_id, spans, [], { judge, ks: [1], liveSampleRate: 1, golden: null });
    expect(judge.calls).toEqual({ grounding: 0, relevance: 0 });
    expect(r.skipped).toEqual({ not_applicable: 2 });
  });

  it("token counts 9007199254740993 and 2^63-1 from a real SDK span: extracted, stored in ClickHouse UInt64 and read back exactly", async () => {
    const big = { in: "9007199254740993", out: (2n ** 63n - 1n).toString() };
    const { interaction: i, spans } = await runDriver("plain-otel", { RAGMETER_TEST_MODE: "capped", RAGMETER_TEST_LIMIT: "100000", RAGMETER_TEST_TOKENS: `${big.in},${big.out}` });
    expect([i.input_tokens, i.output_tokens]).toEqual([big.in, big.out]);
    const judge = countingJudge();
    const scored = await scoreTrace(i.trace_id, spans, [], { judge, ks: [1], liveSampleRate: 1, golden });
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-int64-"));
    const store = await openStore({ kind: "embedded", home, database: "rm_int64" });
    try {
      const rows = traceRows(scored, judge, [1], "p");
      await saveResults(store, { interactions: [rows.interaction], scores: rows.scores, claims: rows.claims });
      const rs = await store.client.query({ query: "SELECT toString(input_tokens) AS i, toString(output_tokens) AS o FROM rm_int64.interactions FINAL", format: "JSONEachRow" });
      expect(await rs.json()).toEqual([{ i: big.in, o: big.out }]);
      // The same counts as OTLP intValue (int64 on the wire, as Go/Java/Python SDKs send them), decoded as the collector does.
      const { retrieval, generation } = ragSpans({ traceId: "ab".repeat(16), question: QUESTION, docs: [], answer: ANSWER });
      const withTokens = {
        ...generation,
        attributes: [
          ...generation.attributes.filter((a) => !a.key.startsWith("gen_ai.usage.")),
          { key: "gen_ai.usage.input_tokens", value: { intValue: BigInt(big.in) } },
          { key: "gen_ai.usage.output_tokens", value: { intValue: BigInt(big.out) } },
        ],
      };
      const decoded = decodeTraceRequest(protobufOf(traceRequest([retrieval, withTokens])), "application/x-protobuf");
      expect(decoded.errors).toEqual([]);
      const fromWire = extractInteraction("ab".repeat(16), spansOf(decoded.request));
      expect([fromWire.input_tokens, fromWire.output_tokens]).toEqual([big.in, big.out]);
    } finally {
      await store.close();
    }
  });
});
