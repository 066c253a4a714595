// LangChain.js: a @langchain/core retriever (BaseRetriever returning `Document`s with an id and
// metadata {document_id, score}) and a chat model in one RunnableSequence, traced by
// @arizeai/openinference-instrumentation-langchain (RAGMETER_TEST_LC=openinference, default) or
// OpenLLMetry's @traceloop/instrumentation-langchain (RAGMETER_TEST_LC=openllmetry). The chat model
// is a BaseChatModel calling the real `openai` client against the local OpenAI-compatible server
// (@langchain/openai needs Node 22). LANGCHAIN_CALLBACKS_BACKGROUND picks awaited or not-awaited callbacks.

import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { Document } from "@langchain/core/documents";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { BaseRetriever } from "@langchain/core/retrievers";
import { RunnableLambda, RunnablePassthrough, RunnableSequence } from "@langchain/core/runnables";
import OpenAI from "openai";
import { startOtel } from "./otel.mjs";
import { contextOf, DOCS, MODEL, openaiUrl, QUESTION, SYSTEM } from "./scenario.mjs";

const which = process.env.RAGMETER_TEST_LC ?? "openinference";
const otel = startOtel({ serviceName: `conv-langchain-${which}` });
if (which === "openllmetry") {
  const { LangChainInstrumentation } = await import("@traceloop/instrumentation-langchain");
  const inst = new LangChainInstrumentation({ traceContent: true });
  inst.setTracerProvider(otel.tracerProvider);
  inst.manuallyInstrument({ callbackManagerModule: CallbackManagerModule });
} else {
  const { LangChainInstrumentation } = await import("@arizeai/openinference-instrumentation-langchain");
  const inst = new LangChainInstrumentation({ tracerProvider: otel.tracerProvider });
  inst.manuallyInstrument(CallbackManagerModule);
}

class KbRetriever extends BaseRetriever {
  lc_namespace = ["ragmeter", "tests"];
  async _getRelevantDocuments(_query) {
    return DOCS.map((d) => new Document({ id: d.id, pageContent: d.text, metadata: { document_id: d.document_id, score: d.score } }));
  }
}

const client = new OpenAI({ baseURL: openaiUrl(), apiKey: "test-key" });
class LocalChat extends BaseChatModel {
  _llmType() {
    return "openai";
  }
  async _generate(messages) {
    const role = { system: "system", human: "user", ai: "assistant" };
    const res = await client.chat.completions.create({ model: MODEL, messages: messages.map((m) => ({ role: role[m._getType()] ?? "user", content: String(m.content) })) });
    const text = res.choices[0].message.content ?? "";
    const usage = { promptTokens: res.usage?.prompt_tokens, completionTokens: res.usage?.completion_tokens, totalTokens: res.usage?.total_tokens };
    return {
      generations: [{ text, message: new AIMessage({ content: text, response_metadata: { model_name: res.model } }) }],
      llmOutput: { tokenUsage: usage, model_name: res.model },
    };
  }
}

const prompt = ChatPromptTemplate.fromMessages([
  ["system", `${SYSTEM}\n{context}`],
  ["human", "{question}"],
]);
const retriever = new KbRetriever();
const chain = RunnableSequence.from([
  { context: retriever.pipe(new RunnableLambda({ func: (docs) => contextOf(docs.map((d) => ({ id: d.id, text: d.pageContent }))) })), question: new RunnablePassthrough() },
  prompt,
  new LocalChat({}),
  new StringOutputParser(),
]);
const answer = await chain.invoke(QUESTION);
process.stdout.write(`${JSON.stringify({ answer })}\n`);
await CallbackManagerModule.awaitAllCallbacks?.();
await otel.shutdown();
