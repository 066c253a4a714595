import { createHash } from "node:crypto";
import { decodeRecord as decodeKafkaRecord, RecordDecodeError, recordHeaders, type Signal } from "@ragmeter/otlp";
import { RagmeterError } from "@ragmeter/runtime";
import { logsOf, type StoredLog, type StoredSpan, spansOf } from "../extract/spans.js";
import type { Store } from "../store/client.js";
import { forgottenAmong } from "../store/forgotten.js";
import { type SpanOrigin, saveLogs, saveSpans } from "../store/spans.js";

/** A message that cannot be decoded: it goes to the dead-letter topic with this error. */
export class UndecodableMessageError extends RagmeterError {
  override readonly name = "UndecodableMessageError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "input", cause: options?.cause });
  }
}

/** Counts of what one message carried. */
export interface IngestResult {
  readonly spans: number;
  readonly logs: number;
  /** Distinct trace ids the records touched (the scoring loop's "dirty" set), forgotten ones left out. */
  readonly traceIds: readonly string[];
  /** Spans and log records dropped because their trace was forgotten (`ragmeter forget`). */
  readonly dropped: number;
  /** What was stored (the records' spans and log records, forgotten traces' left out). */
  readonly stored: DecodedRecord;
}

const sha = (s: string): string => createHash("sha256").update(s).digest("hex").slice(0, 32);

/** What one record carried. */
export interface DecodedRecord {
  readonly spans: StoredSpan[];
  readonly logs: StoredLog[];
}

/**
 * Decodes one Kafka message as the collector writes it (the record contract of @ragmeter/otlp:
 * header `ragmeter-signal`, value an OTLP protobuf `ExportTraceServiceRequest` or
 * `ExportLogsServiceRequest`).
 * With `signal` set (a topic of one signal, as the OpenTelemetry Collector's Kafka exporter writes
 * with encoding `otlp_proto` and no ragmeter headers) the header is not read.
 * @throws UndecodableMessageError when the message does not follow the contract.
 */
export function decodeMessage(headers: Parameters<typeof decodeKafkaRecord>[0], value: Uint8Array | null | undefined, signal: Signal | null = null): DecodedRecord {
  let r: ReturnType<typeof decodeKafkaRecord>;
  try {
    r = decodeKafkaRecord(signal === null ? headers : recordHeaders(signal), value);
  } catch (err) {
    if (err instanceof RecordDecodeError) throw new UndecodableMessageError(err.message);
    throw err;
  }
  return r.signal === "logs" ? { spans: [], logs: logsOf(r.request, sha) } : { spans: spansOf(r.request), logs: [] };
}

/**
 * Decodes one record of `signal` handed over in-process (see {@link decodeMessage}).
 * @throws UndecodableMessageError when the value is not a valid OTLP request.
 */
export function decodeRecord(signal: Signal, value: Uint8Array): DecodedRecord {
  return decodeMessage(recordHeaders(signal), value);
}

/**
 * Writes decoded records in one insert per table (spans, logs), leaving out the records of
 * forgotten traces (`forgotten_traces`, one lookup per batch): a Kafka replay of a forgotten trace
 * stores nothing and is never scored again.
 * @throws store errors as they come (the caller retries; offsets are committed only after this).
 */
export async function writeRecords(store: Store, records: readonly DecodedRecord[], origin: SpanOrigin, receivedAt: number): Promise<IngestResult> {
  const allSpans = records.flatMap((r) => r.spans);
  const allLogs = records.flatMap((r) => r.logs);
  const forgotten = await forgottenAmong(store, [...new Set([...allSpans.map((x) => x.trace_id), ...allLogs.map((x) => x.trace_id)])]);
  const spans = forgotten.size === 0 ? allSpans : allSpans.filter((x) => !forgotten.has(x.trace_id));
  const logs = forgotten.size === 0 ? allLogs : allLogs.filter((x) => !forgotten.has(x.trace_id));
  await saveSpans(store, spans, origin, receivedAt);
  await saveLogs(store, logs, receivedAt);
  const traceIds = [...new Set([...spans.map((x) => x.trace_id), ...logs.map((x) => x.trace_id)])];
  return { spans: spans.length, logs: logs.length, traceIds, dropped: allSpans.length - spans.length + allLogs.length - logs.length, stored: { spans, logs } };
}
