import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** Runs `examples/sample-rag/dist/serve.js` (npm run sample:serve) as a child; resolves with its /ask URL. */
export async function startSampleServeChild(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(root, "examples/sample-rag/dist/serve.js")], {
    env: { ...process.env, PORT: "0", OTEL_BSP_SCHEDULE_DELAY: "50", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      const m = /at (http:\/\/\S+\/ask)/u.exec(d.toString());
      if (m) resolve(m[1] as string);
    });
    child.on("exit", (c) => reject(new Error(`sample serve exited with ${c}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

type SampleChild = Awaited<ReturnType<typeof startSampleServeChild>>;

/** Two sample children exporting to `otlpUrl`: `sample-live` captures message content, `sample-dark` does not. */
export async function startLiveAndDarkSamples(otlpUrl: string): Promise<{ withContent: SampleChild; noContent: SampleChild }> {
  const withContent = await startSampleServeChild({
    OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    OTEL_SERVICE_NAME: "sample-live",
  });
  const noContent = await startSampleServeChild({
    OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "false",
    OTEL_SERVICE_NAME: "sample-dark",
  });
  return { withContent, noContent };
}
