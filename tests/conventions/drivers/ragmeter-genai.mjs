// OTel GenAI (ours), content on span attributes: @ragmeter/instrumentation records the retrieval
// and the generation; the answer comes from the real `openai` client against the local server.
// Baggage carries the run id, golden id and pipeline version as `ragmeter eval` sends them.

import { createRagInstrumentation, withIncomingContext } from "@ragmeter/instrumentation";
import OpenAI from "openai";
import { startOtel } from "./otel.mjs";
import { contextOf, DOCS, MODEL, openaiUrl, QUESTION, SYSTEM } from "./scenario.mjs";

const otel = startOtel({ serviceName: "conv-ragmeter" });
const rag = createRagInstrumentation({ captureContent: true, providerName: "openai", dataSourceId: "kb-refunds" });
const client = new OpenAI({ baseURL: openaiUrl(), apiKey: "test-key" });

const headers = {
  traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
  baggage: "ragmeter.run.id=run-conv,ragmeter.golden.id=g-refund,ragmeter.pipeline.version=pv-7",
};
await withIncomingContext(headers, () =>
  rag.traceInteraction(async () => {
    const docs = await rag.traceRetrieval({ query: QUESTION, topK: DOCS.length }, () => DOCS.map((d) => ({ ...d })));
    await rag.traceGeneration({ model: MODEL, question: QUESTION, systemInstructions: SYSTEM }, async () => {
      const res = await client.chat.completions.create({
        model: MODEL,
        messages: [
          { role: "system", content: `${SYSTEM}\n${contextOf(docs)}` },
          { role: "user", content: QUESTION },
        ],
      });
      return {
        answer: res.choices[0].message.content ?? "",
        model: res.model,
        responseId: res.id,
        finishReason: res.choices[0].finish_reason,
        usage: { input_tokens: res.usage?.prompt_tokens, output_tokens: res.usage?.completion_tokens },
      };
    });
  }),
);
await otel.shutdown();
