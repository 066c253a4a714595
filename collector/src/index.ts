/**
 * @ragmeter/collector — OTLP/HTTP receiver that forwards one Kafka record per trace.
 */
export { startCollector, type CollectorDeps, type CollectorStats, type RunningCollector } from "./server.js";
export { runCollectorCommand, type CollectorCommandOptions } from "./command.js";
export { collectorConfigSchema, loadCollectorConfig, COLLECTOR_ENV, type CollectorConfig, type CollectorFlags } from "./config.js";
export { createKafkaSink, type RecordSink } from "./kafka-sink.js";
export { batchTraces, batchLogs, countSpans, countLogRecords, type Batch, type TraceRecord } from "./batching.js";
export { createJsonLogger, silentLogger, type Logger, type LogLevel } from "./logger.js";
export {
  CollectorError,
  CollectorConfigError,
  PayloadTooLargeError,
  UnauthorizedError,
  OverloadedError,
  KafkaUnavailableError,
} from "./errors.js";
