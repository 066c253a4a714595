// Vercel AI SDK 7 telemetry, retrieval through `rerank()`: twelve candidate chunks are reranked, then
// `generateText` answers from the top chunks. The reranking model is an in-process one implementing
// the SDK's RerankingModelV4 interface (@ai-sdk/openai has none); the SDK's OpenTelemetry integration
// (@ai-sdk/otel) records both calls in one trace. Its `rerank <model>` spans carry only
// gen_ai.operation.name, provider and model unless the integration is built with `reranking: true`
// (RAGMETER_TEST_AISDK_RERANKING=true here): then `ai.documents` (the candidates as given) and, on
// the provider call's span, `ai.ranking` ({index, relevanceScore} in rank order).

import { createOpenAI } from "@ai-sdk/openai";
import { LegacyOpenTelemetry, OpenTelemetry } from "@ai-sdk/otel";
import { trace } from "@opentelemetry/api";
import { generateText, registerTelemetry, rerank } from "ai";
import { startOtel } from "./otel.mjs";
import { contextOf, DOCS, MODEL, openaiUrl, QUESTION, SYSTEM } from "./scenario.mjs";

const otel = startOtel({ serviceName: "conv-vercel-ai-rerank" });
registerTelemetry(
  process.env.RAGMETER_TEST_AISDK_TELEMETRY === "legacy" ? new LegacyOpenTelemetry() : new OpenTelemetry({ reranking: process.env.RAGMETER_TEST_AISDK_RERANKING === "true" }),
);
const openai = createOpenAI({ baseURL: openaiUrl(), apiKey: "test-key" });
const telemetry = { isEnabled: true, recordInputs: true, recordOutputs: true, functionId: "answer-question" };

/** Ranks the candidates in the reverse of the order given, with the scenario's scores. */
const reverseReranker = {
  specificationVersion: "v4",
  provider: "local",
  modelId: "reverse-reranker",
  async doRerank({ documents }) {
    const n = documents.values.length;
    return { ranking: documents.values.map((_, i) => ({ index: n - 1 - i, relevanceScore: DOCS[i].score })) };
  },
};

await trace.getTracer("conventions-driver").startActiveSpan("rag", async (span) => {
  // Candidates in reverse, so that the reranker's order is the scenario's order.
  const candidates = [...DOCS].reverse().map((d) => ({ id: d.id, document_id: d.document_id, text: d.text }));
  const { rerankedDocuments } = await rerank({ model: reverseReranker, documents: candidates, query: QUESTION, telemetry });
  await generateText({
    model: openai.chat(MODEL),
    system: `${SYSTEM}\n${contextOf(rerankedDocuments)}`,
    prompt: QUESTION,
    telemetry,
  });
  span.end();
});
await otel.shutdown();
