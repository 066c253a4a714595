#!/usr/bin/env node
import { createRagInstrumentation } from "@ragmeter/instrumentation";
import { startTracing } from "@ragmeter/instrumentation/tracing";
import OpenAI from "openai";
import { z } from "zod";
import { createSamplePipeline, SAMPLE_DATA_SOURCE } from "./pipeline.js";
import { startSampleServer } from "./server.js";

/**
 * `npm run sample:serve`: serves the sample pipeline on `PORT` (default 8080).
 * Env: `RAGMETER_SAMPLE_VERSION` (v1|v2, default v1); `RAGMETER_SAMPLE_MODEL` with
 * `OPENAI_BASE_URL`/`OPENAI_API_KEY` for LLM answers instead of extractive ones.
 * Content capture is ON unless `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=false`: the bundled
 * corpus is synthetic, and ragmeter needs question, chunks and answer to score grounding and relevance.
 */
const env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    RAGMETER_SAMPLE_VERSION: z.enum(["v1", "v2"]).default("v1"),
    RAGMETER_SAMPLE_MODEL: z.string().min(1).optional(),
    OPENAI_BASE_URL: z.string().url().optional(),
    OPENAI_API_KEY: z.string().optional(),
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: z
      .string()
      .regex(/^(true|false)$/iu, "expected true or false")
      .optional(),
  })
  .safeParse(process.env);
if (!env.success) {
  const i = env.error.issues[0];
  process.stderr.write(`sample:serve: environment variable ${String(i?.path[0])}: ${i?.message}\n`);
  process.exit(2);
}
const e = env.data;
// With OTEL_EXPORTER_OTLP_ENDPOINT set, export the pipeline's spans over OTLP/HTTP protobuf.
const tracing = process.env["OTEL_EXPORTER_OTLP_ENDPOINT"]
  ? startTracing({ serviceName: "ragmeter-sample", pipelineVersion: `sample-${e.RAGMETER_SAMPLE_VERSION}`, signals: [] })
  : undefined;
const llm = e.RAGMETER_SAMPLE_MODEL ? { client: new OpenAI({ baseURL: e.OPENAI_BASE_URL, apiKey: e.OPENAI_API_KEY ?? "none" }), model: e.RAGMETER_SAMPLE_MODEL } : undefined;
const captureContent = (e.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT ?? "true").toLowerCase() === "true";
const instrumentation = createRagInstrumentation({ pipelineVersion: `sample-${e.RAGMETER_SAMPLE_VERSION}`, dataSourceId: SAMPLE_DATA_SOURCE, captureContent });
const pipeline = await createSamplePipeline({ version: e.RAGMETER_SAMPLE_VERSION, instrumentation, ...(llm ? { llm } : {}) });
const server = await startSampleServer(pipeline, e.PORT, process.env["HOST"] ?? "127.0.0.1");
process.stdout.write(
  `sample pipeline ${pipeline.version} (${pipeline.chunkCount} chunks) at ${server.url}/ask${tracing ? `; spans ${captureContent ? "with" : "without"} content (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT)` : ""}\n`,
);
const stop = (): void => {
  void Promise.all([server.close(), tracing?.shutdown()]).then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
