// Shared pieces of the `eval --via-traces` tests: a free local port for the eval's OTLP receiver,
// the sample child that exports its traces there, and the eval flags of that mode.
import { createServer } from "node:net";
import { startSampleServeChild } from "./sampleServe.js";

/** A TCP port on 127.0.0.1 free at the time of the call. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** The sample target with content capture on, exporting its traces to `http://127.0.0.1:<otlpPort>`. */
export const startSampleTracingTo = (otlpPort: number): ReturnType<typeof startSampleServeChild> =>
  startSampleServeChild({
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
    OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
    OTEL_LOG_LEVEL: "none",
  });

/** `--via-traces` with the eval's own OTLP receiver on 127.0.0.1:<otlpPort>, a 300 ms quiet window and a 15 s trace timeout. */
export const viaTracesFlags = (otlpPort: number): string[] => [
  "--via-traces",
  "--otlp-port",
  String(otlpPort),
  "--otlp-host",
  "127.0.0.1",
  "--quiet-ms",
  "300",
  "--trace-timeout",
  "15000",
];
