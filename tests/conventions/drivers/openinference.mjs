// OpenInference: @arizeai/openinference-core wraps the RAG request in a CHAIN span and the
// retrieval in a RETRIEVER span whose output is written with getRetrieverAttributes
// (retrieval.documents.<i>.document.{id,content,score,metadata}; the document id rides in
// metadata.document_id); @arizeai/openinference-instrumentation-openai records the LLM span
// of the real `openai` client.

import { getOutputAttributes, getRetrieverAttributes, traceChain, traceRetriever } from "@arizeai/openinference-core";
import { OpenAIInstrumentation } from "@arizeai/openinference-instrumentation-openai";
import OpenAI from "openai";
import { startOtel } from "./otel.mjs";
import { contextOf, DOCS, MODEL, openaiUrl, QUESTION, SYSTEM } from "./scenario.mjs";

const otel = startOtel({ serviceName: "conv-openinference" });
const instrumentation = new OpenAIInstrumentation({ tracerProvider: otel.tracerProvider });
instrumentation.manuallyInstrument(OpenAI); // ESM: patch the imported class
const client = new OpenAI({ baseURL: openaiUrl(), apiKey: "test-key" });

const retrieve = traceRetriever(async (_query) => DOCS.map((d) => ({ ...d })), {
  name: "retrieve",
  processOutput: (docs) =>
    getRetrieverAttributes({
      documents: docs.map((d) => ({ id: d.id, content: d.text, score: d.score, metadata: { document_id: d.document_id, source: "kb-refunds" } })),
    }),
});
const answer = traceChain(
  async (question) => {
    const docs = await retrieve(question);
    const res = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: `${SYSTEM}\n${contextOf(docs)}` },
        { role: "user", content: question },
      ],
    });
    return res.choices[0].message.content;
  },
  { name: "rag", processOutput: (text) => getOutputAttributes(text) },
);
await answer(QUESTION);
await otel.shutdown();
