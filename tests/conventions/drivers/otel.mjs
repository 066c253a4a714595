// Shared OpenTelemetry SDK set-up of the drivers: a tracer provider (and, when asked, a logger
// provider) exporting OTLP/HTTP protobuf with the official exporters to RAGMETER_TEST_OTLP_URL.
import { context, propagation, trace } from "@opentelemetry/api";
import { logs } from "@opentelemetry/api-logs";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { otlpUrl } from "./scenario.mjs";

export function startOtel({ serviceName, withLogs = false }) {
  const resource = resourceFromAttributes({ "service.name": serviceName, "deployment.environment.name": "conventions-test" });
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${otlpUrl()}/v1/traces` }))],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(tracerProvider);
  let loggerProvider;
  if (withLogs) {
    loggerProvider = new LoggerProvider({
      resource,
      processors: [new SimpleLogRecordProcessor({ exporter: new OTLPLogExporter({ url: `${otlpUrl()}/v1/logs` }) })],
    });
    logs.setGlobalLoggerProvider(loggerProvider);
  }
  return {
    tracerProvider,
    loggerProvider,
    async shutdown() {
      await tracerProvider.forceFlush();
      await loggerProvider?.forceFlush();
      await tracerProvider.shutdown();
      await loggerProvider?.shutdown();
    },
  };
}
