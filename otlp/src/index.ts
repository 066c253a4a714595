/**
 * @ragmeter/otlp — the OTLP model, JSON and protobuf codecs (per-item rejection), ids, 64-bit
 * integers, and the Kafka record contract shared by the collector and the scorer (the Kafka client,
 * its settings and topics are @ragmeter/kafka's).
 */
export {
  CONTENT_TYPES,
  decodeErrorStatus,
  decodeExportResponse,
  decodeLogsRequest,
  decodeTraceRequest,
  encodeErrorStatus,
  encodeExportResponse,
  encodeLogsRequest,
  encodeTraceRequest,
  encodingOf,
} from "./codec.js";
export { countProtobufItems } from "./count.js";
export { OtlpDecodeError, OtlpError, UnsupportedMediaTypeError } from "./errors.js";
export { bytesToHex, checkBinaryId, checkHexId, hexToBytes, isAllZero } from "./ids.js";
export { bigIntToBits, INT64_MAX, INT64_MIN, type LongLike, longToBigInt, UINT64_MAX } from "./int64.js";
export { decodeLogsRequestJson, decodeTraceRequestJson, encodeLogsRequestJson, encodeTraceRequestJson, parseJsonExact, quoteLongIntegers } from "./json.js";
export {
  type DecodedRecord,
  deadLetterHeaders,
  deadLetterTopic,
  decodeRecord,
  ERROR_HEADER,
  encodeRecordValue,
  RecordDecodeError,
  recordHeaders,
  recordKey,
  SIGNAL_HEADER,
  SIGNALS,
  type Signal,
  SOURCE_HEADER,
  signalOf,
} from "./kafka-record.js";
export { DEFAULT_OTLP_LIMITS, MAX_ERRORS, MAX_VALUE_DEPTH, type OtlpLimits } from "./limits.js";
export type * from "./model.js";
export { pb } from "./proto.js";
export { decodeLogsRequestProtobuf, decodeTraceRequestProtobuf, encodeLogsRequestProtobuf, encodeTraceRequestProtobuf } from "./protobuf.js";
export { type SplitRecord, type SplitTraces, splitTraceRequestProtobuf } from "./split.js";
