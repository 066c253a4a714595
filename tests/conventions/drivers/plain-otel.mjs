// Plain OpenTelemetry SDK, no instrumentation library (issue 11). RAGMETER_TEST_MODE:
// - `retrieval-only`: one OTel GenAI retrieval span (a search service), golden baggage, no generation;
// - `capped`: retrieval + chat span exported with the SDK's attribute length limit
//   (spanLimits.attributeValueLengthLimit = RAGMETER_TEST_LIMIT), so the documents JSON is cut;
// - `health`: one lone non-RAG HTTP span.
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { DOCS, MODEL, otlpUrl, QUESTION } from "./scenario.mjs";

const mode = process.env.RAGMETER_TEST_MODE ?? "retrieval-only";
const limit = Number(process.env.RAGMETER_TEST_LIMIT ?? "512");
const tracerProvider = new BasicTracerProvider({
  resource: resourceFromAttributes({ "service.name": `conv-plain-${mode}` }),
  ...(mode === "capped" ? { spanLimits: { attributeValueLengthLimit: limit } } : {}),
  spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpUrl()}/v1/traces` }))],
});
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(tracerProvider);
const tracer = trace.getTracer("plain");
const docsJson = JSON.stringify(DOCS.map((d) => ({ id: d.id, document_id: d.document_id, content: d.text, score: d.score })));
// RAGMETER_TEST_TOKENS="in,out": usage above 2^53 (the JS API has no 64-bit integer attribute type, so a
// program that counts exactly records them as decimal strings).
const [tokIn, tokOut] = (process.env.RAGMETER_TEST_TOKENS ?? "").split(",");
const tokens = tokIn ? { "gen_ai.usage.input_tokens": tokIn, "gen_ai.usage.output_tokens": tokOut } : {};
const baggage = propagation.createBaggage({ "ragmeter.golden.id": { value: "g-refund" }, "ragmeter.run.id": { value: "run-plain" } });

await context.with(propagation.setBaggage(context.active(), baggage), async () => {
  if (mode === "health") {
    tracer.startActiveSpan("GET /health", { attributes: { "http.request.method": "GET", "url.path": "/health", "http.response.status_code": 200 } }, (s) => s.end());
    return;
  }
  await tracer.startActiveSpan("POST /ask", async (root) => {
    tracer.startActiveSpan(
      "retrieval kb",
      {
        attributes: {
          "gen_ai.operation.name": "retrieval",
          "gen_ai.retrieval.query.text": QUESTION,
          "gen_ai.retrieval.documents": docsJson,
          "gen_ai.request.top_k": 12,
          "ragmeter.golden.id": "g-refund",
          "ragmeter.run.id": "run-plain",
        },
      },
      (s) => s.end(),
    );
    if (mode === "capped") {
      tracer.startActiveSpan(
        `chat ${MODEL}`,
        {
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": MODEL,
            "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: QUESTION }] }]),
            "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "30 days." }] }]),
            ...tokens,
          },
        },
        (s) => s.end(),
      );
    }
    root.end();
  });
});
await tracerProvider.forceFlush();
await tracerProvider.shutdown();
