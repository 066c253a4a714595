/**
 * The Kafka record contract between the collector (producer) and the scorer (consumer), design §6:
 * one record per trace, key = the trace id in lower-case hex (null for log records without one),
 * value = an OTLP protobuf export request holding only that trace's items, header
 * `ragmeter-signal` = `traces` | `logs`. Records the scorer cannot decode go to `<topic>.dlq` with
 * headers `ragmeter-error` (why) and `ragmeter-source` (`topic/partition/offset`).
 */

import { OtlpError } from "./errors.js";
import { DEFAULT_OTLP_LIMITS, type OtlpLimits } from "./limits.js";
import type { Decoded, LogsRequest, TraceRequest } from "./model.js";
import { decodeLogsRequestProtobuf, decodeTraceRequestProtobuf, encodeLogsRequestProtobuf, encodeTraceRequestProtobuf } from "./protobuf.js";

/** The signals a record carries. */
export const SIGNALS = ["traces", "logs"] as const;
/** The signal an export request (and so a record) carries. */
export type Signal = (typeof SIGNALS)[number];

/** Header naming the signal of a record: `traces` or `logs`. */
export const SIGNAL_HEADER = "ragmeter-signal";
/** Header of a dead-letter record: why it could not be decoded. */
export const ERROR_HEADER = "ragmeter-error";
/** Header of a dead-letter record: where it came from, `topic/partition/offset`. */
export const SOURCE_HEADER = "ragmeter-source";

/** The dead-letter topic of `topic`: `<topic>.dlq`. */
export function deadLetterTopic(topic: string): string {
  return `${topic}.dlq`;
}

/** Message key of a record: the trace id (hex), or null when the items have no trace id. */
export function recordKey(traceId: string): string | null {
  return traceId === "" ? null : traceId;
}

/** Headers of a record of `signal`, after `extra` (e.g. the export request's trace context). */
export function recordHeaders(signal: Signal, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { ...extra, [SIGNAL_HEADER]: signal };
}

/** Headers of the dead-letter copy of a record. */
export function deadLetterHeaders(error: string, source: { topic: string; partition: number; offset: string }): Record<string, string> {
  return { [ERROR_HEADER]: error, [SOURCE_HEADER]: `${source.topic}/${source.partition}/${source.offset}` };
}

/**
 * Signal of a record from its `ragmeter-signal` header value; a record without the header is
 * `traces`. Null for any other value.
 */
export function signalOf(header: string | undefined): Signal | null {
  if (header === undefined || header === "traces") return "traces";
  if (header === "logs") return "logs";
  return null;
}

/** Value of a record holding `request` (OTLP protobuf). */
export function encodeRecordValue(record: { signal: "traces"; request: TraceRequest } | { signal: "logs"; request: LogsRequest }): Uint8Array {
  return record.signal === "logs" ? encodeLogsRequestProtobuf(record.request) : encodeTraceRequestProtobuf(record.request);
}

/** A record that does not follow the contract (unknown signal, no value, not OTLP protobuf). */
export class RecordDecodeError extends OtlpError {}

/** A decoded record; `rejected`/`errors` count items with bad ids, as in an export request. */
export type DecodedRecord = ({ signal: "traces" } & Decoded<TraceRequest>) | ({ signal: "logs" } & Decoded<LogsRequest>);

/** Header value as a consumer hands it over (a Buffer — @ragmeter/kafka's records —, a string, an array of them, or absent). */
type HeaderValue = Buffer | string | (Buffer | string)[] | undefined;

function headerText(v: HeaderValue): string | undefined {
  if (v === undefined) return undefined;
  const one = Array.isArray(v) ? v[0] : v;
  return one === undefined ? undefined : one.toString();
}

/**
 * Decodes a record as the collector writes it.
 * @param headers the record's headers (only `ragmeter-signal` is read)
 * @param value the record's value
 * @param limits bounds of the work (limits.ts): a record over `maxItems` is refused, an item over another limit rejected
 * @throws RecordDecodeError naming the signal and what is wrong
 */
export function decodeRecord(
  headers: Readonly<Record<string, HeaderValue>> | undefined,
  value: Uint8Array | null | undefined,
  limits: OtlpLimits = DEFAULT_OTLP_LIMITS,
): DecodedRecord {
  const header = headerText(headers?.[SIGNAL_HEADER]);
  const signal = signalOf(header);
  if (signal === null) throw new RecordDecodeError(`unknown ${SIGNAL_HEADER} header "${header}"`);
  if (!value) throw new RecordDecodeError("empty message value");
  try {
    return signal === "logs" ? { signal, ...decodeLogsRequestProtobuf(value, limits) } : { signal, ...decodeTraceRequestProtobuf(value, limits) };
  } catch (err) {
    throw new RecordDecodeError(`${signal} record: ${(err as Error).message}`, { cause: err });
  }
}
