/** A request's records as the producer takes them: key, value and headers as bytes, with a size estimate. */
import type { ProducedRecord } from "@ragmeter/kafka";
import { recordHeaders, type Signal } from "@ragmeter/otlp";
import type { TraceRecord } from "../batching.js";

/** Bytes counted per record on top of its key, value and headers (framing). */
const RECORD_OVERHEAD_BYTES = 64;
/** Bytes counted per header on top of its name and value. */
const HEADER_OVERHEAD_BYTES = 8;

/**
 * The records for `topic`, every one with the same header bytes (recordHeaders' order) and a size
 * of value + key + Σ(name + value + 8) over headers + 64 bytes.
 */
export function toProducedRecords(topic: string, signal: Signal, headers: Record<string, string>, records: readonly TraceRecord[]): { record: ProducedRecord; size: number }[] {
  const recordHeaderBytes = new Map<Buffer, Buffer>();
  let headerBytes = 0;
  for (const [k, v] of Object.entries(recordHeaders(signal, headers))) {
    const kb = Buffer.from(k, "utf8");
    const vb = Buffer.from(v, "utf8");
    recordHeaderBytes.set(kb, vb);
    headerBytes += kb.length + vb.length + HEADER_OVERHEAD_BYTES;
  }
  return records.map((r) => {
    const key = r.key === null ? undefined : Buffer.from(r.key, "utf8");
    const record: ProducedRecord = { topic, value: Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength), headers: recordHeaderBytes };
    if (key !== undefined) record.key = key;
    return { record, size: r.value.byteLength + (key?.length ?? 0) + headerBytes + RECORD_OVERHEAD_BYTES };
  });
}
