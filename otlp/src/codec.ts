/**
 * Public OTLP codec: decode a body by content type, encode requests and responses.
 */
import { OtlpDecodeError, UnsupportedMediaTypeError } from "./errors.js";
import { bigIntToBits } from "./int64.js";
import { decodeLogsRequestJson, decodeTraceRequestJson, encodeLogsRequestJson, encodeTraceRequestJson } from "./json.js";
import type { Signal } from "./kafka-record.js";
import { DEFAULT_OTLP_LIMITS, type OtlpLimits } from "./limits.js";
import type { Decoded, LogsRequest, OtlpEncoding, TraceRequest } from "./model.js";
import { pb } from "./proto.js";
import { decodeLogsRequestProtobuf, decodeTraceRequestProtobuf, encodeLogsRequestProtobuf, encodeTraceRequestProtobuf } from "./protobuf.js";

/** Content type the collector answers with for each encoding. */
export const CONTENT_TYPES: Record<OtlpEncoding, string> = {
  protobuf: "application/x-protobuf",
  json: "application/json",
};

/**
 * Maps a Content-Type header to an OTLP encoding (parameters such as charset are ignored).
 * @throws UnsupportedMediaTypeError for anything but application/x-protobuf, application/protobuf or application/json.
 */
export function encodingOf(contentType: string | undefined): OtlpEncoding {
  const mime = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (mime === "application/x-protobuf" || mime === "application/protobuf") return "protobuf";
  if (mime === "application/json") return "json";
  throw new UnsupportedMediaTypeError(`unsupported content type ${JSON.stringify(contentType ?? "")}: send application/x-protobuf or application/json`);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function text(body: Uint8Array): string {
  try {
    return utf8.decode(body);
  } catch (err) {
    throw new OtlpDecodeError("body", "OTLP/JSON body is not valid UTF-8", { cause: err });
  }
}

/**
 * Decodes an uncompressed OTLP trace export body.
 * @param body request body (already gunzipped)
 * @param contentType the request's Content-Type (`application/x-protobuf` or `application/json`)
 * @param limits bounds of the work (limits.ts): a request over `maxItems` is refused, an item over another limit rejected
 * @returns the valid spans as a {@link TraceRequest}, plus the count and reasons of rejected spans
 * @throws UnsupportedMediaTypeError for another content type; OtlpDecodeError when the body cannot be decoded
 */
export function decodeTraceRequest(body: Uint8Array, contentType: string, limits: OtlpLimits = DEFAULT_OTLP_LIMITS): Decoded<TraceRequest> {
  return encodingOf(contentType) === "protobuf" ? decodeTraceRequestProtobuf(body, limits) : decodeTraceRequestJson(text(body), limits);
}

/**
 * Decodes an uncompressed OTLP logs export body (see {@link decodeTraceRequest}).
 * @throws UnsupportedMediaTypeError, OtlpDecodeError
 */
export function decodeLogsRequest(body: Uint8Array, contentType: string, limits: OtlpLimits = DEFAULT_OTLP_LIMITS): Decoded<LogsRequest> {
  return encodingOf(contentType) === "protobuf" ? decodeLogsRequestProtobuf(body, limits) : decodeLogsRequestJson(text(body), limits);
}

/** Encodes a trace request as protobuf bytes (default) or OTLP/JSON UTF-8 bytes. */
export function encodeTraceRequest(req: TraceRequest, encoding: OtlpEncoding = "protobuf"): Uint8Array {
  return encoding === "protobuf" ? encodeTraceRequestProtobuf(req) : Buffer.from(encodeTraceRequestJson(req), "utf8");
}

/** Encodes a logs request as protobuf bytes (default) or OTLP/JSON UTF-8 bytes. */
export function encodeLogsRequest(req: LogsRequest, encoding: OtlpEncoding = "protobuf"): Uint8Array {
  return encoding === "protobuf" ? encodeLogsRequestProtobuf(req) : Buffer.from(encodeLogsRequestJson(req), "utf8");
}

/**
 * Encodes an export response: empty on full success, `partialSuccess` with the rejected count and
 * error message otherwise (int64 `rejectedSpans`/`rejectedLogRecords` as a decimal string in JSON).
 */
export function encodeExportResponse(signal: Signal, encoding: OtlpEncoding, rejected: number, errorMessage: string): Uint8Array {
  const countField = signal === "traces" ? "rejectedSpans" : "rejectedLogRecords";
  const type = signal === "traces" ? pb.ExportTraceServiceResponse : pb.ExportLogsServiceResponse;
  if (encoding === "json") {
    const body = rejected > 0 || errorMessage ? { partialSuccess: { [countField]: String(rejected), errorMessage } } : {};
    return Buffer.from(JSON.stringify(body), "utf8");
  }
  const msg = rejected > 0 || errorMessage ? { partialSuccess: { [countField]: bigIntToBits(BigInt(rejected)), errorMessage } } : {};
  return type.encode(msg).finish();
}

/** Encodes an error body as `google.rpc.Status` (protobuf) or `{code, message}` (JSON). */
export function encodeErrorStatus(encoding: OtlpEncoding, code: number, message: string): Uint8Array {
  if (encoding === "json") return Buffer.from(JSON.stringify({ code, message }), "utf8");
  return pb.RpcStatus.encode({ code, message }).finish();
}

/** Decodes a `google.rpc.Status` error body (protobuf); for tests and clients. */
export function decodeErrorStatus(body: Uint8Array): { code: number; message: string } {
  const m = pb.RpcStatus.decode(body) as unknown as { code: number; message: string };
  return { code: m.code, message: m.message };
}

/** Decodes an `ExportTraceServiceResponse`/`ExportLogsServiceResponse` (protobuf); for tests and clients. */
export function decodeExportResponse(signal: Signal, body: Uint8Array): { rejected: bigint; errorMessage: string } | undefined {
  const type = signal === "traces" ? pb.ExportTraceServiceResponse : pb.ExportLogsServiceResponse;
  const m = type.decode(body) as unknown as { partialSuccess?: { rejectedSpans?: { toString(): string }; rejectedLogRecords?: { toString(): string }; errorMessage: string } };
  if (!m.partialSuccess) return undefined;
  const n = signal === "traces" ? m.partialSuccess.rejectedSpans : m.partialSuccess.rejectedLogRecords;
  return { rejected: BigInt(n?.toString() ?? "0"), errorMessage: m.partialSuccess.errorMessage };
}
