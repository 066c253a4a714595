/**
 * OTLP protobuf ⇄ model. Decoding validates ids and returns rejected items separately;
 * encoding writes only non-default fields (proto3 semantics) so messages stay compact.
 */
import { countProtobufItems } from "./count.js";
import { OtlpDecodeError } from "./errors.js";
import { bytesToHex, checkBinaryId, hexToBytes, isAllZero } from "./ids.js";
import { bigIntToBits, type LongLike, longToBigInt } from "./int64.js";
import { DEFAULT_OTLP_LIMITS, keepError, type OtlpLimits, tooDeep, tooLong, tooManyEntries, tooManyItems } from "./limits.js";
import type {
  AnyValue,
  Decoded,
  EntityRef,
  InstrumentationScope,
  KeyValue,
  LogRecord,
  LogsRequest,
  Resource,
  ResourceLogs,
  ResourceSpans,
  ScopeLogs,
  ScopeSpans,
  Span,
  TraceRequest,
} from "./model.js";
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

/** A value or list over a limit: its path (relative to the item) and why. Thrown, never an Error (no stack trace). */
class Over {
  constructor(
    readonly path: string,
    readonly message: string,
  ) {}
}

/** An AnyValue at level `depth` (1: an attribute's value or a log body), within `limits`. */
function anyFromPb(v: PbAnyValue | null | undefined, depth: number, limits: OtlpLimits, path: string): AnyValue {
  if (!v) return {};
  if (has(v, "stringValue")) {
    const s = v.stringValue ?? "";
    if (s.length * 3 > limits.maxValueBytes) {
      const bytes = Buffer.byteLength(s, "utf8");
      if (bytes > limits.maxValueBytes) throw new Over(path, tooLong(bytes, limits));
    }
    return { stringValue: s };
  }
  if (has(v, "intValue")) return { intValue: longToBigInt(v.intValue, true) };
  if (has(v, "boolValue")) return { boolValue: v.boolValue === true };
  if (has(v, "doubleValue")) return { doubleValue: v.doubleValue ?? 0 };
  if (has(v, "arrayValue")) {
    const list = v.arrayValue?.values ?? [];
    checkEntries(list.length, depth, limits, path);
    return { arrayValue: { values: list.map((x, i) => anyFromPb(x, depth + 1, limits, `${path}.arrayValue.values[${i}]`)) } };
  }
  if (has(v, "kvlistValue")) {
    const list = v.kvlistValue?.values ?? [];
    checkEntries(list.length, depth, limits, path);
    return { kvlistValue: { values: attrsFromPb(list, limits, `${path}.kvlistValue.values`, depth + 1) } };
  }
  if (has(v, "bytesValue")) {
    const b = v.bytesValue ?? new Uint8Array();
    if (b.length > limits.maxValueBytes) throw new Over(path, tooLong(b.length, limits));
    return { bytesValue: new Uint8Array(b) };
  }
  return {};
}

function checkEntries(n: number, depth: number, limits: OtlpLimits, path: string): void {
  if (n === 0) return;
  if (depth + 1 > limits.maxDepth) throw new Over(path, tooDeep(limits));
  if (n > limits.maxAttributes) throw new Over(path, tooManyEntries(n, "entries", limits));
}

/** Attributes at `path` (KeyValues of a map value at `depth` > 1), within `limits`. */
function attrsFromPb(list: PbKeyValue[], limits: OtlpLimits, path: string, depth = 1): KeyValue[] {
  if (depth === 1 && list.length > limits.maxAttributes) throw new Over(path, tooManyEntries(list.length, "attributes", limits));
  const out: KeyValue[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const kv = list[i]!;
    out[i] = { key: kv.key, value: anyFromPb(kv.value, depth, limits, `${path}[${i}].value`) };
  }
  return out;
}

function listOf<T>(list: T[], what: string, limits: OtlpLimits, path: string): T[] {
  if (list.length > limits.maxAttributes) throw new Over(path, tooManyEntries(list.length, what, limits));
  return list;
}

/** Runs `read` for a resource or scope: a list over a limit refuses the request, naming the field. */
function whole<T>(prefix: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof Over) throw new OtlpDecodeError(`${prefix}.${e.path}`, e.message);
    throw e;
  }
}

function entityFromPb(e: PbEntityRef): EntityRef {
  return { schemaUrl: e.schemaUrl, type: e.type, idKeys: [...e.idKeys], descriptionKeys: [...e.descriptionKeys] };
}

/**
 * Shared with split.ts (not exported by the package).
 * @throws OtlpDecodeError naming `prefix.resource.<field>` when a list is over a limit
 */
export function resourceFromPb(r: PbResource | null | undefined, limits: OtlpLimits, prefix: string): Resource {
  if (!r) return { attributes: [], droppedAttributesCount: 0, entityRefs: [] };
  return whole(`${prefix}.resource`, () => ({
    attributes: attrsFromPb(r.attributes, limits, "attributes"),
    droppedAttributesCount: r.droppedAttributesCount,
    entityRefs: listOf(r.entityRefs, "entity refs", limits, "entityRefs").map(entityFromPb),
  }));
}

/**
 * Shared with split.ts (not exported by the package).
 * @throws OtlpDecodeError naming `prefix.scope.<field>` when a list is over a limit
 */
export function scopeFromPb(s: PbScope | null | undefined, limits: OtlpLimits, prefix: string): InstrumentationScope {
  if (!s) return { name: "", version: "", attributes: [], droppedAttributesCount: 0 };
  return whole(`${prefix}.scope`, () => ({
    name: s.name,
    version: s.version,
    attributes: attrsFromPb(s.attributes, limits, "attributes"),
    droppedAttributesCount: s.droppedAttributesCount,
  }));
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Shared with split.ts (not exported by the package). Ids first, then the limits (attributes, events, links, in that order). */
export function spanFromPb(s: PbSpan, path: string, limits: OtlpLimits): Checked<Span> {
  const traceId = checkBinaryId(s.traceId, 16);
  if (!traceId.ok) return { ok: false, error: `${path}.traceId: ${traceId.error}` };
  const spanId = checkBinaryId(s.spanId, 8);
  if (!spanId.ok) return { ok: false, error: `${path}.spanId: ${spanId.error}` };
  let parentSpanId = "";
  if (s.parentSpanId.length > 0 && !isAllZero(s.parentSpanId)) {
    if (s.parentSpanId.length !== 8) return { ok: false, error: `${path}.parentSpanId: must be 8 bytes (16 hex digits) or empty, got ${s.parentSpanId.length} bytes` };
    parentSpanId = bytesToHex(s.parentSpanId);
  }
  const linkIds: { traceId: string; spanId: string }[] = [];
  for (let i = 0; i < s.links.length; i++) {
    const l = s.links[i]!;
    const lt = checkBinaryId(l.traceId, 16);
    if (!lt.ok) return { ok: false, error: `${path}.links[${i}].traceId: ${lt.error}` };
    const ls = checkBinaryId(l.spanId, 8);
    if (!ls.ok) return { ok: false, error: `${path}.links[${i}].spanId: ${ls.error}` };
    linkIds.push({ traceId: lt.hex, spanId: ls.hex });
  }
  try {
    const attributes = attrsFromPb(s.attributes, limits, "attributes");
    const events = listOf(s.events, "events", limits, "events").map((e, i) => ({
      timeUnixNano: longToBigInt(e.timeUnixNano, false),
      name: e.name,
      attributes: attrsFromPb(e.attributes, limits, `events[${i}].attributes`),
      droppedAttributesCount: e.droppedAttributesCount,
    }));
    const links = listOf(s.links, "links", limits, "links").map((l, i) => ({
      ...linkIds[i]!,
      traceState: l.traceState,
      attributes: attrsFromPb(l.attributes, limits, `links[${i}].attributes`),
      droppedAttributesCount: l.droppedAttributesCount,
      flags: l.flags,
    }));
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
        attributes,
        droppedAttributesCount: s.droppedAttributesCount,
        events,
        droppedEventsCount: s.droppedEventsCount,
        links,
        droppedLinksCount: s.droppedLinksCount,
        status: { code: s.status?.code ?? 0, message: s.status?.message ?? "" },
      },
    };
  } catch (e) {
    if (e instanceof Over) return { ok: false, error: `${path}.${e.path}: ${e.message}` };
    throw e;
  }
}

/** Refuses a request of more than `limits.maxItems` spans or log records before it is decoded. */
function checkItemCount(body: Uint8Array, what: string, limits: OtlpLimits): void {
  const n = countProtobufItems(body, limits.maxItems);
  if (n === null) return;
  const count = (x: number) => (n.complete ? x : `more than ${limits.maxItems}`);
  if (n.containers > limits.maxItems) throw new OtlpDecodeError("body", tooManyItems(count(n.containers), "resources and scopes", limits));
  if (n.items > limits.maxItems) throw new OtlpDecodeError("body", tooManyItems(count(n.items), what, limits));
}

/**
 * Decodes a protobuf `ExportTraceServiceRequest`. Invalid spans (bad ids) are left out and counted
 * in `rejected`, with one error per span naming the field.
 * @throws OtlpDecodeError (field "body") when the bytes are not a well-formed message.
 */
export function decodeTraceRequestProtobuf(body: Uint8Array, limits: OtlpLimits = DEFAULT_OTLP_LIMITS): Decoded<TraceRequest> {
  checkItemCount(body, "spans", limits);
  const raw = decodeRaw<PbTraceRequest>(pb.ExportTraceServiceRequest, body, "ExportTraceServiceRequest");
  const errors: string[] = [];
  let rejected = 0;
  const resourceSpans: ResourceSpans[] = [];
  raw.resourceSpans.forEach((rs, ri) => {
    // Resources and scopes without spans carry nothing: left out, not read.
    if (!rs.scopeSpans.some((ss) => ss.spans.length > 0)) return;
    const scopeSpans: ScopeSpans[] = [];
    rs.scopeSpans.forEach((ss, si) => {
      if (ss.spans.length === 0) return;
      const spans: Span[] = [];
      ss.spans.forEach((s, i) => {
        const c = spanFromPb(s, `resourceSpans[${ri}].scopeSpans[${si}].spans[${i}]`, limits);
        if (c.ok) spans.push(c.value);
        else {
          rejected++;
          keepError(errors, c.error);
        }
      });
      scopeSpans.push({ scope: scopeFromPb(ss.scope, limits, `resourceSpans[${ri}].scopeSpans[${si}]`), spans, schemaUrl: ss.schemaUrl });
    });
    resourceSpans.push({ resource: resourceFromPb(rs.resource, limits, `resourceSpans[${ri}]`), scopeSpans, schemaUrl: rs.schemaUrl });
  });
  return { request: { resourceSpans }, rejected, errors };
}

function optionalId(bytes: Uint8Array, length: number, path: string): Checked<string> {
  if (bytes.length === 0 || (bytes.length === length && isAllZero(bytes))) return { ok: true, value: "" };
  const c = checkBinaryId(bytes, length);
  return c.ok ? { ok: true, value: c.hex } : { ok: false, error: `${path}: ${c.error}` };
}

function logFromPb(l: PbLogRecord, path: string, limits: OtlpLimits): Checked<LogRecord> {
  const traceId = optionalId(l.traceId, 16, `${path}.traceId`);
  if (!traceId.ok) return traceId;
  const spanId = optionalId(l.spanId, 8, `${path}.spanId`);
  if (!spanId.ok) return spanId;
  let body: AnyValue | undefined;
  let attributes: KeyValue[];
  try {
    body = l.body ? anyFromPb(l.body, 1, limits, "body") : undefined;
    attributes = attrsFromPb(l.attributes, limits, "attributes");
  } catch (e) {
    if (e instanceof Over) return { ok: false, error: `${path}.${e.path}: ${e.message}` };
    throw e;
  }
  return {
    ok: true,
    value: {
      timeUnixNano: longToBigInt(l.timeUnixNano, false),
      observedTimeUnixNano: longToBigInt(l.observedTimeUnixNano, false),
      severityNumber: l.severityNumber,
      severityText: l.severityText,
      body,
      attributes,
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
export function decodeLogsRequestProtobuf(body: Uint8Array, limits: OtlpLimits = DEFAULT_OTLP_LIMITS): Decoded<LogsRequest> {
  checkItemCount(body, "log records", limits);
  const raw = decodeRaw<PbLogsRequest>(pb.ExportLogsServiceRequest, body, "ExportLogsServiceRequest");
  const errors: string[] = [];
  let rejected = 0;
  const resourceLogs: ResourceLogs[] = [];
  raw.resourceLogs.forEach((rl, ri) => {
    // Resources and scopes without log records carry nothing: left out, not read.
    if (!rl.scopeLogs.some((sl) => sl.logRecords.length > 0)) return;
    const scopeLogs: ScopeLogs[] = [];
    rl.scopeLogs.forEach((sl, si) => {
      if (sl.logRecords.length === 0) return;
      const logRecords: LogRecord[] = [];
      sl.logRecords.forEach((l, i) => {
        const c = logFromPb(l, `resourceLogs[${ri}].scopeLogs[${si}].logRecords[${i}]`, limits);
        if (c.ok) logRecords.push(c.value);
        else {
          rejected++;
          keepError(errors, c.error);
        }
      });
      scopeLogs.push({ scope: scopeFromPb(sl.scope, limits, `resourceLogs[${ri}].scopeLogs[${si}]`), logRecords, schemaUrl: sl.schemaUrl });
    });
    resourceLogs.push({ resource: resourceFromPb(rl.resource, limits, `resourceLogs[${ri}]`), schemaUrl: rl.schemaUrl, scopeLogs });
  });
  return { request: { resourceLogs }, rejected, errors };
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
