/**
 * OTLP protobuf ⇄ model. Decoding validates ids and returns rejected items separately;
 * encoding writes only non-default fields (proto3 semantics) so messages stay compact.
 */
import { OtlpDecodeError } from "./errors.js";
import { bytesToHex, checkBinaryId, hexToBytes, isAllZero } from "./ids.js";
import { bigIntToBits, type LongLike, longToBigInt } from "./int64.js";
import type { AnyValue, Decoded, EntityRef, InstrumentationScope, KeyValue, LogRecord, LogsRequest, Resource, ResourceLogs, ResourceSpans, Span, TraceRequest } from "./model.js";
import { pb } from "./proto.js";

// Shapes the generated static decoder produces (proto/README.md): scalars and bytes read through
// prototype defaults when absent, repeated fields are arrays, absent messages are null.
interface PbAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: LongLike;
  doubleValue?: number;
  arrayValue?: { values: PbAnyValue[] };
  kvlistValue?: { values: PbKeyValue[] };
  bytesValue?: Uint8Array;
}
interface PbKeyValue {
  key: string;
  value?: PbAnyValue | null;
}
interface PbEntityRef {
  schemaUrl: string;
  type: string;
  idKeys: string[];
  descriptionKeys: string[];
}
export interface PbResource {
  attributes: PbKeyValue[];
  droppedAttributesCount: number;
  entityRefs: PbEntityRef[];
}
export interface PbScope {
  name: string;
  version: string;
  attributes: PbKeyValue[];
  droppedAttributesCount: number;
}
interface PbEvent {
  timeUnixNano: LongLike;
  name: string;
  attributes: PbKeyValue[];
  droppedAttributesCount: number;
}
interface PbLink {
  traceId: Uint8Array;
  spanId: Uint8Array;
  traceState: string;
  attributes: PbKeyValue[];
  droppedAttributesCount: number;
  flags: number;
}
export interface PbSpan {
  traceId: Uint8Array;
  spanId: Uint8Array;
  traceState: string;
  parentSpanId: Uint8Array;
  name: string;
  kind: number;
  startTimeUnixNano: LongLike;
  endTimeUnixNano: LongLike;
  attributes: PbKeyValue[];
  droppedAttributesCount: number;
  events: PbEvent[];
  droppedEventsCount: number;
  links: PbLink[];
  droppedLinksCount: number;
  status?: { message: string; code: number } | null;
  flags: number;
}
interface PbTraceRequest {
  resourceSpans: {
    resource?: PbResource | null;
    schemaUrl: string;
    scopeSpans: { scope?: PbScope | null; schemaUrl: string; spans: PbSpan[] }[];
  }[];
}
interface PbLogRecord {
  timeUnixNano: LongLike;
  observedTimeUnixNano: LongLike;
  severityNumber: number;
  severityText: string;
  body?: PbAnyValue | null;
  attributes: PbKeyValue[];
  droppedAttributesCount: number;
  flags: number;
  traceId: Uint8Array;
  spanId: Uint8Array;
  eventName: string;
}
interface PbLogsRequest {
  resourceLogs: {
    resource?: PbResource | null;
    schemaUrl: string;
    scopeLogs: { scope?: PbScope | null; schemaUrl: string; logRecords: PbLogRecord[] }[];
  }[];
}

const has = (o: object, k: string): boolean => Object.hasOwn(o, k);

function decodeRaw<T>(type: { decode(body: Uint8Array): object }, body: Uint8Array, what: string): T {
  try {
    // The generated decoder returns a message of the shape declared above.
    return type.decode(body) as unknown as T;
  } catch (err) {
    throw new OtlpDecodeError("body", `malformed protobuf ${what}: ${(err as Error).message}`, { cause: err });
  }
}

// ---------- decode: pb → model ----------

function anyFromPb(v: PbAnyValue | null | undefined): AnyValue {
  if (!v) return {};
  if (has(v, "stringValue")) return { stringValue: v.stringValue ?? "" };
  if (has(v, "intValue")) return { intValue: longToBigInt(v.intValue, true) };
  if (has(v, "boolValue")) return { boolValue: v.boolValue === true };
  if (has(v, "doubleValue")) return { doubleValue: v.doubleValue ?? 0 };
  if (has(v, "arrayValue")) return { arrayValue: { values: (v.arrayValue?.values ?? []).map(anyFromPb) } };
  if (has(v, "kvlistValue")) return { kvlistValue: { values: attrsFromPb(v.kvlistValue?.values ?? []) } };
  if (has(v, "bytesValue")) return { bytesValue: new Uint8Array(v.bytesValue ?? new Uint8Array()) };
  return {};
}

function attrsFromPb(list: PbKeyValue[]): KeyValue[] {
  const out: KeyValue[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const kv = list[i]!;
    out[i] = { key: kv.key, value: anyFromPb(kv.value) };
  }
  return out;
}

function entityFromPb(e: PbEntityRef): EntityRef {
  return { schemaUrl: e.schemaUrl, type: e.type, idKeys: [...e.idKeys], descriptionKeys: [...e.descriptionKeys] };
}

/** Shared with split.ts (not exported by the package). */
export function resourceFromPb(r: PbResource | null | undefined): Resource {
  if (!r) return { attributes: [], droppedAttributesCount: 0, entityRefs: [] };
  return { attributes: attrsFromPb(r.attributes), droppedAttributesCount: r.droppedAttributesCount, entityRefs: r.entityRefs.map(entityFromPb) };
}

/** Shared with split.ts (not exported by the package). */
export function scopeFromPb(s: PbScope | null | undefined): InstrumentationScope {
  if (!s) return { name: "", version: "", attributes: [], droppedAttributesCount: 0 };
  return { name: s.name, version: s.version, attributes: attrsFromPb(s.attributes), droppedAttributesCount: s.droppedAttributesCount };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Shared with split.ts (not exported by the package). */
export function spanFromPb(s: PbSpan, path: string): Checked<Span> {
  const traceId = checkBinaryId(s.traceId, 16);
  if (!traceId.ok) return { ok: false, error: `${path}.traceId: ${traceId.error}` };
  const spanId = checkBinaryId(s.spanId, 8);
  if (!spanId.ok) return { ok: false, error: `${path}.spanId: ${spanId.error}` };
  let parentSpanId = "";
  if (s.parentSpanId.length > 0 && !isAllZero(s.parentSpanId)) {
    if (s.parentSpanId.length !== 8) return { ok: false, error: `${path}.parentSpanId: must be 8 bytes (16 hex digits) or empty, got ${s.parentSpanId.length} bytes` };
    parentSpanId = bytesToHex(s.parentSpanId);
  }
  const links = [];
  for (let i = 0; i < s.links.length; i++) {
    const l = s.links[i]!;
    const lt = checkBinaryId(l.traceId, 16);
    if (!lt.ok) return { ok: false, error: `${path}.links[${i}].traceId: ${lt.error}` };
    const ls = checkBinaryId(l.spanId, 8);
    if (!ls.ok) return { ok: false, error: `${path}.links[${i}].spanId: ${ls.error}` };
    links.push({
      traceId: lt.hex,
      spanId: ls.hex,
      traceState: l.traceState,
      attributes: attrsFromPb(l.attributes),
      droppedAttributesCount: l.droppedAttributesCount,
      flags: l.flags,
    });
  }
  return {
    ok: true,
    value: {
      traceId: traceId.hex,
      spanId: spanId.hex,
      traceState: s.traceState,
      parentSpanId,
      flags: s.flags,
      name: s.name,
      kind: s.kind,
      startTimeUnixNano: longToBigInt(s.startTimeUnixNano, false),
      endTimeUnixNano: longToBigInt(s.endTimeUnixNano, false),
      attributes: attrsFromPb(s.attributes),
      droppedAttributesCount: s.droppedAttributesCount,
      events: s.events.map((e) => ({
        timeUnixNano: longToBigInt(e.timeUnixNano, false),
        name: e.name,
        attributes: attrsFromPb(e.attributes),
        droppedAttributesCount: e.droppedAttributesCount,
      })),
      droppedEventsCount: s.droppedEventsCount,
      links,
      droppedLinksCount: s.droppedLinksCount,
      status: { code: s.status?.code ?? 0, message: s.status?.message ?? "" },
    },
  };
}

/**
 * Decodes a protobuf `ExportTraceServiceRequest`. Invalid spans (bad ids) are left out and counted
 * in `rejected`, with one error per span naming the field.
 * @throws OtlpDecodeError (field "body") when the bytes are not a well-formed message.
 */
export function decodeTraceRequestProtobuf(body: Uint8Array): Decoded<TraceRequest> {
  const raw = decodeRaw<PbTraceRequest>(pb.ExportTraceServiceRequest, body, "ExportTraceServiceRequest");
  const errors: string[] = [];
  const resourceSpans: ResourceSpans[] = [];
  raw.resourceSpans.forEach((rs, ri) => {
    const scopeSpans = rs.scopeSpans.map((ss, si) => {
      const spans: Span[] = [];
      ss.spans.forEach((s, i) => {
        const c = spanFromPb(s, `resourceSpans[${ri}].scopeSpans[${si}].spans[${i}]`);
        if (c.ok) spans.push(c.value);
        else errors.push(c.error);
      });
      return { scope: scopeFromPb(ss.scope), spans, schemaUrl: ss.schemaUrl };
    });
    resourceSpans.push({ resource: resourceFromPb(rs.resource), scopeSpans, schemaUrl: rs.schemaUrl });
  });
  return { request: { resourceSpans }, rejected: errors.length, errors };
}

function optionalId(bytes: Uint8Array, length: number, path: string): Checked<string> {
  if (bytes.length === 0 || (bytes.length === length && isAllZero(bytes))) return { ok: true, value: "" };
  const c = checkBinaryId(bytes, length);
  return c.ok ? { ok: true, value: c.hex } : { ok: false, error: `${path}: ${c.error}` };
}

function logFromPb(l: PbLogRecord, path: string): Checked<LogRecord> {
  const traceId = optionalId(l.traceId, 16, `${path}.traceId`);
  if (!traceId.ok) return traceId;
  const spanId = optionalId(l.spanId, 8, `${path}.spanId`);
  if (!spanId.ok) return spanId;
  return {
    ok: true,
    value: {
      timeUnixNano: longToBigInt(l.timeUnixNano, false),
      observedTimeUnixNano: longToBigInt(l.observedTimeUnixNano, false),
      severityNumber: l.severityNumber,
      severityText: l.severityText,
      body: l.body ? anyFromPb(l.body) : undefined,
      attributes: attrsFromPb(l.attributes),
      droppedAttributesCount: l.droppedAttributesCount,
      flags: l.flags,
      traceId: traceId.value,
      spanId: spanId.value,
      eventName: l.eventName,
    },
  };
}

/**
 * Decodes a protobuf `ExportLogsServiceRequest`. Log records with malformed ids are rejected;
 * records without a trace id are valid (`traceId` "").
 * @throws OtlpDecodeError (field "body") when the bytes are not a well-formed message.
 */
export function decodeLogsRequestProtobuf(body: Uint8Array): Decoded<LogsRequest> {
  const raw = decodeRaw<PbLogsRequest>(pb.ExportLogsServiceRequest, body, "ExportLogsServiceRequest");
  const errors: string[] = [];
  const resourceLogs: ResourceLogs[] = raw.resourceLogs.map((rl, ri) => ({
    resource: resourceFromPb(rl.resource),
    schemaUrl: rl.schemaUrl,
    scopeLogs: rl.scopeLogs.map((sl, si) => {
      const logRecords: LogRecord[] = [];
      sl.logRecords.forEach((l, i) => {
        const c = logFromPb(l, `resourceLogs[${ri}].scopeLogs[${si}].logRecords[${i}]`);
        if (c.ok) logRecords.push(c.value);
        else errors.push(c.error);
      });
      return { scope: scopeFromPb(sl.scope), logRecords, schemaUrl: sl.schemaUrl };
    }),
  }));
  return { request: { resourceLogs }, rejected: errors.length, errors };
}

// ---------- encode: model → pb ----------

export type PbOut = Record<string, unknown>;

function anyToPb(v: AnyValue): PbOut {
  if ("stringValue" in v) return { stringValue: v.stringValue };
  if ("intValue" in v) return { intValue: bigIntToBits(v.intValue) };
  if ("boolValue" in v) return { boolValue: v.boolValue };
  if ("doubleValue" in v) return { doubleValue: v.doubleValue };
  if ("arrayValue" in v) return { arrayValue: { values: v.arrayValue.values.map(anyToPb) } };
  if ("kvlistValue" in v) return { kvlistValue: { values: attrsToPb(v.kvlistValue.values) } };
  if ("bytesValue" in v) return { bytesValue: v.bytesValue };
  return {};
}

function attrsToPb(list: KeyValue[]): PbOut[] {
  const out: PbOut[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const kv = list[i]!;
    out[i] = { key: kv.key, value: anyToPb(kv.value) };
  }
  return out;
}

function setIf(o: PbOut, key: string, value: string | number | boolean | bigint | undefined): void {
  if (value === undefined || value === "" || value === 0 || value === false || value === 0n) return;
  o[key] = typeof value === "bigint" ? bigIntToBits(value) : value;
}

/** Shared with split.ts (not exported by the package). */
export function resourceToPb(r: Resource): PbOut {
  const o: PbOut = {};
  if (r.attributes.length) o["attributes"] = attrsToPb(r.attributes);
  setIf(o, "droppedAttributesCount", r.droppedAttributesCount);
  if (r.entityRefs.length) o["entityRefs"] = r.entityRefs;
  return o;
}

/** Shared with split.ts (not exported by the package). */
export function scopeToPb(s: InstrumentationScope): PbOut {
  const o: PbOut = {};
  setIf(o, "name", s.name);
  setIf(o, "version", s.version);
  if (s.attributes.length) o["attributes"] = attrsToPb(s.attributes);
  setIf(o, "droppedAttributesCount", s.droppedAttributesCount);
  return o;
}

/** Shared with split.ts (not exported by the package). */
export function spanToPb(s: Span): PbOut {
  const o: PbOut = { traceId: hexToBytes(s.traceId), spanId: hexToBytes(s.spanId) };
  setIf(o, "traceState", s.traceState);
  if (s.parentSpanId) o["parentSpanId"] = hexToBytes(s.parentSpanId);
  setIf(o, "flags", s.flags);
  setIf(o, "name", s.name);
  setIf(o, "kind", s.kind);
  setIf(o, "startTimeUnixNano", s.startTimeUnixNano);
  setIf(o, "endTimeUnixNano", s.endTimeUnixNano);
  if (s.attributes.length) o["attributes"] = attrsToPb(s.attributes);
  setIf(o, "droppedAttributesCount", s.droppedAttributesCount);
  if (s.events.length) {
    o["events"] = s.events.map((e) => {
      const eo: PbOut = {};
      setIf(eo, "timeUnixNano", e.timeUnixNano);
      setIf(eo, "name", e.name);
      if (e.attributes.length) eo["attributes"] = attrsToPb(e.attributes);
      setIf(eo, "droppedAttributesCount", e.droppedAttributesCount);
      return eo;
    });
  }
  setIf(o, "droppedEventsCount", s.droppedEventsCount);
  if (s.links.length) {
    o["links"] = s.links.map((l) => {
      const lo: PbOut = { traceId: hexToBytes(l.traceId), spanId: hexToBytes(l.spanId) };
      setIf(lo, "traceState", l.traceState);
      if (l.attributes.length) lo["attributes"] = attrsToPb(l.attributes);
      setIf(lo, "droppedAttributesCount", l.droppedAttributesCount);
      setIf(lo, "flags", l.flags);
      return lo;
    });
  }
  setIf(o, "droppedLinksCount", s.droppedLinksCount);
  if (s.status.code !== 0 || s.status.message !== "") {
    const so: PbOut = {};
    setIf(so, "code", s.status.code);
    setIf(so, "message", s.status.message);
    o["status"] = so;
  }
  return o;
}

function logToPb(l: LogRecord): PbOut {
  const o: PbOut = {};
  setIf(o, "timeUnixNano", l.timeUnixNano);
  setIf(o, "observedTimeUnixNano", l.observedTimeUnixNano);
  setIf(o, "severityNumber", l.severityNumber);
  setIf(o, "severityText", l.severityText);
  if (l.body !== undefined) o["body"] = anyToPb(l.body);
  if (l.attributes.length) o["attributes"] = attrsToPb(l.attributes);
  setIf(o, "droppedAttributesCount", l.droppedAttributesCount);
  setIf(o, "flags", l.flags);
  if (l.traceId) o["traceId"] = hexToBytes(l.traceId);
  if (l.spanId) o["spanId"] = hexToBytes(l.spanId);
  setIf(o, "eventName", l.eventName);
  return o;
}

/** Encodes a trace request as a protobuf `ExportTraceServiceRequest`. */
export function encodeTraceRequestProtobuf(req: TraceRequest): Uint8Array {
  const msg = {
    resourceSpans: req.resourceSpans.map((rs) => {
      const o: PbOut = {
        resource: resourceToPb(rs.resource),
        scopeSpans: rs.scopeSpans.map((ss) => {
          const so: PbOut = { scope: scopeToPb(ss.scope), spans: ss.spans.map(spanToPb) };
          setIf(so, "schemaUrl", ss.schemaUrl);
          return so;
        }),
      };
      setIf(o, "schemaUrl", rs.schemaUrl);
      return o;
    }),
  };
  return pb.ExportTraceServiceRequest.encode(msg as never).finish();
}

/** Encodes a logs request as a protobuf `ExportLogsServiceRequest`. */
export function encodeLogsRequestProtobuf(req: LogsRequest): Uint8Array {
  const msg = {
    resourceLogs: req.resourceLogs.map((rl) => {
      const o: PbOut = {
        resource: resourceToPb(rl.resource),
        scopeLogs: rl.scopeLogs.map((sl) => {
          const so: PbOut = { scope: scopeToPb(sl.scope), logRecords: sl.logRecords.map(logToPb) };
          setIf(so, "schemaUrl", sl.schemaUrl);
          return so;
        }),
      };
      setIf(o, "schemaUrl", rl.schemaUrl);
      return o;
    }),
  };
  return pb.ExportLogsServiceRequest.encode(msg as never).finish();
}
