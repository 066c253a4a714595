import { ROOT_CONTEXT, TraceFlags, trace } from "@opentelemetry/api";
import { SeverityNumber } from "@opentelemetry/api-logs";
import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider, type LogRecordExporter, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { EVALUATION_EVENT, type Evaluation, type EvaluationSink } from "@ragmeter/core/domain/evaluation";

/** Where evaluation results are exported (`RAGMETER_EVALUATION_EXPORT_ENDPOINT`, design §15). */
export interface EvaluationExportConfig {
  /** Full OTLP/HTTP logs URL (`…/v1/logs`). */
  readonly url: string;
  /** Request headers (`OTEL_EXPORTER_OTLP_LOGS_HEADERS`, else `OTEL_EXPORTER_OTLP_HEADERS`). */
  readonly headers: Readonly<Record<string, string>>;
  /** Bound of one export request and its retries, ms (`OTEL_EXPORTER_OTLP_LOGS_TIMEOUT`, else `OTEL_EXPORTER_OTLP_TIMEOUT`). */
  readonly timeoutMs: number;
}

/** What an export did, reported on shutdown. */
interface EvaluationExportStats {
  /** Events handed to the SDK. */
  readonly emitted: number;
  /** Events the endpoint accepted. */
  readonly exported: number;
  /** Events whose export failed after the SDK's retries (dropped; the scores stay stored). */
  readonly failed: number;
}

/** A running evaluation export: an {@link EvaluationSink} with its own LoggerProvider. */
export interface EvaluationExport extends EvaluationSink {
  /** Exports what is buffered, then stops the provider; never throws. */
  shutdown(): Promise<EvaluationExportStats>;
}

/** Instrumentation scope of the events. */
const SCOPE = "ragmeter";
/** Events buffered before the SDK drops new ones: a large eval's burst stays whole. */
const MAX_QUEUE = 65_536;

/**
 * Counts what the OTLP exporter accepted and failed, and reports the first failure once (the SDK
 * has retried by then: the events are dropped, the scores are stored). After a failed export, the
 * batches handed over within the next `downMs` are dropped at once instead of each retrying for a
 * whole timeout: the processor exports one batch at a time, so a command's shutdown would otherwise
 * wait one timeout per batch of 512 (24 s for the bundled sample's 1,210 events at 10 s). Past that
 * window the next batch tries the endpoint again (a long-running `serve` recovers).
 */
class CountingExporter implements LogRecordExporter {
  exported = 0;
  failed = 0;
  private warned = false;
  private downUntil = 0;
  constructor(
    private readonly inner: LogRecordExporter,
    private readonly url: string,
    private readonly warn: (message: string) => void,
    private readonly downMs: number,
  ) {}
  export(logs: ReadableLogRecord[], done: (result: ExportResult) => void): void {
    if (Date.now() < this.downUntil) {
      this.failed += logs.length;
      done({ code: ExportResultCode.FAILED, error: new Error(`${this.url} failed less than ${this.downMs} ms ago; batch dropped without retrying`) });
      return;
    }
    this.inner.export(logs, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.exported += logs.length;
      else {
        this.downUntil = Date.now() + this.downMs;
        this.failed += logs.length;
        if (!this.warned) {
          this.warned = true;
          this.warn(`evaluation export to ${this.url} failed (${result.error?.message ?? "unknown error"}); its events are dropped, the scores are stored`);
        }
      }
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
}

/**
 * Starts an evaluation export (design §15): a LoggerProvider of its own (never the global one)
 * with resource `service.name` = `serviceName`, a BatchLogRecordProcessor and the OTLP/HTTP
 * protobuf log exporter. Each {@link Evaluation} becomes one log record with event name
 * `gen_ai.evaluation.result`, its attributes, severity INFO (WARN when the evaluation failed) and
 * the trace context of the evaluated span.
 * @param warn called once, on the first failed export.
 */
export function startEvaluationExport(config: EvaluationExportConfig, serviceName: string, warn: (message: string) => void): EvaluationExport {
  const exporter = new CountingExporter(
    new OTLPLogExporter({ url: config.url, headers: { ...config.headers }, timeoutMillis: config.timeoutMs }),
    config.url,
    warn,
    config.timeoutMs,
  );
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    processors: [new BatchLogRecordProcessor({ exporter, maxQueueSize: MAX_QUEUE, maxExportBatchSize: 512, exportTimeoutMillis: config.timeoutMs + 1000 })],
  });
  const logger = provider.getLogger(SCOPE);
  let emitted = 0;
  let stopped: Promise<EvaluationExportStats> | null = null;
  return {
    emit(evaluations) {
      if (stopped !== null) return;
      for (const e of evaluations) {
        const ctx = e.span_id === null ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, { traceId: e.trace_id, spanId: e.span_id, traceFlags: TraceFlags.SAMPLED });
        logger.emit({
          eventName: EVALUATION_EVENT,
          severityNumber: e.error ? SeverityNumber.WARN : SeverityNumber.INFO,
          severityText: e.error ? "WARN" : "INFO",
          attributes: e.attributes,
          context: ctx,
        });
        emitted++;
      }
    },
    shutdown() {
      stopped ??= provider
        .shutdown()
        .catch(() => undefined)
        .then(() => ({ emitted, exported: exporter.exported, failed: exporter.failed }));
      return stopped;
    },
  };
}
