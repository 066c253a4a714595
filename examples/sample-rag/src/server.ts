import { createRagInstrumentation, type RagInstrumentation } from "@ragmeter/instrumentation";
import Fastify from "fastify";
import { z } from "zod";
import type { SamplePipeline } from "./pipeline.js";

/** A running sample HTTP target. */
export interface SampleServer {
  /** Base URL, e.g. `http://127.0.0.1:8080`; the target is `${url}/ask`. */
  readonly url: string;
  close(): Promise<void>;
}

const askBody = z.object({ question: z.string().min(1) });

/**
 * Serves `pipeline` as an HTTP target with the contract of `ragmeter eval`:
 * `POST /ask {question}` → `200 {answer, contexts:[{id, document_id, text, score}]}`;
 * a body without a string `question` → 400 naming the field. Each request runs inside an
 * interaction span of `rag` (OpenTelemetry; a no-op until an SDK is registered).
 * @param port TCP port (0 picks a free one); host 127.0.0.1 unless `host` is given.
 */
export async function startSampleServer(
  pipeline: SamplePipeline,
  port: number,
  host = "127.0.0.1",
  rag: RagInstrumentation = createRagInstrumentation({ pipelineVersion: `sample-${pipeline.version}` }),
): Promise<SampleServer> {
  const app = Fastify({ logger: false });
  app.post("/ask", async (req, reply) => {
    const parsed = askBody.safeParse(req.body);
    if (!parsed.success) {
      return reply.code(400).send({ error: `body field "question": ${parsed.error.issues[0]?.message ?? "invalid"}` });
    }
    // One interaction span per request, joining the caller's trace (traceparent) and baggage (run and
    // golden ids), so the retrieval and generation spans share one trace and carry them.
    const r = await rag.traceInteraction(() => pipeline.ask(parsed.data.question), { headers: req.headers });
    return { answer: r.answer, contexts: r.contexts, model: r.model, pipeline_version: `sample-${pipeline.version}` };
  });
  app.get("/healthz", async () => ({ ok: true }));
  const url = await app.listen({ port, host });
  return { url, close: () => app.close() };
}
