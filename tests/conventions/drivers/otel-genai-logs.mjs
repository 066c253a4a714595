// OTel GenAI with content in OTLP log events: the official OpenTelemetry instrumentation for the
// `openai` package (@opentelemetry/instrumentation-openai, content capture on through
// OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT) records the chat span and emits the
// gen_ai.* events as log records; the retrieval span comes from @ragmeter/instrumentation
// (no official OTel instrumentation records retrieval in Node).
import { createRequire } from "node:module";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { OpenAIInstrumentation } from "@opentelemetry/instrumentation-openai";
import { createRagInstrumentation } from "@ragmeter/instrumentation";
import { startOtel } from "./otel.mjs";
import { contextOf, DOCS, MODEL, openaiUrl, QUESTION, SYSTEM } from "./scenario.mjs";

// RAGMETER_TEST_CAPTURE=false runs the same request with content capture off.
const capture = process.env.RAGMETER_TEST_CAPTURE !== "false";
process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = String(capture);
const otel = startOtel({ serviceName: "conv-otel-genai-logs", withLogs: true });
registerInstrumentations({
  tracerProvider: otel.tracerProvider,
  loggerProvider: otel.loggerProvider,
  instrumentations: [new OpenAIInstrumentation()],
});
// The instrumentation patches the CommonJS build of `openai` when it is required.
const { OpenAI } = createRequire(import.meta.url)("openai");
const client = new OpenAI({ baseURL: openaiUrl(), apiKey: "test-key" });
const rag = createRagInstrumentation({ dataSourceId: "kb-refunds" });
if (rag.captureContent !== capture) throw new Error("content capture should follow RAGMETER_TEST_CAPTURE");

await rag.traceInteraction(async () => {
  const docs = await rag.traceRetrieval({ query: QUESTION, topK: DOCS.length }, () => DOCS.map((d) => ({ ...d })));
  await client.chat.completions.create({
    model: MODEL,
    messages: [
      { role: "system", content: `${SYSTEM}\n${contextOf(docs)}` },
      { role: "user", content: QUESTION },
    ],
  });
});
await otel.shutdown();
