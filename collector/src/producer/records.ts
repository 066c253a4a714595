/** A request's records as the producer takes them: key, value and headers as bytes, with a size estimate. */
import type { ProducedRecord } from "@ragmeter/kafka";
import { recordHeaders, type Signal } from "@ragmeter/otlp";
import type { TraceRecord } from "../batching.js";

/** Bytes counted per record on top of its key, value and headers (framing). */
const RECORD_OVERHEAD_BYTES = 64;
/** Bytes counted per header on top of its name and value. */
const HEADER_OVERHEAD_BYTES = 8;

/** The header bytes every record of a request carries, and what they add to a record's size. */
export interface RecordHeaderSet {
  bytes: Map<Buffer, Buffer>;
  /** Σ(name + value + 8) over the headers. */
  size: number;
}

/** The headers of a record of `signal` after `headers` (recordHeaders' order), as bytes. */
export function recordHeaderSet(signal: Signal, headers: Record<string, string>): RecordHeaderSet {
  const bytes = new Map<Buffer, Buffer>();
  let size = 0;
  for (const [k, v] of Object.entries(recordHeaders(signal, headers))) {
    const kb = Buffer.from(k, "utf8");
    const vb = Buffer.from(v, "utf8");
    bytes.set(kb, vb);
    size += kb.length + vb.length + HEADER_OVERHEAD_BYTES;
  }
  return { bytes, size };
}

/**
 * The records for `topic`, every one with the same header bytes (`set`, by default those of
 * `signal` and `headers`) and a size of value + key + Σ(name + value + 8) over headers + 64 bytes.
 */
export function toProducedRecords(
  topic: string,
  signal: Signal,
  headers: Record<string, string>,
  records: readonly TraceRecord[],
  set: RecordHeaderSet = recordHeaderSet(signal, headers),
): { record: ProducedRecord; size: number }[] {
  return records.map((r) => {
    const key = r.key === null ? undefined : Buffer.from(r.key, "utf8");
    const record: ProducedRecord = { topic, value: Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength), headers: set.bytes };
    if (key !== undefined) record.key = key;
    return { record, size: r.value.byteLength + (key?.length ?? 0) + set.size + RECORD_OVERHEAD_BYTES };
  });
}
