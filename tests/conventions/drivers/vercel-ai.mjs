// Vercel AI SDK 7 telemetry: `generateText` with `telemetry` on, recorded by the SDK's OpenTelemetry
// integration (@ai-sdk/otel: OTel GenAI convention spans `invoke_agent`, `agent_step`, `chat`,
// `execute_tool`), through @ai-sdk/openai's chat-completions model against the local server; the
// model calls the `retrieve` tool, whose result is the document list, then answers from it.
// (AI SDK 6 recorded `ai.*` spans through `experimental_telemetry` alone: tests/fixtures/conventions.)

import { createOpenAI } from "@ai-sdk/openai";
import { LegacyOpenTelemetry, OpenTelemetry } from "@ai-sdk/otel";
import { generateText, jsonSchema, registerTelemetry, stepCountIs, tool } from "ai";
import { startOtel } from "./otel.mjs";
import { DOCS, MODEL, openaiUrl, QUESTION, SYSTEM } from "./scenario.mjs";

const otel = startOtel({ serviceName: "conv-vercel-ai" });
// AI SDK 7 records spans through its OpenTelemetry integration, registered once per process;
// RAGMETER_TEST_AISDK_TELEMETRY=legacy: its LegacyOpenTelemetry, which writes AI SDK 6's `ai.*` spans.
registerTelemetry(process.env.RAGMETER_TEST_AISDK_TELEMETRY === "legacy" ? new LegacyOpenTelemetry() : new OpenTelemetry());
const openai = createOpenAI({ baseURL: openaiUrl(), apiKey: "test-key" });

const result = await generateText({
  model: openai.chat(MODEL),
  system: SYSTEM,
  prompt: QUESTION,
  tools: {
    retrieve: tool({
      description: "Search the knowledge base",
      inputSchema: jsonSchema({ type: "object", properties: { query: { type: "string" } }, required: ["query"] }),
      execute: async () => DOCS.map((d) => ({ ...d })),
    }),
  },
  stopWhen: stepCountIs(3),
  telemetry: { isEnabled: true, recordInputs: true, recordOutputs: true, functionId: "answer-question" },
});
if (!result.text) throw new Error("no answer");
await otel.shutdown();
