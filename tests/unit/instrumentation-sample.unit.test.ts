import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSamplePipeline, type SamplePipelineHooks } from "../../examples/sample-rag/src/pipeline.js";
import { createRagInstrumentation } from "../../instrumentation/src/index.js";
import { installContextAndPropagators, memoryTracing, spanNamed } from "../helpers/instrumentation-setup.js";

// The bundled sample pipeline wrapped with the package through its `hooks` (how
// examples/sample-rag/src/serve.ts is meant to plug it in): one retrieval and one generation
// span per question, the extractive answer included.

const { exporter, provider, tracer } = memoryTracing();
let uninstall: () => void;
beforeAll(() => {
  uninstall = installContextAndPropagators();
});
afterAll(async () => {
  uninstall();
  await provider.shutdown();
});

function hooksFor(rag: ReturnType<typeof createRagInstrumentation>, topK: number): SamplePipelineHooks {
  return {
    retrieve: (question, run) => rag.traceRetrieval({ query: question, topK, dataSourceId: "sample-corpus" }, run),
    generate: (question, _contexts, run) => rag.traceGeneration({ model: "extractive", question, inProcess: true }, run),
  };
}

describe("bundled sample pipeline with @ragmeter/instrumentation", () => {
  it("emits a retrieval and a generation span whose content matches the reply", async () => {
    const rag = createRagInstrumentation({ tracer, captureContent: true, pipelineVersion: "v1" });
    const pipeline = await createSamplePipeline({ version: "v1", topK: 5, hooks: hooksFor(rag, 5) });
    const reply = await rag.traceInteraction(() => pipeline.ask("How do I reset my password?"), {
      headers: { baggage: "ragmeter.golden.id=g-1,ragmeter.run.id=r-1" },
    });
    expect(reply.contexts.length).toBeGreaterThan(0);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(["chat extractive", "rag.interaction", "retrieval sample-corpus"]);
    const retrieval = spanNamed(spans, "retrieval sample-corpus").attributes;
    const docs = JSON.parse(String(retrieval["gen_ai.retrieval.documents"])) as Array<Record<string, unknown>>;
    expect(docs.map((d) => d["id"])).toEqual(reply.contexts.map((c) => c.id));
    expect(docs.map((d) => d["content"])).toEqual(reply.contexts.map((c) => c.text));
    expect(docs.map((d) => d["document_id"] ?? d["id"])).toEqual(reply.contexts.map((c) => c.document_id));
    expect(retrieval["ragmeter.golden.id"]).toBe("g-1");
    const generation = spanNamed(spans, "chat extractive").attributes;
    const output = JSON.parse(String(generation["gen_ai.output.messages"])) as Array<{ parts: Array<{ content: string }> }>;
    expect(output[0]?.parts[0]?.content).toBe(reply.answer);
    expect(generation["ragmeter.pipeline.version"]).toBe("v1");
  });
});
