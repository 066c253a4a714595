import { readdirSync, readFileSync } from "node:fs";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { capCodePoints, createRagInstrumentation, PACKAGE_VERSION, type RetrievedItem, withIncomingContext } from "../../instrumentation/src/index.js";
import { ITEMS, installContextAndPropagators, memoryTracing, spanNamed, spyDiag } from "../helpers/instrumentation-setup.js";

const { exporter, provider, tracer } = memoryTracing();
let uninstall: () => void;

beforeAll(() => {
  uninstall = installContextAndPropagators();
});
afterAll(async () => {
  uninstall();
  await provider.shutdown();
});
afterEach(() => {
  exporter.reset();
  delete process.env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"];
  delete process.env["OTEL_RESOURCE_ATTRIBUTES"];
});

const GENERATION = {
  model: "gpt-test-mini",
  question: "How long is the refund window?",
  systemInstructions: "Answer from the context only.",
  providerName: "openai",
};
const RESULT = {
  answer: "You can ask for a refund within 30 days.",
  model: "gpt-test-mini-2026-01-01",
  usage: { input_tokens: 412, output_tokens: 17 },
  finishReason: "stop",
  responseId: "chatcmpl-1",
};

async function runPair(rag: ReturnType<typeof createRagInstrumentation>) {
  const items = await rag.traceRetrieval({ query: GENERATION.question, topK: 3, dataSourceId: "kb-main", model: "text-embed-3" }, async () => ITEMS);
  const result = await rag.traceGeneration(GENERATION, async () => RESULT);
  return { items, result };
}

function documentsOf(attrs: Record<string, unknown>): Array<Record<string, unknown>> {
  return JSON.parse(String(attrs["gen_ai.retrieval.documents"])) as Array<Record<string, unknown>>;
}

describe("retrieval and generation spans, content off (default)", () => {
  it("writes the GenAI attributes without any content", async () => {
    const rag = createRagInstrumentation({ tracer, pipelineVersion: "pv-42" });
    expect(rag.captureContent).toBe(false);
    const { items, result } = await runPair(rag);
    expect(items).toBe(ITEMS);
    expect(result).toBe(RESULT);

    const spans = exporter.getFinishedSpans();
    const retrieval = spanNamed(spans, "retrieval kb-main");
    expect(retrieval.kind).toBe(SpanKind.INTERNAL);
    expect(retrieval.attributes).toEqual({
      "gen_ai.operation.name": "retrieval",
      "gen_ai.data_source.id": "kb-main",
      "gen_ai.retrieval.top_k": 3,
      "gen_ai.request.model": "text-embed-3",
      "ragmeter.pipeline.version": "pv-42",
      "gen_ai.retrieval.documents": JSON.stringify([
        { id: "doc-7", score: 0.91 },
        { id: "doc-3#c2", document_id: "doc-3", score: 0.72 },
        { id: "doc-9#c0", document_id: "doc-9", score: 0.4 },
      ]),
    });

    const generation = spanNamed(spans, "chat gpt-test-mini");
    expect(generation.kind).toBe(SpanKind.CLIENT);
    expect(generation.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gpt-test-mini",
      "gen_ai.provider.name": "openai",
      "ragmeter.pipeline.version": "pv-42",
      "gen_ai.response.model": "gpt-test-mini-2026-01-01",
      "gen_ai.response.id": "chatcmpl-1",
      "gen_ai.response.finish_reasons": ["stop"],
      "gen_ai.usage.input_tokens": 412,
      "gen_ai.usage.output_tokens": 17,
    });
    expect(generation.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("reads the default from OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT; the option wins", () => {
    process.env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "TRUE";
    expect(createRagInstrumentation({ tracer }).captureContent).toBe(true);
    expect(createRagInstrumentation({ tracer, captureContent: false }).captureContent).toBe(false);
    process.env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "false";
    expect(createRagInstrumentation({ tracer }).captureContent).toBe(false);
    process.env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "1";
    expect(createRagInstrumentation({ tracer }).captureContent).toBe(false);
  });
});

describe("content on", () => {
  it("adds query text, chunk contents, system instructions and messages", async () => {
    process.env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "true";
    const rag = createRagInstrumentation({ tracer, dataSourceId: "kb-default" });
    await rag.traceRetrieval(GENERATION.question, () => ITEMS);
    await rag.traceGeneration(GENERATION, () => RESULT);
    const spans = exporter.getFinishedSpans();

    const retrieval = spanNamed(spans, "retrieval kb-default").attributes;
    expect(retrieval["gen_ai.retrieval.query.text"]).toBe(GENERATION.question);
    expect(retrieval["gen_ai.data_source.id"]).toBe("kb-default");
    expect(documentsOf(retrieval)).toEqual([
      { id: "doc-7", score: 0.91, content: "The refund window is 30 days." },
      { id: "doc-3#c2", document_id: "doc-3", score: 0.72, content: "Refunds go to the original card." },
      { id: "doc-9#c0", document_id: "doc-9", score: 0.4, content: "Gift cards are non-refundable." },
    ]);
    expect(retrieval["ragmeter.content.truncated"]).toBeUndefined();
    expect(Object.keys(retrieval).some((k) => k.startsWith("openinference") || k.startsWith("retrieval."))).toBe(false);

    const generation = spanNamed(spans, "chat gpt-test-mini").attributes;
    expect(JSON.parse(String(generation["gen_ai.system_instructions"]))).toEqual([{ type: "text", content: "Answer from the context only." }]);
    expect(JSON.parse(String(generation["gen_ai.input.messages"]))).toEqual([{ role: "user", parts: [{ type: "text", content: GENERATION.question }] }]);
    expect(JSON.parse(String(generation["gen_ai.output.messages"]))).toEqual([{ role: "assistant", parts: [{ type: "text", content: RESULT.answer }], finish_reason: "stop" }]);
    expect(generation["input.value"]).toBeUndefined();
  });

  it("takes full messages when given and marks in-process models INTERNAL", async () => {
    const rag = createRagInstrumentation({ tracer, captureContent: true });
    await rag.traceGeneration(
      {
        operationName: "text_completion",
        inProcess: true,
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "Q?" },
        ],
      },
      () => ({ answer: "A." }),
    );
    const span = spanNamed(exporter.getFinishedSpans(), "text_completion");
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes["gen_ai.operation.name"]).toBe("text_completion");
    expect(JSON.parse(String(span.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "system", parts: [{ type: "text", content: "Be brief." }] },
      { role: "user", parts: [{ type: "text", content: "Q?" }] },
    ]);
    expect(span.attributes["gen_ai.response.model"]).toBeUndefined();
  });
});

describe("OpenInference option", () => {
  it("writes RETRIEVER and LLM names next to the GenAI ones", async () => {
    const rag = createRagInstrumentation({ tracer, captureContent: true, openInference: true, pipelineVersion: "v1" });
    const items: RetrievedItem[] = [
      { id: "c1", text: "alpha", score: 0.5, metadata: { page: 4 } },
      { id: "c2", document_id: "d2", text: "beta", score: 0.25 },
      { id: "c3", document_id: "c3", text: "gamma" },
    ];
    await rag.traceRetrieval({ query: "what?", dataSourceId: "kb" }, () => items);
    await rag.traceGeneration({ model: "m1", question: "what?", providerName: "openai" }, () => ({
      answer: "alpha beta",
      usage: { input_tokens: 10, output_tokens: 2 },
    }));
    const spans = exporter.getFinishedSpans();

    const r = spanNamed(spans, "retrieval kb").attributes;
    expect(r).toMatchObject({
      "gen_ai.operation.name": "retrieval",
      "openinference.span.kind": "RETRIEVER",
      "input.value": "what?",
      "input.mime_type": "text/plain",
      "retrieval.documents.0.document.id": "c1",
      "retrieval.documents.0.document.content": "alpha",
      "retrieval.documents.0.document.score": 0.5,
      "retrieval.documents.0.document.metadata": JSON.stringify({ page: 4 }),
      "retrieval.documents.1.document.id": "c2",
      "retrieval.documents.1.document.content": "beta",
      "retrieval.documents.1.document.score": 0.25,
      "retrieval.documents.1.document.metadata": JSON.stringify({ document_id: "d2" }),
      "retrieval.documents.2.document.id": "c3",
      "retrieval.documents.2.document.content": "gamma",
    });
    expect(r["retrieval.documents.2.document.score"]).toBeUndefined();
    // document_id equal to the chunk id is not repeated
    expect(r["retrieval.documents.2.document.metadata"]).toBeUndefined();
    expect(documentsOf(r)[2]).toEqual({ id: "c3", content: "gamma" });

    const g = spanNamed(spans, "chat m1").attributes;
    expect(g).toMatchObject({
      "gen_ai.operation.name": "chat",
      "openinference.span.kind": "LLM",
      "llm.model_name": "m1",
      "llm.provider": "openai",
      "llm.token_count.prompt": 10,
      "llm.token_count.completion": 2,
      "llm.token_count.total": 12,
      "input.value": "what?",
      "output.value": "alpha beta",
      "output.mime_type": "text/plain",
      "llm.input_messages.0.message.role": "user",
      "llm.input_messages.0.message.content": "what?",
      "llm.output_messages.0.message.role": "assistant",
      "llm.output_messages.0.message.content": "alpha beta",
      "ragmeter.pipeline.version": "v1",
    });
  });

  it("writes ids and scores but no content when capture is off", async () => {
    const rag = createRagInstrumentation({ tracer, openInference: true });
    await rag.traceRetrieval("secret question", () => ITEMS);
    await rag.traceGeneration({ model: "m1", question: "secret question" }, () => ({ answer: "secret answer" }));
    const spans = exporter.getFinishedSpans();
    const all = spans.flatMap((s) => Object.values(s.attributes).map(String));
    expect(all.some((v) => v.includes("secret") || v.includes("refund"))).toBe(false);
    const r = spanNamed(spans, "retrieval").attributes;
    expect(r["retrieval.documents.1.document.id"]).toBe("doc-3#c2");
    expect(r["retrieval.documents.1.document.metadata"]).toBe(JSON.stringify({ document_id: "doc-3" }));
    expect(r["retrieval.documents.1.document.content"]).toBeUndefined();
  });
});

describe("capped content", () => {
  it("caps each value at maxContentLength code points and flags the span", async () => {
    const rag = createRagInstrumentation({ tracer, captureContent: true, maxContentLength: 12, openInference: true });
    const long = "ab😀".repeat(10); // 30 code points, 40 UTF-16 units
    await rag.traceRetrieval("short query", () => [
      { id: "x", text: long, score: 1 },
      { id: "y", text: "fits", score: 0.5 },
    ]);
    await rag.traceGeneration({ model: "m", question: "q" }, () => ({ answer: long }));
    await rag.traceGeneration({ model: "short" }, () => ({ answer: "ok" }));
    const spans = exporter.getFinishedSpans();

    const r = spanNamed(spans, "retrieval").attributes;
    expect(r["ragmeter.content.truncated"]).toBe(true);
    const docs = documentsOf(r);
    expect(docs[0]?.["content"]).toBe("ab😀".repeat(4));
    expect(docs[1]?.["content"]).toBe("fits");
    expect(r["retrieval.documents.0.document.content"]).toBe("ab😀".repeat(4));
    expect(r["gen_ai.retrieval.query.text"]).toBe("short query");

    const g = spanNamed(spans, "chat m").attributes;
    expect(g["ragmeter.content.truncated"]).toBe(true);
    expect(g["output.value"]).toBe("ab😀".repeat(4));
    expect(spanNamed(spans, "chat short").attributes["ragmeter.content.truncated"]).toBeUndefined();
  });

  it("flags a capped query even when the retrieval then fails", async () => {
    const rag = createRagInstrumentation({ tracer, captureContent: true, maxContentLength: 3 });
    await expect(rag.traceRetrieval("a long query", () => Promise.reject(new RangeError("index down")))).rejects.toThrow("index down");
    const r = spanNamed(exporter.getFinishedSpans(), "retrieval");
    expect(r.attributes["gen_ai.retrieval.query.text"]).toBe("a l");
    expect(r.attributes["ragmeter.content.truncated"]).toBe(true);
  });

  it("capCodePoints never splits a surrogate pair and leaves short text alone", () => {
    expect(capCodePoints("😀😀😀", 2)).toEqual({ text: "😀😀", truncated: true });
    expect(capCodePoints("😀😀", 2)).toEqual({ text: "😀😀", truncated: false });
    expect(capCodePoints("abc", 0)).toEqual({ text: "abc", truncated: false });
    expect(capCodePoints("abc", Infinity)).toEqual({ text: "abc", truncated: false });
    expect(capCodePoints("a\uD800b", 2)).toEqual({ text: "a\uD800", truncated: true });
  });
});

describe("incoming traceparent and baggage", () => {
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  const parentId = "00f067aa0ba902b7";
  const headers = {
    traceparent: `00-${traceId}-${parentId}-01`,
    baggage: "ragmeter.run.id=run-2026-11-30,ragmeter.golden.id=g-017,ragmeter.pipeline.version=pv-from-eval",
  };

  it("puts the caller trace id, run id and golden id on both spans", async () => {
    const rag = createRagInstrumentation({ tracer });
    await withIncomingContext(headers, () => runPair(rag));
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.spanContext().traceId).toBe(traceId);
      expect(span.parentSpanContext?.spanId).toBe(parentId);
      expect(span.attributes["ragmeter.run.id"]).toBe("run-2026-11-30");
      expect(span.attributes["ragmeter.golden.id"]).toBe("g-017");
      // no version of its own: the one from the baggage
      expect(span.attributes["ragmeter.pipeline.version"]).toBe("pv-from-eval");
    }
  });

  it("keeps the target's own pipeline version over the baggage one", async () => {
    process.env["OTEL_RESOURCE_ATTRIBUTES"] = "service.name=rag,ragmeter.pipeline.version=pv%2Fown";
    const rag = createRagInstrumentation({ tracer });
    await withIncomingContext(headers, () => rag.traceRetrieval("q", () => []));
    const span = spanNamed(exporter.getFinishedSpans(), "retrieval");
    expect(span.attributes["ragmeter.pipeline.version"]).toBe("pv/own");
    expect(span.attributes["gen_ai.retrieval.documents"]).toBe("[]");
  });

  it("traceInteraction joins the caller trace and parents both spans", async () => {
    const rag = createRagInstrumentation({ tracer, openInference: true });
    await rag.traceInteraction(() => runPair(rag), { headers, name: "POST /ask" });
    const spans = exporter.getFinishedSpans();
    const root = spanNamed(spans, "POST /ask");
    expect(root.kind).toBe(SpanKind.SERVER);
    expect(root.parentSpanContext?.spanId).toBe(parentId);
    expect(root.attributes["openinference.span.kind"]).toBe("CHAIN");
    expect(root.attributes["ragmeter.golden.id"]).toBe("g-017");
    for (const name of ["retrieval kb-main", "chat gpt-test-mini"]) {
      const span = spanNamed(spans, name);
      expect(span.spanContext().traceId).toBe(traceId);
      expect(span.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
      expect(span.attributes["ragmeter.golden.id"]).toBe("g-017");
    }
  });

  it("without headers traceInteraction still gives one trace per request", async () => {
    const rag = createRagInstrumentation({ tracer });
    await rag.traceInteraction(() => runPair(rag));
    const spans = exporter.getFinishedSpans();
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(spanNamed(spans, "rag.interaction").kind).toBe(SpanKind.INTERNAL);
  });

  it("reads WHATWG Headers too", async () => {
    const rag = createRagInstrumentation({ tracer });
    await withIncomingContext(new Headers(headers), () => rag.traceRetrieval("q", () => []));
    expect(spanNamed(exporter.getFinishedSpans(), "retrieval").attributes["ragmeter.run.id"]).toBe("run-2026-11-30");
  });
});

describe("hooks and errors never break the call", () => {
  it("applies the redaction hook to every captured text", async () => {
    const seen: string[] = [];
    const rag = createRagInstrumentation({
      tracer,
      captureContent: true,
      redact: (text, kind) => {
        seen.push(kind);
        return text.replace(/\d+/g, "<n>");
      },
    });
    await runPair(rag);
    const spans = exporter.getFinishedSpans();
    expect(documentsOf(spanNamed(spans, "retrieval kb-main").attributes)[0]?.["content"]).toBe("The refund window is <n> days.");
    expect(String(spanNamed(spans, "chat gpt-test-mini").attributes["gen_ai.output.messages"])).toContain("within <n> days");
    expect(new Set(seen)).toEqual(new Set(["query", "document", "system", "input", "output"]));
  });

  it("drops content whose redaction throws, reports it through diag, returns the result", async () => {
    const { logger, restore } = spyDiag();
    try {
      const rag = createRagInstrumentation({
        tracer,
        captureContent: true,
        redact: (text, kind) => {
          if (kind === "document") throw new Error("redactor down");
          if (kind === "output") return undefined as unknown as string;
          return text;
        },
      });
      const { items, result } = await runPair(rag);
      expect(items).toBe(ITEMS);
      expect(result).toBe(RESULT);
      const spans = exporter.getFinishedSpans();
      const docs = documentsOf(spanNamed(spans, "retrieval kb-main").attributes);
      expect(docs.map((d) => d["id"])).toEqual(["doc-7", "doc-3#c2", "doc-9#c0"]);
      expect(docs.every((d) => d["content"] === undefined)).toBe(true);
      expect(spanNamed(spans, "chat gpt-test-mini").attributes["gen_ai.output.messages"]).toBeUndefined();
      expect(logger.error).toHaveBeenCalledWith(expect.stringContaining("redact hook threw for document"), expect.any(Error));
      expect(logger.error).toHaveBeenCalledWith(expect.stringContaining("returned undefined for output"));
    } finally {
      restore();
    }
  });

  it("records a failing step on the span and rethrows the same error", async () => {
    const rag = createRagInstrumentation({ tracer });
    const boom = new TypeError("model unavailable");
    await expect(rag.traceGeneration({ model: "m" }, () => Promise.reject(boom))).rejects.toBe(boom);
    const span = spanNamed(exporter.getFinishedSpans(), "chat m");
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "model unavailable" });
    expect(span.attributes["error.type"]).toBe("TypeError");
    expect(span.events.map((e) => e.name)).toEqual(["exception"]);
    expect(span.ended).toBe(true);
  });

  it("survives odd return values and unserialisable metadata", async () => {
    const { logger, restore } = spyDiag();
    try {
      const rag = createRagInstrumentation({ tracer, captureContent: true, openInference: true });
      const circular: Record<string, unknown> = {};
      circular["self"] = circular;
      const odd = await rag.traceRetrieval("q", () => "not an array" as unknown as RetrievedItem[]);
      expect(odd).toBe("not an array");
      await rag.traceRetrieval("q", () => [{ id: "a", document_id: "b", text: "t", metadata: circular }]);
      const nothing = await rag.traceGeneration({ model: "m" }, () => null as unknown as { answer: string });
      expect(nothing).toBeNull();
      expect(logger.warn).toHaveBeenCalledTimes(3);
      const spans = exporter.getFinishedSpans().filter((s) => s.name === "retrieval");
      expect(spans[1]?.attributes["retrieval.documents.0.document.metadata"]).toBe('{"document_id":"b"}');
    } finally {
      restore();
    }
  });

  it("accepts camelCase documentId and a null usage (shapes of the bundled sample pipeline)", async () => {
    const rag = createRagInstrumentation({ tracer, openInference: true });
    const chunks = [{ id: "faq.md#0", documentId: "faq.md", text: "t", score: 3.2 }];
    await rag.traceRetrieval("q", async () => chunks);
    await rag.traceGeneration({ model: "extractive", inProcess: true }, async () => ({ answer: "a", model: "extractive", usage: null }));
    const spans = exporter.getFinishedSpans();
    expect(documentsOf(spanNamed(spans, "retrieval").attributes)).toEqual([{ id: "faq.md#0", document_id: "faq.md", score: 3.2 }]);
    const g = spanNamed(spans, "chat extractive").attributes;
    expect(g["gen_ai.usage.input_tokens"]).toBeUndefined();
    expect(g["llm.token_count.total"]).toBeUndefined();
    expect(g["gen_ai.response.model"]).toBe("extractive");
  });

  it("is a no-op without any registered tracer provider", async () => {
    trace.disable();
    const rag = createRagInstrumentation({ captureContent: true });
    const { items, result } = await runPair(rag);
    expect(items).toBe(ITEMS);
    expect(result).toBe(RESULT);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });
});

describe("package", () => {
  it("PACKAGE_VERSION matches package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../instrumentation/package.json", import.meta.url), "utf8")) as {
      version: string;
      peerDependencies: Record<string, string>;
      dependencies?: Record<string, string>;
    };
    expect(PACKAGE_VERSION).toBe(pkg.version);
    expect(pkg.peerDependencies["@opentelemetry/api"]).toBeDefined();
    expect(pkg.dependencies).toBeUndefined();
  });

  it("the main entry imports nothing but @opentelemetry/api (the SDK only from ./tracing)", () => {
    const dir = new URL("../../instrumentation/src/", import.meta.url);
    const external = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "tracing.ts")) {
      const source = readFileSync(new URL(file, dir), "utf8");
      for (const match of source.matchAll(/from ["']([^"']+)["']/g)) {
        const spec = match[1] ?? "";
        if (!spec.startsWith(".")) external.add(spec);
      }
    }
    expect([...external]).toEqual(["@opentelemetry/api"]);
  });
});
