/**
 * `@ragmeter/instrumentation/tracing` — optional OpenTelemetry SDK bootstrap.
 *
 * This entry point is the only one that loads the SDK (`@opentelemetry/sdk-node`,
 * `@opentelemetry/sdk-trace-base`, `@opentelemetry/resources`,
 * `@opentelemetry/exporter-trace-otlp-proto`, all optional peer dependencies of the
 * package: the service installs them, and its copies are the ones used). The main entry
 * needs nothing but the `@opentelemetry/api` peer.
 */
import { type Attributes, diag } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor, type BufferConfig, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { resourceAttributeFromEnv } from "./content.js";
import { ATTR_RAGMETER_PIPELINE_VERSION, ENV_OTEL_RESOURCE_ATTRIBUTES, ENV_OTEL_SERVICE_NAME } from "./semconv.js";

/** Options of {@link startTracing}. Every field is optional; `OTEL_*` variables apply as usual. */
export interface StartTracingOptions {
  /** `service.name` used only when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` set it. */
  serviceName?: string;
  /**
   * Resource attribute `ragmeter.pipeline.version` (an `OTEL_RESOURCE_ATTRIBUTES` entry wins).
   * The span helpers cannot see the SDK resource: give the same value to
   * `createRagInstrumentation({ pipelineVersion })`, or set it once in
   * `OTEL_RESOURCE_ATTRIBUTES`, which both read, to have it on the spans too.
   */
  pipelineVersion?: string;
  /** More resource attributes (`OTEL_RESOURCE_ATTRIBUTES` entries win over these). */
  resourceAttributes?: Attributes;
  /**
   * Span exporter; default the OTLP/HTTP protobuf exporter, configured by
   * `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (default
   * `http://localhost:4318/v1/traces`), `OTEL_EXPORTER_OTLP_HEADERS`, `…_TIMEOUT`.
   */
  exporter?: SpanExporter;
  /** Batch processor settings; default from `OTEL_BSP_*` (delay 5000 ms, batch 512). */
  batch?: BufferConfig;
  /**
   * Signals on which to flush and shut down; default `['SIGTERM']`. After the
   * shutdown, if no other listener handles the signal, it is raised again so the
   * process ends as it would have without this package. `[]` installs no handler.
   */
  signals?: readonly NodeJS.Signals[];
  /** Upper bound of a shutdown, in milliseconds; default 5000. */
  shutdownTimeoutMs?: number;
}

/** Handle returned by {@link startTracing}. */
export interface TracingHandle {
  /** The started SDK. */
  readonly sdk: NodeSDK;
  /**
   * Flushes pending spans and shuts the SDK down (at most `shutdownTimeoutMs`), and
   * removes the signal handlers. Idempotent; never rejects (errors go to `diag`).
   */
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry Node SDK for a RAG service: a `BatchSpanProcessor` in front of
 * the OTLP/HTTP protobuf trace exporter, W3C Trace Context + Baggage propagators (the
 * SDK default, `OTEL_PROPAGATORS` honoured), resource from `OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES` and the usual detectors, and a flush-and-shutdown on SIGTERM.
 *
 * Call it once, as early as possible (before the code it should trace runs). With
 * `OTEL_SDK_DISABLED=true` the SDK stays a no-op. Throws only if the SDK itself
 * throws while starting.
 */
export function startTracing(options: StartTracingOptions = {}): TracingHandle {
  const attributes: Attributes = { ...options.resourceAttributes };
  if (options.pipelineVersion !== undefined) attributes[ATTR_RAGMETER_PIPELINE_VERSION] = options.pipelineVersion;
  // NodeSDK's `serviceName` overrides the environment, so it is passed only when the
  // environment names no service (precedence: environment, then this option, then default).
  const envNamesService = (process.env[ENV_OTEL_SERVICE_NAME] ?? "") !== "" || resourceAttributeFromEnv(process.env[ENV_OTEL_RESOURCE_ATTRIBUTES], "service.name") !== undefined;
  const exporter = options.exporter ?? new OTLPTraceExporter();
  const sdk = new NodeSDK({
    // Detected resources (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, host, process) merge over this one.
    resource: resourceFromAttributes(attributes),
    ...(envNamesService || options.serviceName === undefined ? {} : { serviceName: options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter, options.batch)],
  });
  sdk.start();

  const timeoutMs = options.shutdownTimeoutMs ?? 5000;
  const signals = options.signals ?? ["SIGTERM"];
  let done: Promise<void> | undefined;

  const shutdown = (): Promise<void> => {
    if (done !== undefined) return done;
    for (const signal of signals) process.removeListener(signal, onSignal);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        diag.warn(`@ragmeter/instrumentation: tracing shutdown did not finish in ${timeoutMs} ms`);
        resolve();
      }, timeoutMs);
      timer.unref();
    });
    const stop = sdk.shutdown().catch((err: unknown) => {
      diag.error("@ragmeter/instrumentation: tracing shutdown failed", err);
    });
    done = Promise.race([stop, timeout]).finally(() => clearTimeout(timer));
    return done;
  };

  function onSignal(signal: NodeJS.Signals): void {
    void shutdown().then(() => {
      // Nobody else handles the signal: restore the default action (end the process).
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
  for (const signal of signals) process.once(signal, onSignal);

  return { sdk, shutdown };
}
