import { createHash } from "node:crypto";
import { logsOf, type StoredLog, type StoredSpan, spansOf } from "@ragmeter/core/extract/spans";
import { DEFAULT_OTLP_LIMITS, decodeRecord as decodeKafkaRecord, type OtlpLimits, RecordDecodeError, recordHeaders, type Signal } from "@ragmeter/otlp";
import { RagmeterError } from "@ragmeter/runtime";
import type { Store } from "@ragmeter/store/client";
import { forgottenAmong } from "@ragmeter/store/forgotten";
import { type SpanOrigin, saveLogs, saveSpans } from "@ragmeter/store/spans";
import { type DroppedAttributes, droppedAttributesOf, mergeDropped } from "./droppedAttributes.js";

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
  /** Spans of the records whose SDK dropped attributes, by service (null: none). */
  readonly droppedAttributes: DroppedAttributes | null;
}

const sha = (s: string): string => createHash("sha256").update(s).digest("hex").slice(0, 32);

/** What one record carried. */
export interface DecodedRecord {
  readonly spans: StoredSpan[];
  readonly logs: StoredLog[];
  /**
   * Why some of its items were left out (bad ids, over a limit: `N of M spans refused: first
   * reasons`); the record then also goes to the dead-letter topic with it, its valid items stored.
   */
  readonly refused?: string;
  /** Its spans whose SDK dropped attributes, by service (absent: none). */
  readonly droppedAttributes?: DroppedAttributes | null;
}

/**
 * Decodes one Kafka message as the collector writes it (the record contract of @ragmeter/otlp:
 * header `ragmeter-signal`, value an OTLP protobuf `ExportTraceServiceRequest` or
 * `ExportLogsServiceRequest`).
 * With `signal` set (a topic of one signal, as the OpenTelemetry Collector's Kafka exporter writes
 * with encoding `otlp_proto` and no ragmeter headers) the header is not read. Within `limits`
 * (the RAGMETER_OTLP_MAX_* settings): a record over the limit of items is undecodable; an item
 * with a bad id or over another limit is left out, and `refused` says why.
 * @throws UndecodableMessageError when the message does not follow the contract.
 */
export function decodeMessage(
  headers: Parameters<typeof decodeKafkaRecord>[0],
  value: Uint8Array | null | undefined,
  signal: Signal | null = null,
  limits: OtlpLimits = DEFAULT_OTLP_LIMITS,
): DecodedRecord {
  let r: ReturnType<typeof decodeKafkaRecord>;
  try {
    r = decodeKafkaRecord(signal === null ? headers : recordHeaders(signal), value, limits);
  } catch (err) {
    if (err instanceof RecordDecodeError) throw new UndecodableMessageError(err.message);
    throw err;
  }
  const out: DecodedRecord = r.signal === "logs" ? { spans: [], logs: logsOf(r.request, sha) } : withDropped(spansOf(r.request), droppedAttributesOf(r.request));
  if (r.rejected === 0) return out;
  const what = r.signal === "logs" ? "log records" : "spans";
  const kept = out.spans.length + out.logs.length;
  return { ...out, refused: `${r.signal} record: ${r.rejected} of ${r.rejected + kept} ${what} refused: ${r.errors.slice(0, 3).join("; ")}` };
}

const withDropped = (spans: StoredSpan[], dropped: DroppedAttributes | null): DecodedRecord =>
  dropped === null ? { spans, logs: [] } : { spans, logs: [], droppedAttributes: dropped };

/**
 * Decodes one record of `signal` handed over in-process (see {@link decodeMessage}).
 * @throws UndecodableMessageError when the value is not a valid OTLP request.
 */
export function decodeRecord(signal: Signal, value: Uint8Array, limits: OtlpLimits = DEFAULT_OTLP_LIMITS): DecodedRecord {
  return decodeMessage(recordHeaders(signal), value, null, limits);
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
  const droppedAttributes = records.reduce<DroppedAttributes | null>((a, r) => mergeDropped(a, r.droppedAttributes), null);
  return { spans: spans.length, logs: logs.length, traceIds, dropped: allSpans.length - spans.length + allLogs.length - logs.length, stored: { spans, logs }, droppedAttributes };
}
