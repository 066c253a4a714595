// OpenLLMetry (Traceloop): @traceloop/node-server-sdk with its openai instrumentation; the RAG
// request is a workflow, the retrieval a task returning the documents (traceloop.entity.output),
// the answer an instrumented `openai` chat completion. Exports OTLP to the test's receiver and
// nowhere else (no API key, no prompt-registry sync).

import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import * as traceloop from "@traceloop/node-server-sdk";
import OpenAI from "openai";
import { contextOf, DOCS, MODEL, openaiUrl, otlpUrl, QUESTION, SYSTEM } from "./scenario.mjs";

traceloop.initialize({
  appName: "conv-openllmetry",
  baseUrl: otlpUrl(),
  exporter: new OTLPTraceExporter({ url: `${otlpUrl()}/v1/traces` }),
  disableBatch: true,
  traceContent: true,
  traceloopSyncEnabled: false,
  silenceInitializationMessage: true,
  instrumentModules: { openAI: OpenAI },
});
const client = new OpenAI({ baseURL: openaiUrl(), apiKey: "test-key" });

await traceloop.withWorkflow(
  { name: "answer_question" },
  async () => {
    const docs = await traceloop.withTask({ name: "retrieve" }, async (_query) => DOCS.map((d) => ({ ...d })), QUESTION);
    const res = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: `${SYSTEM}\n${contextOf(docs)}` },
        { role: "user", content: QUESTION },
      ],
    });
    return res.choices[0].message.content;
  },
  QUESTION,
);
await traceloop.forceFlush();
