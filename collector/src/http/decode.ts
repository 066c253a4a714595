/** Decoding an export request's body into Kafka records, with the items it rejects and why. */
import {
  CONTENT_TYPES,
  countProtobufItems,
  decodeLogsRequest,
  decodeTraceRequest,
  MAX_ERRORS,
  type OtlpEncoding,
  type OtlpLimits,
  type Signal,
  splitTraceRequestProtobuf,
} from "@ragmeter/otlp";
import { type Batch, batchLogs, batchTraces, countLogRecords, countSpans } from "../batching.js";
import { OtlpDecodeError, PayloadTooLargeError } from "../errors.js";

/** The records of a request, the items it holds (`total`) and those rejected, with the reasons. */
export interface DecodedExport {
  batch: Batch;
  total: number;
  rejected: number;
  errors: string[];
}

/** The first `max` errors joined by "; ", then "and N more" (`total`: the errors there were, kept or not). */
export function summarise(errors: string[], max = 5, total = errors.length): string {
  const head = errors.slice(0, max).join("; ");
  const shown = Math.min(max, errors.length);
  return total > shown ? `${head}; and ${total - shown} more` : head;
}

/** The 400 for a request whose every item is invalid: the first error's field, its detail and a summary of the rest (`total` of them). */
export function decodeFailure(errors: string[], what: string, total = errors.length): OtlpDecodeError {
  const first = errors[0] ?? "";
  const i = first.indexOf(": ");
  const field = i > 0 ? first.slice(0, i) : "body";
  const detail = i > 0 ? first.slice(i + 2) : first;
  const rest = total > 1 ? ` (every ${what} of the request is invalid; ${summarise(errors.slice(1), 4, total - 1)})` : ` (every ${what} of the request is invalid)`;
  return new OtlpDecodeError(field, detail + rest);
}

/**
 * Decodes and batches the body (records of at most `maxMessageBytes`) within `limits`. The split
 * protobuf path writes the records into one buffer from `alloc` (default `Buffer.allocUnsafe`).
 * @throws OtlpDecodeError when every item is invalid or the request holds more items than the limit,
 *   PayloadTooLargeError when every item is too large
 */
export function decodeExport(
  signal: Signal,
  encoding: OtlpEncoding,
  body: Uint8Array,
  maxMessageBytes: number,
  limits: OtlpLimits,
  alloc?: (bytes: number) => Uint8Array,
): DecodedExport {
  let out: DecodedExport;
  let split = null;
  if (signal === "traces" && encoding === "protobuf") {
    // Over the limit of items: refused before the walk keeps anything per span (the decoder words it).
    const n = countProtobufItems(body, limits.maxItems);
    if (n === null || (n.items <= limits.maxItems && n.containers <= limits.maxItems)) split = splitTraceRequestProtobuf(body, maxMessageBytes, limits, alloc);
  }
  const contentType = encoding === "protobuf" ? CONTENT_TYPES.protobuf : CONTENT_TYPES.json;
  if (split) {
    // Hot path: validated and split while walking the bytes, no object per span.
    if (split.invalid > 0 && split.invalid === split.total) throw decodeFailure(split.errors, "span", split.invalid);
    const kept = Math.min(split.invalid, MAX_ERRORS);
    const batch = { records: split.records, rejected: split.rejected - split.invalid, errors: split.errors.slice(kept) };
    out = { batch, total: split.total, rejected: split.rejected, errors: split.errors };
  } else if (signal === "traces") {
    // JSON, or a protobuf body the walk leaves to the decoder (malformed, or over the limit of items: it names the fault).
    const d = decodeTraceRequest(body, contentType, limits);
    const total = countSpans(d.request) + d.rejected;
    if (d.rejected > 0 && d.rejected === total) throw decodeFailure(d.errors, "span", d.rejected);
    const batch = batchTraces(d.request, maxMessageBytes);
    out = { batch, total, rejected: d.rejected + batch.rejected, errors: [...d.errors, ...batch.errors] };
  } else {
    const d = decodeLogsRequest(body, contentType, limits);
    const total = countLogRecords(d.request) + d.rejected;
    if (d.rejected > 0 && d.rejected === total) throw decodeFailure(d.errors, "log record", d.rejected);
    const batch = batchLogs(d.request, maxMessageBytes);
    out = { batch, total, rejected: d.rejected + batch.rejected, errors: [...d.errors, ...batch.errors] };
  }
  if (out.total > 0 && out.rejected === out.total) throw new PayloadTooLargeError(summarise(out.errors, 5, out.rejected));
  return out;
}
