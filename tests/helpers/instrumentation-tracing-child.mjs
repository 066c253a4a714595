// Child process for instrumentation-tracing.integration.test.ts: a tiny "RAG service"
// that starts tracing from the built package, emits one span pair and waits for SIGTERM.
import { startTracing } from "../../instrumentation/dist/tracing.js";

startTracing({ serviceName: "fallback-service", pipelineVersion: "pv-child" });
const { createRagInstrumentation, withIncomingContext } = await import("../../instrumentation/dist/index.js");

const rag = createRagInstrumentation(); // content capture from the environment
const headers = {
  traceparent: "00-5b8efff798038103d269b633813fc60c-eee19b7ec3c1b174-01",
  baggage: "ragmeter.run.id=run-child,ragmeter.golden.id=g-child",
};
await withIncomingContext(headers, async () => {
  const contexts = await rag.traceRetrieval({ query: "what is the refund window?", dataSourceId: "kb" }, () => [
    { id: "c1", document_id: "d1", text: "Refunds within 30 days.", score: 0.9 },
  ]);
  await rag.traceGeneration({ model: "extractive", question: "what is the refund window?", inProcess: true }, () => ({
    answer: contexts[0].text,
  }));
});

if (process.env.CHILD_OWN_SIGTERM === "1") {
  // An application with its own SIGTERM handling: startTracing must not kill it.
  process.on("SIGTERM", () => {
    process.stdout.write("app-handler\n");
    setTimeout(() => process.exit(0), 200);
  });
}
setInterval(() => {}, 1000); // keeps the process alive until a signal arrives
process.stdout.write("ready\n");
