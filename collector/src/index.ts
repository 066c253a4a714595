/**
 * @ragmeter/collector — OTLP/HTTP receiver that forwards one Kafka record per trace.
 */
export { startCollector, type CollectorDeps, type CollectorStats, type RunningCollector } from "./server.js";
export { runCollectorCommand, type CollectorCommandOptions } from "./command.js";
export { collectorConfigSchema, loadCollectorConfig, COLLECTOR_ENV, type CollectorConfig, type CollectorFlags } from "./config.js";
export { createKafkaSink, SIGNAL_HEADER, type RecordSink } from "./kafka-sink.js";
export { batchTraces, batchLogs, countSpans, countLogRecords, type Batch, type TraceRecord } from "./batching.js";
export {
  decodeTraceRequest,
  decodeLogsRequest,
  encodeTraceRequest,
  encodeLogsRequest,
  encodeExportResponse,
  decodeExportResponse,
  encodeErrorStatus,
  decodeErrorStatus,
  encodingOf,
  CONTENT_TYPES,
  type Signal,
} from "./otlp/codec.js";
export { parseJsonExact } from "./otlp/json.js";
export type * from "./otlp/model.js";
export { createJsonLogger, silentLogger, type Logger, type LogLevel } from "./logger.js";
export {
  CollectorError,
  CollectorConfigError,
  OtlpDecodeError,
  UnsupportedMediaTypeError,
  PayloadTooLargeError,
  UnauthorizedError,
  OverloadedError,
  KafkaUnavailableError,
} from "./errors.js";
