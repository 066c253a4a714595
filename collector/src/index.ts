/**
 * @ragmeter/collector — OTLP/HTTP receiver that forwards one Kafka record per trace.
 */
export { startCollector, type CollectorDeps, type CollectorStats, type RunningCollector } from "./server.js";
export { runCollectorCommand, registerCollectorCommand, type CollectorCommandOptions } from "./command.js";
export { untilShutdown } from "./shutdown.js";
export { collectorConfigSchema, loadCollectorConfig, COLLECTOR_ENV, type CollectorConfig, type CollectorFlags } from "./config.js";
export { createKafkaSink, type RecordSink, type Readiness } from "./kafka-sink.js";
export { batchTraces, batchLogs, countSpans, countLogRecords, type Batch, type TraceRecord } from "./batching.js";
export { createLogger, createJsonLogger, messageLogger, silentLogger, type Logger, type PinoLogger, type LoggerOptions, type LogLevel } from "./logger.js";
export {
  CollectorError,
  CollectorConfigError,
  PayloadTooLargeError,
  UnauthorizedError,
  OverloadedError,
  KafkaUnavailableError,
  TopicMissingError,
} from "./errors.js";
