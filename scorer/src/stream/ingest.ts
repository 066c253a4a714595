import { createHash } from "node:crypto";
import { decodeLogsRequest, decodeTraceRequest, type Signal } from "@ragmeter/collector";
import { logsOf, spansOf, type StoredLog, type StoredSpan } from "../extract/spans.js";
import type { Store } from "../store/client.js";
import { saveLogs, saveSpans, type SpanOrigin } from "../store/spans.js";

/** A message that cannot be decoded: it goes to the dead-letter topic with this error. */
export class UndecodableMessageError extends Error {
  override readonly name = "UndecodableMessageError";
}

/** Counts of what one message carried. */
export interface IngestResult {
  readonly spans: number;
  readonly logs: number;
  /** Distinct trace ids the records touched (the scoring loop's "dirty" set). */
  readonly traceIds: readonly string[];
}

const PROTOBUF = "application/x-protobuf";
const sha = (s: string): string => createHash("sha256").update(s).digest("hex").slice(0, 32);

/** What one record carried. */
export interface DecodedRecord {
  readonly spans: StoredSpan[];
  readonly logs: StoredLog[];
}

/**
 * Decodes one record produced by the collector: an OTLP protobuf `ExportTraceServiceRequest` or,
 * with signal `logs`, an `ExportLogsServiceRequest`.
 * @throws UndecodableMessageError when the value is not a valid OTLP request.
 */
export function decodeRecord(signal: Signal, value: Uint8Array): DecodedRecord {
  try {
    if (signal === "logs") return { spans: [], logs: logsOf(decodeLogsRequest(value, PROTOBUF).request, sha) };
    return { spans: spansOf(decodeTraceRequest(value, PROTOBUF).request), logs: [] };
  } catch (err) {
    throw new UndecodableMessageError(`${signal} record: ${(err as Error).message}`);
  }
}

/**
 * Writes decoded records in one insert per table (spans, logs).
 * @throws store errors as they come (the caller retries; offsets are committed only after this).
 */
export async function writeRecords(store: Store, records: readonly DecodedRecord[], origin: SpanOrigin, receivedAt: number): Promise<IngestResult> {
  const spans = records.flatMap((r) => r.spans);
  const logs = records.flatMap((r) => r.logs);
  await saveSpans(store, spans, origin, receivedAt);
  await saveLogs(store, logs, receivedAt);
  const traceIds = [...new Set([...spans.map((x) => x.trace_id), ...logs.map((x) => x.trace_id)])];
  return { spans: spans.length, logs: logs.length, traceIds };
}

/** Signal of a record from its `ragmeter-signal` header (default `traces`). */
export function signalOf(header: string | undefined): Signal | null {
  if (header === undefined || header === "traces") return "traces";
  if (header === "logs") return "logs";
  return null;
}
