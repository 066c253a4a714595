/**
 * Regrouping of an export request into Kafka records: one record per trace (key = trace id hex),
 * each an OTLP protobuf request holding only that trace's items with their resource and scope.
 * A trace that encodes bigger than the message limit is split over several records with the same
 * key; an item that is too big even alone is rejected (never truncated).
 */

import type { LogRecord, LogsRequest, ResourceLogs, ResourceSpans, ScopeLogs, ScopeSpans, Span, TraceRequest } from "@ragmeter/otlp";
import { encodeLogsRequestProtobuf, encodeTraceRequestProtobuf, recordKey } from "@ragmeter/otlp";

/** One Kafka record to produce. `key` is the trace id (null for log records without one). */
export interface TraceRecord {
  key: string | null;
  value: Uint8Array;
  /** Spans or log records in `value`. */
  items: number;
}

/** Records to produce, and the items that could not be placed in any record. */
export interface Batch {
  records: TraceRecord[];
  rejected: number;
  errors: string[];
}

interface Flat<R, S, I> {
  r: R;
  s: S;
  item: I;
}

/** Signal-specific pieces of the generic regrouping. */
interface Shape<Req, R, S, I> {
  resources(req: Req): R[];
  scopes(r: R): S[];
  items(s: S): I[];
  traceId(item: I): string;
  build(flat: Flat<R, S, I>[]): Req;
  encode(req: Req): Uint8Array;
  describe(item: I): string;
}

function group<Req, R, S, I>(shape: Shape<Req, R, S, I>, req: Req): Map<string, Flat<R, S, I>[]> {
  const byTrace = new Map<string, Flat<R, S, I>[]>();
  for (const r of shape.resources(req)) {
    for (const s of shape.scopes(r)) {
      for (const item of shape.items(s)) {
        const id = shape.traceId(item);
        let list = byTrace.get(id);
        if (!list) {
          list = [];
          byTrace.set(id, list);
        }
        list.push({ r, s, item });
      }
    }
  }
  return byTrace;
}

function split<Req, R, S, I>(shape: Shape<Req, R, S, I>, flat: Flat<R, S, I>[], maxBytes: number, out: { values: { value: Uint8Array; items: number }[]; errors: string[] }): void {
  const value = shape.encode(shape.build(flat));
  if (value.length <= maxBytes) {
    out.values.push({ value, items: flat.length });
    return;
  }
  if (flat.length === 1) {
    out.errors.push(`${shape.describe(flat[0]!.item)} encodes to ${value.length} bytes with its resource and scope, over the Kafka message limit of ${maxBytes} bytes`);
    return;
  }
  const mid = flat.length >> 1;
  split(shape, flat.slice(0, mid), maxBytes, out);
  split(shape, flat.slice(mid), maxBytes, out);
}

function batch<Req, R, S, I>(shape: Shape<Req, R, S, I>, req: Req, maxBytes: number): Batch {
  const records: TraceRecord[] = [];
  const errors: string[] = [];
  for (const [id, flat] of group(shape, req)) {
    const out = { values: [] as { value: Uint8Array; items: number }[], errors };
    split(shape, flat, maxBytes, out);
    for (const v of out.values) records.push({ key: recordKey(id), value: v.value, items: v.items });
  }
  return { records, rejected: errors.length, errors };
}

/** Rebuilds the resource → scope nesting of consecutive flat items, sharing resource/scope objects. */
function nest<R, S, I, RO, SO>(flat: Flat<R, S, I>[], mkR: (r: R, scopes: SO[]) => RO, mkS: (s: S, items: I[]) => SO): RO[] {
  const out: RO[] = [];
  let curR: R | undefined;
  let curS: S | undefined;
  let scopes: SO[] = [];
  let items: I[] = [];
  const flushS = (): void => {
    if (curS !== undefined) scopes.push(mkS(curS, items));
    items = [];
  };
  const flushR = (): void => {
    flushS();
    if (curR !== undefined) out.push(mkR(curR, scopes));
    scopes = [];
  };
  for (const f of flat) {
    if (f.r !== curR) {
      flushR();
      curR = f.r;
      curS = f.s;
    } else if (f.s !== curS) {
      flushS();
      curS = f.s;
    }
    items.push(f.item);
  }
  flushR();
  return out;
}

const traceShape: Shape<TraceRequest, ResourceSpans, ScopeSpans, Span> = {
  resources: (req) => req.resourceSpans,
  scopes: (r) => r.scopeSpans,
  items: (s) => s.spans,
  traceId: (span) => span.traceId,
  build: (flat) => ({
    resourceSpans: nest<ResourceSpans, ScopeSpans, Span, ResourceSpans, ScopeSpans>(
      flat,
      (r, scopeSpans) => ({ resource: r.resource, schemaUrl: r.schemaUrl, scopeSpans }),
      (s, spans) => ({ scope: s.scope, schemaUrl: s.schemaUrl, spans }),
    ),
  }),
  encode: encodeTraceRequestProtobuf,
  describe: (span) => `span ${span.spanId} of trace ${span.traceId}`,
};

const logsShape: Shape<LogsRequest, ResourceLogs, ScopeLogs, LogRecord> = {
  resources: (req) => req.resourceLogs,
  scopes: (r) => r.scopeLogs,
  items: (s) => s.logRecords,
  traceId: (l) => l.traceId,
  build: (flat) => ({
    resourceLogs: nest<ResourceLogs, ScopeLogs, LogRecord, ResourceLogs, ScopeLogs>(
      flat,
      (r, scopeLogs) => ({ resource: r.resource, schemaUrl: r.schemaUrl, scopeLogs }),
      (s, logRecords) => ({ scope: s.scope, schemaUrl: s.schemaUrl, logRecords }),
    ),
  }),
  encode: encodeLogsRequestProtobuf,
  describe: (l) => `log record${l.traceId ? ` of trace ${l.traceId}` : ""}${l.eventName ? ` (${l.eventName})` : ""}`,
};

/**
 * Splits a trace request into one record per trace id (records of at most `maxBytes` bytes each).
 * @param maxBytes largest record value, in bytes (keep it below the broker's message.max.bytes)
 */
export function batchTraces(req: TraceRequest, maxBytes: number): Batch {
  return batch(traceShape, req, maxBytes);
}

/** Splits a logs request into one record per trace id; records without a trace id get key null. */
export function batchLogs(req: LogsRequest, maxBytes: number): Batch {
  return batch(logsShape, req, maxBytes);
}

/** Number of spans in a trace request. */
export function countSpans(req: TraceRequest): number {
  let n = 0;
  for (const rs of req.resourceSpans) for (const ss of rs.scopeSpans) n += ss.spans.length;
  return n;
}

/** Number of log records in a logs request. */
export function countLogRecords(req: LogsRequest): number {
  let n = 0;
  for (const rl of req.resourceLogs) for (const sl of rl.scopeLogs) n += sl.logRecords.length;
  return n;
}
