// Vercel AI SDK telemetry: `generateText` with experimental_telemetry on, through @ai-sdk/openai's
// chat-completions model against the local server; the model calls the `retrieve` tool, whose
// result is the document list, then answers from it.

import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { startOtel } from "./otel.mjs";
import { DOCS, MODEL, openaiUrl, QUESTION, SYSTEM } from "./scenario.mjs";

const otel = startOtel({ serviceName: "conv-vercel-ai" });
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
  experimental_telemetry: { isEnabled: true, recordInputs: true, recordOutputs: true, functionId: "answer-question" },
});
if (!result.text) throw new Error("no answer");
await otel.shutdown();
