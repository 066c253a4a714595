/**
 * @ragmeter/otlp — the OTLP model, JSON and protobuf codecs (per-item rejection), ids, 64-bit
 * integers, and the Kafka record contract shared by the collector and the scorer.
 */
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
} from "./codec.js";
export { decodeTraceRequestProtobuf, decodeLogsRequestProtobuf, encodeTraceRequestProtobuf, encodeLogsRequestProtobuf } from "./protobuf.js";
export { splitTraceRequestProtobuf, type SplitTraces, type SplitRecord } from "./split.js";
export { decodeTraceRequestJson, decodeLogsRequestJson, encodeTraceRequestJson, encodeLogsRequestJson, parseJsonExact, quoteLongIntegers } from "./json.js";
export { bytesToHex, hexToBytes, checkHexId, checkBinaryId, isAllZero } from "./ids.js";
export { longToBigInt, bigIntToBits, INT64_MAX, INT64_MIN, UINT64_MAX, type LongLike } from "./int64.js";
export type * from "./model.js";
export { pb } from "./proto.js";
export { OtlpError, OtlpDecodeError, UnsupportedMediaTypeError } from "./errors.js";
export {
  SIGNALS,
  SIGNAL_HEADER,
  ERROR_HEADER,
  SOURCE_HEADER,
  deadLetterTopic,
  recordKey,
  recordHeaders,
  deadLetterHeaders,
  signalOf,
  encodeRecordValue,
  decodeRecord,
  RecordDecodeError,
  type Signal,
  type DecodedRecord,
} from "./kafka-record.js";
export { kafkaEnvSchema, brokerListSchema, topicSchema, DEFAULT_TOPIC, type KafkaEnv } from "./kafka-config.js";
