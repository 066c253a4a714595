import { describe, expect, it } from "vitest";
import { extractInteraction, retrievedItems } from "../../core/src/extract/interaction.js";
import type { Attrs, StoredLog, StoredSpan } from "../../core/src/extract/spans.js";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
let nextId = 1;
/** A stored span; `end` orders spans (a later reranker wins over the retriever). */
function span(name: string, attributes: Attrs, opts: { end?: number; parent?: string; id?: string; events?: StoredSpan["events"]; resource?: Attrs } = {}): StoredSpan {
  const id = opts.id ?? (nextId++).toString(16).padStart(16, "0");
  return {
    trace_id: TRACE,
    span_id: id,
    parent_span_id: opts.parent ?? "aaaaaaaaaaaaaaaa",
    name,
    kind: 1,
    start_time_unix_nano: "1000",
    end_time_unix_nano: String(2000 + (opts.end ?? 0)),
    status_code: 0,
    attributes,
    resource_attributes: opts.resource ?? { "service.name": "svc" },
    scope_name: "test",
    events: opts.events ?? [],
    service_name: "svc",
  };
}
function log(spanId: string, eventName: string, body: StoredLog["body"], attributes: Attrs = {}, time = "1500"): StoredLog {
  return { trace_id: TRACE, span_id: spanId, record_id: `${spanId}-${eventName}-${time}`, event_name: eventName, time_unix_nano: time, body, attributes };
}
const twelve = Array.from({ length: 12 }, (_, i) => i);

describe("OTel GenAI", () => {
  it("documents as a JSON array in rank order with document ids; missing content gives null texts and no scorable items", () => {
    const docs = twelve.map((i) => ({ id: `c${i}`, document_id: `d${i}`, score: 1 - i / 100, ...(i === 10 ? {} : { content: `t${i}` }) }));
    const i = extractInteraction(TRACE, [
      span("retrieval kb", { "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.query.text": "q", "gen_ai.retrieval.documents": JSON.stringify(docs) }),
    ]);
    expect(i.retrieved!.map((d) => d.id)).toEqual(twelve.map((n) => `c${n}`));
    expect(i.retrieved![10]).toEqual({ id: "c10", document_id: "d10", text: null, score: 0.9 });
    expect(i.question).toBe("q");
    expect(i.has_generation).toBe(false);
    expect(retrievedItems(i)).toBeNull();
  });

  it("documents in structured (non-JSON-string) form are read too", () => {
    const i = extractInteraction(TRACE, [
      span("retrieval", {
        "gen_ai.operation.name": "retrieval",
        "gen_ai.retrieval.documents": [
          { id: "c1", content: "t1" },
          { id: "c2", content: "t2" },
        ],
      }),
    ]);
    expect(retrievedItems(i)).toEqual([
      { id: "c1", document_id: "c1", text: "t1", score: null },
      { id: "c2", document_id: "c2", text: "t2", score: null },
    ]);
  });

  it("content capture off: question, answer and texts are null, never empty", () => {
    const i = extractInteraction(TRACE, [
      span("retrieval", { "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.documents": JSON.stringify([{ id: "c1", score: 0.5 }]) }),
      span("chat m", { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m", "gen_ai.usage.input_tokens": 5, "gen_ai.usage.output_tokens": 2 }, { end: 1 }),
    ]);
    expect([i.question, i.answer, i.retrieved![0]!.text]).toEqual([null, null, null]);
    expect([i.has_generation, i.generator_model, i.input_tokens, i.output_tokens]).toEqual([true, "m", "5", "2"]);
  });

  it("content in log events: the current operation-details event with structured messages", () => {
    const chat = span("chat m", { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m" });
    const logs = [
      log(chat.span_id, "gen_ai.client.inference.operation.details", null, { "gen_ai.input.messages": [{ role: "user", parts: [{ type: "text", content: "q?" }] }] }),
      log(
        chat.span_id,
        "gen_ai.client.inference.operation.details",
        null,
        { "gen_ai.output.messages": [{ role: "assistant", parts: [{ type: "text", content: "a." }], finish_reason: "stop" }] },
        "1600",
      ),
      log("ffffffffffffffff", "gen_ai.choice", { index: 0, message: { content: "other span" } }),
    ];
    const i = extractInteraction(TRACE, [chat], logs);
    expect([i.question, i.answer]).toEqual(["q?", "a."]);
  });

  it("content in log events: per-message events; the answer is choice 0 whatever the record order", () => {
    const chat = span("chat m", { "gen_ai.operation.name": "chat" });
    const logs = [
      log(chat.span_id, "gen_ai.user.message", { content: "earlier" }, { "event.name": "gen_ai.user.message" }, "1100"),
      log(chat.span_id, "gen_ai.choice", { index: 1, finish_reason: "stop", message: { content: "second choice" } }),
      log(chat.span_id, "gen_ai.user.message", { content: "q?" }, {}, "1200"),
      log(chat.span_id, "gen_ai.choice", { index: 0, finish_reason: "stop", message: { content: "a." } }),
    ];
    const i = extractInteraction(TRACE, [chat], logs);
    expect([i.question, i.answer]).toEqual(["q?", "a."]);
  });

  it("content as span events of the earlier semconv (gen_ai.content.prompt / gen_ai.content.completion)", () => {
    const chat = span(
      "chat m",
      { "gen_ai.operation.name": "chat" },
      {
        events: [
          { name: "gen_ai.content.prompt", time_unix_nano: "1100", attributes: { "gen_ai.prompt": JSON.stringify([{ role: "user", content: "q?" }]) } },
          { name: "gen_ai.content.completion", time_unix_nano: "1900", attributes: { "gen_ai.completion": JSON.stringify([{ role: "assistant", content: "a." }]) } },
        ],
      },
    );
    expect(extractInteraction(TRACE, [chat])).toMatchObject({ question: "q?", answer: "a." });
  });

  it("tokens of an agent run (AI SDK 7, invoke_agent → agent_step → chat): the nearest invoke_agent recording usage totals every step and wins over the last chat span's", () => {
    const agent = span("invoke_agent m", { "gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": 621, "gen_ai.usage.output_tokens": 64 }, { end: 9, parent: "" });
    const step1 = span("step 1", { "gen_ai.operation.name": "agent_step" }, { end: 3, parent: agent.span_id });
    const step2 = span("step 2", { "gen_ai.operation.name": "agent_step" }, { end: 8, parent: agent.span_id });
    const chat1 = span("chat m", { "gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 300, "gen_ai.usage.output_tokens": 10 }, { end: 2, parent: step1.span_id });
    const answer = JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "a." }] }]);
    const chat2 = span(
      "chat m",
      { "gen_ai.operation.name": "chat", "gen_ai.output.messages": answer, "gen_ai.usage.input_tokens": 321, "gen_ai.usage.output_tokens": 54 },
      { end: 7, parent: step2.span_id },
    );
    const i = extractInteraction(TRACE, [agent, step1, step2, chat1, chat2]);
    expect([i.answer, i.input_tokens, i.output_tokens, i.spans.generation]).toEqual(["a.", "621", "64", chat2.span_id]);
    // without the agent span (not exported, or another library): the generation span's own
    expect([extractInteraction(TRACE, [step2, chat2]).input_tokens, extractInteraction(TRACE, [step2, chat2]).output_tokens]).toEqual(["321", "54"]);
    // an inner agent without usage is passed over; an agent recording only one count gives that one, the other null (never one step's)
    const inner = span("invoke_agent sub", { "gen_ai.operation.name": "invoke_agent" }, { end: 7, parent: agent.span_id });
    const chat3 = span("chat m", { "gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 5, "gen_ai.usage.output_tokens": 1 }, { end: 6, parent: inner.span_id });
    expect([extractInteraction(TRACE, [agent, inner, chat3]).input_tokens]).toEqual(["621"]);
    const inputOnly = span("invoke_agent m", { "gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": 621 }, { end: 9, parent: "" });
    const chat4 = span("chat m", { "gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 321, "gen_ai.usage.output_tokens": 54 }, { end: 7, parent: inputOnly.span_id });
    const partial = extractInteraction(TRACE, [inputOnly, chat4]);
    expect([partial.input_tokens, partial.output_tokens]).toEqual(["621", null]);
  });

  it("a retrieval done as a tool (execute_tool with the documents as result): the model-written query is not the question", () => {
    const i = extractInteraction(TRACE, [
      span("execute_tool search", {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.call.arguments": JSON.stringify({ query: "refund days" }),
        "gen_ai.tool.call.result": JSON.stringify([{ id: "c1", document_id: "d1", content: "t1" }]),
      }),
      span("chat m", { "gen_ai.operation.name": "chat", "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "How long?" }] }]) }, { end: 5 }),
    ]);
    expect(i.question).toBe("How long?");
    expect(i.retrieved).toEqual([{ id: "c1", document_id: "d1", text: "t1", score: null }]);
  });

  it("truncated flag (ragmeter.content.truncated) on any span, boolean or string", () => {
    const base = { "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.documents": "[]" };
    expect(extractInteraction(TRACE, [span("r", base)]).truncated).toBe(false);
    expect(extractInteraction(TRACE, [span("r", { ...base, "ragmeter.content.truncated": true })]).truncated).toBe(true);
    expect(extractInteraction(TRACE, [span("r", base), span("chat", { "gen_ai.operation.name": "chat", "ragmeter.content.truncated": "true" })]).truncated).toBe(true);
    expect(extractInteraction(TRACE, [span("r", { ...base, "ragmeter.content.truncated": false })]).truncated).toBe(false);
  });

  it("run id, golden id and pipeline version from ragmeter.* attributes or the resource; source follows them", () => {
    const r = { "service.name": "svc", "deployment.environment.name": "prod", "ragmeter.pipeline.version": "pv-res" };
    const golden = extractInteraction(TRACE, [span("r", { "gen_ai.operation.name": "retrieval", "ragmeter.run.id": "run-1", "ragmeter.golden.id": "g-1" }, { resource: r })]);
    expect([golden.source, golden.run_id, golden.golden_id, golden.pipeline_version, golden.deployment_environment]).toEqual(["golden", "run-1", "g-1", "pv-res", "prod"]);
    expect(extractInteraction(TRACE, [span("r", { "ragmeter.run.id": "run-1" })]).source).toBe("replay");
    expect(extractInteraction(TRACE, [span("r", {})]).source).toBe("live");
  });
});

describe("OpenInference", () => {
  const retriever = (n: number, extra: (i: number) => Attrs = () => ({})): Attrs => {
    const a: Attrs = { "openinference.span.kind": "RETRIEVER", "input.value": "q?" };
    for (const i of [...Array(n).keys()].map(String).sort())
      Object.assign(
        a,
        { [`retrieval.documents.${i}.document.id`]: `c${i}`, [`retrieval.documents.${i}.document.content`]: `t${i}`, [`retrieval.documents.${i}.document.score`]: Number(i) / 10 },
        extra(Number(i)),
      );
    return a;
  };

  it("orders documents by the integer index (10 after 9) and takes the document id from metadata.document_id", () => {
    const i = extractInteraction(TRACE, [
      span(
        "retrieve",
        retriever(12, (n) => ({ [`retrieval.documents.${n}.document.metadata`]: JSON.stringify({ document_id: `d${n}`, source: "ignored" }) })),
      ),
    ]);
    expect(i.conventions.retrieval).toBe("openinference");
    expect(i.retrieved!.map((d) => d.id)).toEqual(twelve.map((n) => `c${n}`));
    expect(i.retrieved!.map((d) => d.document_id)).toEqual(twelve.map((n) => `d${n}`));
    expect(i.retrieved![10]!.score).toBe(1);
  });

  it("document id: metadata.source when there is no document_id, null without metadata; numeric ids become strings", () => {
    const i = extractInteraction(TRACE, [
      span("retrieve", {
        "openinference.span.kind": "RETRIEVER",
        "retrieval.documents.0.document.id": 42,
        "retrieval.documents.0.document.metadata": JSON.stringify({ source: "faq.md" }),
        "retrieval.documents.1.document.id": "c1",
      }),
    ]);
    expect(i.retrieved).toEqual([
      { id: "42", document_id: "faq.md", text: null, score: null },
      { id: "c1", document_id: null, text: null, score: null },
    ]);
    expect(retrievedItems(i)).toBeNull();
  });

  it("a reranker ending after the retriever wins; LLM messages with multi-part contents", () => {
    const i = extractInteraction(TRACE, [
      span("retrieve", retriever(3)),
      span(
        "rerank",
        { "openinference.span.kind": "RERANKER", "reranker.query": "q?", "reranker.output_documents.0.document.id": "c2", "reranker.output_documents.0.document.content": "t2" },
        { end: 1 },
      ),
      span(
        "llm",
        {
          "openinference.span.kind": "LLM",
          "llm.model_name": "m",
          "llm.input_messages.0.message.role": "user",
          "llm.input_messages.0.message.contents.0.message_content.type": "text",
          "llm.input_messages.0.message.contents.0.message_content.text": "q?",
          "llm.output_messages.0.message.role": "assistant",
          "llm.output_messages.0.message.content": "a.",
          "llm.token_count.prompt": 10,
          "llm.token_count.completion": 3,
        },
        { end: 2 },
      ),
    ]);
    expect(i.retrieved!.map((d) => d.id)).toEqual(["c2"]);
    expect([i.question, i.answer, i.generator_model, i.input_tokens, i.output_tokens]).toEqual(["q?", "a.", "m", "10", "3"]);
  });

  it("a JSON retriever input yields its query string", () => {
    const i = extractInteraction(TRACE, [span("retrieve", { ...retriever(1), "input.value": JSON.stringify({ query: "q?", k: 5 }), "input.mime_type": "application/json" })]);
    expect(i.question).toBe("q?");
  });
});

describe("precedence and the other conventions", () => {
  it("OTel GenAI wins over OpenInference names on the same spans", () => {
    const i = extractInteraction(TRACE, [
      span("retrieval", {
        "gen_ai.operation.name": "retrieval",
        "gen_ai.retrieval.documents": JSON.stringify([{ id: "g1", content: "x" }]),
        "openinference.span.kind": "RETRIEVER",
        "retrieval.documents.0.document.id": "o1",
      }),
    ]);
    expect(i.conventions.retrieval).toBe("otel-genai");
    expect(i.retrieved!.map((d) => d.id)).toEqual(["g1"]);
  });

  it("OpenLLMetry, earlier releases: gen_ai.prompt.<i> / gen_ai.completion.<i> and llm.usage.*; a task returning LangChain documents", () => {
    const i = extractInteraction(TRACE, [
      span("retrieve.task", {
        "traceloop.span.kind": "task",
        "traceloop.entity.input": JSON.stringify({ args: [{ query: "q?" }], kwargs: {} }),
        "traceloop.entity.output": JSON.stringify([{ pageContent: "t0", metadata: { source: "a.md", chunk_id: "a#0" } }]),
      }),
      span(
        "openai.chat",
        {
          "llm.request.type": "chat",
          "gen_ai.request.model": "m",
          "gen_ai.prompt.0.role": "user",
          "gen_ai.prompt.0.content": "q?",
          "gen_ai.completion.0.role": "assistant",
          "gen_ai.completion.0.content": "a.",
          "llm.usage.prompt_tokens": 7,
          "llm.usage.completion_tokens": 2,
        },
        { end: 1 },
      ),
    ]);
    expect(i.conventions).toEqual({ retrieval: "openllmetry", generation: "openllmetry" });
    expect(i.retrieved).toEqual([{ id: "a#0", document_id: "a.md", text: "t0", score: null }]);
    expect([i.question, i.answer, i.generator_model, i.input_tokens, i.output_tokens]).toEqual(["q?", "a.", "m", "7", "2"]);
  });

  it("Vercel AI SDK: the tool's model-written query is not the question; tool output under its newer name", () => {
    const root = span(
      "ai.generateText",
      {
        "ai.operationId": "ai.generateText",
        "ai.model.id": "m",
        "ai.prompt": JSON.stringify({ messages: [{ role: "user", content: [{ type: "text", text: "q?" }] }] }),
        "ai.response.text": "a.",
        "ai.usage.promptTokens": 9,
        "ai.usage.completionTokens": 4,
      },
      { end: 9, parent: "" },
    );
    const i = extractInteraction(TRACE, [
      span(
        "ai.toolCall",
        {
          "ai.operationId": "ai.toolCall",
          "ai.toolCall.input": JSON.stringify({ query: "search terms" }),
          "ai.toolCall.output": JSON.stringify({ documents: [{ id: "c1", text: "t1" }] }),
        },
        { parent: root.span_id },
      ),
      span("ai.generateText.doGenerate", { "ai.operationId": "ai.generateText.doGenerate", "ai.response.model": "m-2025" }, { parent: root.span_id, end: 8 }),
      root,
    ]);
    expect([i.question, i.answer, i.generator_model, i.input_tokens, i.output_tokens]).toEqual(["q?", "a.", "m-2025", "9", "4"]);
    expect(i.retrieved!.map((d) => d.id)).toEqual(["c1"]);
  });

  it("Vercel AI SDK rerank of text documents: rank order from ai.ranking; a bare text has no id (null, never its position)", () => {
    const i = extractInteraction(TRACE, [
      span("ai.rerank.doRerank", {
        "ai.operationId": "ai.rerank.doRerank",
        "ai.documents": ['"zero"', '"one"', '"two"'],
        "ai.ranking": ['{"index":2,"relevanceScore":0.9}', '{"index":0,"relevanceScore":0.4}'],
      }),
    ]);
    expect(i.retrieved).toEqual([
      { id: null, document_id: null, text: "two", score: 0.9 },
      { id: null, document_id: null, text: "zero", score: 0.4 },
    ]);
  });

  it("AI SDK 7 rerank span (gen_ai.operation.name = rerank, @ai-sdk/otel with reranking: true): the provider call's span with ai.ranking wins over the operation span that lists only the candidates", () => {
    const docs = ['{"id":"c0","text":"zero"}', '{"id":"c1","text":"one"}', '{"id":"c2","text":"two"}'];
    const op = span("rerank r", { "gen_ai.operation.name": "rerank", "gen_ai.request.model": "r", "ai.documents": docs }, { end: 5, parent: "" });
    const call = span(
      "rerank r",
      {
        "gen_ai.operation.name": "rerank",
        "ai.documents": docs,
        "ai.ranking.type": "object",
        "ai.ranking": ['{"index":1,"relevanceScore":0.8}', '{"index":2,"relevanceScore":0.3}'],
      },
      { end: 4, parent: op.span_id },
    );
    const i = extractInteraction(TRACE, [op, call]);
    expect(i.conventions.retrieval).toBe("vercel-ai");
    expect(i.spans.retrieval).toBe(call.span_id);
    expect(i.retrieved).toEqual([
      { id: "c1", document_id: null, text: "one", score: 0.8 },
      { id: "c2", document_id: null, text: "two", score: 0.3 },
    ]);
    expect(i.retrieval_uncaptured).toBeNull();
  });

  it("a rerank span that records no documents (AI SDK 7's default, AI SDK 6 with recordInputs off): retrieved null, the span and how to record them named, never an empty retrieval", () => {
    const seven = span("rerank r", { "gen_ai.operation.name": "rerank", "gen_ai.provider.name": "local", "gen_ai.request.model": "r" }, { parent: "" });
    const i = extractInteraction(TRACE, [seven]);
    expect(i.retrieved).toBeNull();
    expect(i.conventions.retrieval).toBe("vercel-ai");
    expect(i.retrieval_uncaptured).toEqual({
      span: `rerank r (${seven.span_id})`,
      reason:
        "the rerank span records no documents (ai.documents) and ranking (ai.ranking): AI SDK 7 records a rerank's documents and ranking only when its OpenTelemetry integration is built with `new OpenTelemetry({ reranking: true })` (@ai-sdk/otel), and recordInputs / recordOutputs are not off",
    });
    const six = extractInteraction(TRACE, [span("ai.rerank.doRerank", { "ai.operationId": "ai.rerank.doRerank", "ai.ranking": ['{"index":0,"relevanceScore":0.5}'] })]);
    expect(six.retrieved).toBeNull();
    expect(six.retrieval_uncaptured!.reason).toBe(
      "the rerank span records no documents (ai.documents): AI SDK 6 records them only with experimental_telemetry recordInputs and recordOutputs on",
    );
    // a retrieval that did record its documents wins over one that did not
    const withTool = extractInteraction(TRACE, [
      seven,
      span("execute_tool retrieve", { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.call.result": JSON.stringify([{ id: "c1", content: "t1" }]) }),
    ]);
    expect([withTool.retrieved!.map((d) => d.id), withTool.retrieval_uncaptured]).toEqual([["c1"], null]);
  });

  it("a trace without any retrieval span has retrieved null", () => {
    const i = extractInteraction(TRACE, [span("chat", { "gen_ai.operation.name": "chat" })]);
    expect(i.retrieved).toBeNull();
    expect(retrievedItems(i)).toBeNull();
  });
});

describe("the spans the scores evaluate (evaluation export)", () => {
  it("names the used retrieval and generation spans (the latest-ending of each) and the root span", () => {
    const root = span("rag.query", {}, { id: "00000000000000a1", parent: "ffffffffffffffff" });
    const retriever = span(
      "retrieval kb",
      { "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.query.text": "q", "gen_ai.retrieval.documents": "[]" },
      { id: "00000000000000b1", parent: root.span_id, end: 1 },
    );
    const reranker = span(
      "retrieval rerank",
      { "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.query.text": "q", "gen_ai.retrieval.documents": "[]" },
      { id: "00000000000000b2", parent: root.span_id, end: 2 },
    );
    const chat = span("chat m", { "gen_ai.operation.name": "chat", "gen_ai.request.model": "m" }, { id: "00000000000000c1", parent: root.span_id, end: 3 });
    expect(extractInteraction(TRACE, [chat, reranker, retriever, root]).spans).toEqual({ retrieval: "00000000000000b2", generation: "00000000000000c1", root: "00000000000000a1" });
    // No retrieval, no generation: only the root; a root with no parent at all counts too.
    const lone = span("work", {}, { id: "00000000000000d1", parent: "" });
    expect(extractInteraction(TRACE, [lone]).spans).toEqual({ retrieval: null, generation: null, root: "00000000000000d1" });
  });
});
