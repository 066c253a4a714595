/**
 * @ragmeter/collector — OTLP/HTTP receiver that forwards one Kafka record per trace.
 */

export { type Batch, batchLogs, batchTraces, countLogRecords, countSpans, type TraceRecord } from "./batching.js";
export { WorkerStartError } from "./cluster.js";
export { type CollectorCommandOptions, registerCollectorCommand, runCollectorCommand } from "./command.js";
export { COLLECTOR_ENV, type CollectorConfig, type CollectorFlags, collectorConfigSchema, limitsOf, loadCollectorConfig } from "./config.js";
export {
  CollectorConfigError,
  CollectorError,
  KafkaUnavailableError,
  OverloadedError,
  PayloadTooLargeError,
  TopicMissingError,
  UnauthorizedError,
} from "./errors.js";
export { createKafkaSink, type Readiness, type RecordSink } from "./kafka-sink.js";
export { type CollectorDeps, type CollectorStats, type HttpRoutes, type RunningCollector, startCollector } from "./server.js";
