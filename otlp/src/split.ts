/**
 * Splitting a protobuf `ExportTraceServiceRequest` into one record per trace id without decoding
 * its spans into objects: the bytes are walked with a protobufjs `Reader` (resourceSpans →
 * scopeSpans → spans, and every field inside a span, so that malformed bodies are refused exactly
 * as the generated decoder refuses them), span ids are validated in place and each per-trace record
 * is assembled from the resource/scope headers and the spans' byte ranges with new length prefixes.
 *
 * The records decode (with the generated classes) to exactly what decoding the request into the
 * model and re-encoding each trace produces ({@link decodeTraceRequestProtobuf} +
 * {@link encodeTraceRequestProtobuf}): resources and scopes are re-encoded through the model (once
 * per request), and a span whose bytes would decode differently from its re-encoding (unknown
 * fields, an all-zero parent span id, an empty status, a key without a value, an AnyValue with two
 * kinds of value) is re-encoded through the model too. When the walk meets anything else it does not
 * handle, {@link splitTraceRequestProtobuf} returns null and the caller decodes the request the old way.
 */
import { isUtf8 } from "node:buffer";
import protobuf from "protobufjs/minimal.js";
import { opentelemetry } from "../generated/otlp.js";
import { OtlpError } from "./errors.js";
import { checkBinaryId } from "./ids.js";
import { MAX_ERRORS, type OtlpLimits, tooDeep, tooLong, tooManyEntries } from "./limits.js";
import { type PbResource, type PbScope, type PbSpan, resourceFromPb, resourceToPb, scopeFromPb, scopeToPb, spanFromPb, spanToPb } from "./protobuf.js";

interface MessageType {
  decode(reader: Uint8Array | protobuf.Reader, length?: number, end?: number, depth?: number): object;
  encode(m: object): { finish(): Uint8Array };
}
// Generated classes of the nested messages (static code, see proto.ts).
const SpanType = opentelemetry.proto.trace.v1.Span as unknown as MessageType;
const ResourceType = opentelemetry.proto.resource.v1.Resource as unknown as MessageType;
const ScopeType = opentelemetry.proto.common.v1.InstrumentationScope as unknown as MessageType;

type Reader = protobuf.Reader;
const { Reader: ReaderClass } = protobuf;
const recursionLimit = (): number => (ReaderClass as unknown as { recursionLimit?: number }).recursionLimit ?? 100;

/** One Kafka record of a split request: key = trace id (lower-case hex), value = an ExportTraceServiceRequest. */
export interface SplitRecord {
  key: string;
  value: Uint8Array;
  /** Spans in `value`. */
  items: number;
}

/** Result of {@link splitTraceRequestProtobuf}. */
export interface SplitTraces {
  /** One record per trace id (several when a trace is over `maxBytes`), in order of first appearance. */
  records: SplitRecord[];
  /** Spans in the request, valid or not. */
  total: number;
  /** Spans refused: invalid ids or over a limit (first, in request order), then spans too big for a record alone. */
  rejected: number;
  /**
   * Reasons, worded as the decoder and the batcher word them: of the first spans refused for their
   * ids or limits (at most MAX_ERRORS, limits.ts), then of every span too big for a record.
   */
  errors: string[];
  /** Of `rejected`, the spans refused for their ids (the others were too big). */
  invalid: number;
}

/** The walk met something it leaves to the full decoder (the caller falls back; it never leaves this module). */
class Unhandled extends OtlpError {}

// Per-span facts gathered by the walk (reused for every span of a request).
interface SpanScan {
  traceStart: number;
  traceEnd: number;
  spanStart: number;
  spanEnd: number;
  parentStart: number;
  parentEnd: number;
  statusSeen: boolean;
  statusCode: number;
  statusMsgLen: number;
  /** The span's bytes would decode differently from its model re-encoding. */
  rewrite: boolean;
  linkIndex: number;
  linkError: string | undefined;
  linkTraceStart: number;
  linkTraceEnd: number;
  linkSpanStart: number;
  linkSpanEnd: number;
  /** The limits, and the first fault of each kind the decoder checks in this order (spanFromPb). */
  limits: OtlpLimits;
  attrCount: number;
  attrFault: string | undefined;
  eventCount: number;
  eventFault: string | undefined;
  linkCount: number;
  linkFault: string | undefined;
  /** Where the walk is: a span's attribute list (0), an event's (1) or a link's (2), the event's or link's index. */
  listKind: number;
  listIndex: number;
  /** Attributes of the list being walked. */
  listCount: number;
  /** First value fault in the list being walked. */
  valueFault: string | undefined;
}

function newScan(limits: OtlpLimits): SpanScan {
  return {
    limits,
    attrCount: 0,
    attrFault: undefined,
    eventCount: 0,
    eventFault: undefined,
    linkCount: 0,
    linkFault: undefined,
    listKind: 0,
    listIndex: 0,
    listCount: 0,
    valueFault: undefined,
    traceStart: 0,
    traceEnd: 0,
    spanStart: 0,
    spanEnd: 0,
    parentStart: 0,
    parentEnd: 0,
    statusSeen: false,
    statusCode: 0,
    statusMsgLen: 0,
    rewrite: false,
    linkIndex: 0,
    linkError: undefined,
    linkTraceStart: 0,
    linkTraceEnd: 0,
    linkSpanStart: 0,
    linkSpanEnd: 0,
  };
}

function outOfRange(): RangeError {
  return new RangeError("index out of range");
}

/** Enters a length-delimited sub-message as the generated decoder does; returns the outer limit. */
function enter(r: Reader, depth: number): number {
  if (depth > recursionLimit()) throw new Error("max depth exceeded");
  const length = r.size();
  const end = r.pos + length;
  if (end > r.len) throw outOfRange();
  const outer = r.len;
  r.len = end;
  return outer;
}

function leave(r: Reader, outer: number): void {
  if (r.pos !== r.len) throw outOfRange();
  r.len = outer;
}

/** Skips a length-delimited field; returns its start (the end is `r.pos`). */
function bytesField(r: Reader): number {
  const length = r.size();
  const start = r.pos;
  if (start + length > r.len) throw outOfRange();
  r.pos = start + length;
  return start;
}

/** Skips a string field, refusing invalid UTF-8 as the generated decoder (stringVerify) does. */
function stringField(r: Reader): number {
  const start = bytesField(r);
  const end = r.pos;
  const buf = r.buf;
  for (let i = start; i < end; i++) {
    if (buf[i]! >= 0x80) {
      if (!isUtf8(buf.subarray(start, end))) throw new Error("invalid UTF-8");
      break;
    }
  }
  return start;
}

/** Skips a 64-bit varint (at most 10 bytes, as readLongVarint). */
function varint64(r: Reader): void {
  const buf = r.buf;
  for (let i = 0; i < 10; i++) {
    if (r.pos >= r.len) throw outOfRange();
    if (buf[r.pos++]! < 128) return;
  }
  throw new Error("invalid varint encoding");
}

/** True when the 16-byte trace ids at `a` and `b` are equal. */
function sameBytes(buf: Uint8Array, a: number, b: number): boolean {
  for (let i = 0; i < 16; i++) if (buf[a + i] !== buf[b + i]) return false;
  return true;
}

function isZero(buf: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i] !== 0) return false;
  return true;
}

function unknown(r: Reader, wireType: number, depth: number, tag: number, st: SpanScan | undefined): void {
  (r as unknown as { skipType(w: number, d: number, t: number): void }).skipType(wireType, depth, tag);
  if (st) st.rewrite = true;
}

/** Notes the first fault of a value (`where`: its path in the list being walked). */
function valueFault(st: SpanScan, where: () => string, message: string): void {
  if (st.valueFault === undefined) st.valueFault = `${listName(st)}${where()}: ${message}`;
}

/** The path of the attribute list being walked: `attributes`, `events[2].attributes` or `links[0].attributes`. */
function listName(st: SpanScan): string {
  return st.listKind === 0 ? "attributes" : `${st.listKind === 1 ? "events" : "links"}[${st.listIndex}].attributes`;
}

/** An array's or a map's entries: checked as the decoder checks them (anyFromPb). */
function checkEntries(st: SpanScan, n: number, vdepth: number, where: () => string): void {
  if (n === 0) return;
  if (vdepth + 1 > st.limits.maxDepth) valueFault(st, where, tooDeep(st.limits));
  else if (n > st.limits.maxAttributes) valueFault(st, where, tooManyEntries(n, "entries", st.limits));
}

/** Walks an AnyValue at value level `vdepth` (1: an attribute's value); `where` is its path in the list. */
function walkAnyValue(r: Reader, depth: number, st: SpanScan, vdepth: number, where: () => string): void {
  let kind = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    const wt = tag & 7;
    const field = tag >>> 3;
    switch (field) {
      case 1: {
        if (wt !== 2) break;
        const start = stringField(r);
        const bytes = r.pos - start;
        if (bytes > st.limits.maxValueBytes) valueFault(st, where, tooLong(bytes, st.limits));
        if (kind !== 0 && kind !== field) st.rewrite = true;
        kind = field;
        continue;
      }
      case 2:
        if (wt !== 0) break;
        r.bool();
        if (kind !== 0 && kind !== field) st.rewrite = true;
        kind = field;
        continue;
      case 3:
        if (wt !== 0) break;
        varint64(r);
        if (kind !== 0 && kind !== field) st.rewrite = true;
        kind = field;
        continue;
      case 4:
        if (wt !== 1) break;
        r.skip(8);
        if (kind !== 0 && kind !== field) st.rewrite = true;
        kind = field;
        continue;
      case 5: {
        if (wt !== 2) break;
        const outer = enter(r, depth + 1);
        const n = walkArrayValue(r, depth + 1, st, vdepth, where);
        leave(r, outer);
        checkEntries(st, n, vdepth, where);
        if (kind !== 0 && kind !== field) st.rewrite = true;
        kind = field;
        continue;
      }
      case 6: {
        if (wt !== 2) break;
        const outer = enter(r, depth + 1);
        const n = walkKeyValues(r, depth + 1, st, vdepth, where);
        leave(r, outer);
        checkEntries(st, n, vdepth, where);
        if (kind !== 0 && kind !== field) st.rewrite = true;
        kind = field;
        continue;
      }
      case 7: {
        if (wt !== 2) break;
        const start = bytesField(r);
        const bytes = r.pos - start;
        if (bytes > st.limits.maxValueBytes) valueFault(st, where, tooLong(bytes, st.limits));
        if (kind !== 0 && kind !== field) st.rewrite = true;
        kind = field;
        continue;
      }
    }
    unknown(r, wt, depth, tag, st);
  }
}

/** Walks an ArrayValue whose AnyValue is at `vdepth`; returns its entries. */
function walkArrayValue(r: Reader, depth: number, st: SpanScan, vdepth: number, where: () => string): number {
  let n = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    const wt = tag & 7;
    if (tag >>> 3 === 1 && wt === 2) {
      const outer = enter(r, depth + 1);
      const i = n++;
      walkAnyValue(r, depth + 1, st, vdepth + 1, () => `${where()}.arrayValue.values[${i}]`);
      leave(r, outer);
      continue;
    }
    unknown(r, wt, depth, tag, st);
  }
  return n;
}

/** KeyValueList: field 1 = repeated KeyValue (of a map value at `vdepth`); returns its entries. */
function walkKeyValues(r: Reader, depth: number, st: SpanScan, vdepth: number, where: () => string): number {
  let n = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    const wt = tag & 7;
    if (tag >>> 3 === 1 && wt === 2) {
      const outer = enter(r, depth + 1);
      const i = n++;
      walkKeyValue(r, depth + 1, st, vdepth + 1, () => `${where()}.kvlistValue.values[${i}].value`);
      leave(r, outer);
      continue;
    }
    unknown(r, wt, depth, tag, st);
  }
  return n;
}

/** One attribute of the list being walked (SpanScan.listKind): counts it and walks its value at level 1. */
function walkAttribute(r: Reader, depth: number, st: SpanScan): void {
  const i = st.listCount++;
  walkKeyValue(r, depth, st, 1, () => `[${i}].value`);
}

/** Starts walking an attribute list (see SpanScan.listKind). */
function startList(st: SpanScan, kind: number, index: number): void {
  st.listKind = kind;
  st.listIndex = index;
  st.listCount = 0;
  st.valueFault = undefined;
}

/** The fault of the list just walked: too many attributes, else its first value fault (the decoder's order). */
function listFault(st: SpanScan): string | undefined {
  if (st.listCount > st.limits.maxAttributes) return `${listName(st)}: ${tooManyEntries(st.listCount, "attributes", st.limits)}`;
  return st.valueFault;
}

function walkKeyValue(r: Reader, depth: number, st: SpanScan, vdepth: number, where: () => string): void {
  let values = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== 2) break;
        stringField(r);
        continue;
      case 2: {
        if (wt !== 2) break;
        const outer = enter(r, depth + 1);
        walkAnyValue(r, depth + 1, st, vdepth, where);
        leave(r, outer);
        values++;
        continue;
      }
    }
    unknown(r, wt, depth, tag, st);
  }
  // The model turns a missing value into an empty one, and merges repeated ones by its own rule.
  if (values !== 1) st.rewrite = true;
}

function walkEvent(r: Reader, depth: number, st: SpanScan): void {
  startList(st, 1, st.eventCount);
  while (r.pos < r.len) {
    const tag = r.tag();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== 1) break;
        r.skip(8);
        continue;
      case 2:
        if (wt !== 2) break;
        stringField(r);
        continue;
      case 3: {
        if (wt !== 2) break;
        const outer = enter(r, depth + 1);
        walkAttribute(r, depth + 1, st);
        leave(r, outer);
        continue;
      }
      case 4:
        if (wt !== 0) break;
        r.uint32();
        continue;
    }
    unknown(r, wt, depth, tag, st);
  }
  st.eventFault ??= listFault(st);
  st.eventCount++;
}

function walkLink(r: Reader, depth: number, st: SpanScan): void {
  st.linkTraceStart = st.linkTraceEnd = st.linkSpanStart = st.linkSpanEnd = 0;
  startList(st, 2, st.linkCount);
  while (r.pos < r.len) {
    const tag = r.tag();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== 2) break;
        st.linkTraceStart = bytesField(r);
        st.linkTraceEnd = r.pos;
        continue;
      case 2:
        if (wt !== 2) break;
        st.linkSpanStart = bytesField(r);
        st.linkSpanEnd = r.pos;
        continue;
      case 3:
        if (wt !== 2) break;
        stringField(r);
        continue;
      case 4: {
        if (wt !== 2) break;
        const outer = enter(r, depth + 1);
        walkAttribute(r, depth + 1, st);
        leave(r, outer);
        continue;
      }
      case 5:
        if (wt !== 0) break;
        r.uint32();
        continue;
      case 6:
        if (wt !== 5) break;
        r.skip(4);
        continue;
    }
    unknown(r, wt, depth, tag, st);
  }
  st.linkFault ??= listFault(st);
  st.linkCount++;
}

function walkStatus(r: Reader, depth: number, st: SpanScan): void {
  st.statusSeen = true;
  while (r.pos < r.len) {
    const tag = r.tag();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 2: {
        if (wt !== 2) break;
        const start = stringField(r);
        st.statusMsgLen = r.pos - start;
        continue;
      }
      case 3:
        if (wt !== 0) break;
        st.statusCode = r.int32();
        continue;
    }
    unknown(r, wt, depth, tag, st);
  }
}

function checkLink(st: SpanScan, buf: Uint8Array): void {
  const i = st.linkIndex++;
  if (st.linkError !== undefined) return;
  const lt = checkBinaryId(buf.subarray(st.linkTraceStart, st.linkTraceEnd), 16);
  if (!lt.ok) {
    st.linkError = `links[${i}].traceId: ${lt.error}`;
    return;
  }
  const ls = checkBinaryId(buf.subarray(st.linkSpanStart, st.linkSpanEnd), 8);
  if (!ls.ok) st.linkError = `links[${i}].spanId: ${ls.error}`;
}

/** Walks one Span (r.len = its end), filling `st`. */
function walkSpan(r: Reader, depth: number, st: SpanScan): void {
  st.traceStart = st.traceEnd = st.spanStart = st.spanEnd = st.parentStart = st.parentEnd = 0;
  st.statusSeen = false;
  st.statusCode = st.statusMsgLen = 0;
  st.rewrite = false;
  st.linkIndex = 0;
  st.linkError = undefined;
  st.eventCount = st.linkCount = st.attrCount = 0;
  st.attrFault = st.eventFault = st.linkFault = undefined;
  // The span's own attributes are counted apart from its events' and links' (whose lists interleave on the wire).
  let attrs = 0;
  let attrFault: string | undefined;
  while (r.pos < r.len) {
    const tag = r.tag();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== 2) break;
        st.traceStart = bytesField(r);
        st.traceEnd = r.pos;
        continue;
      case 2:
        if (wt !== 2) break;
        st.spanStart = bytesField(r);
        st.spanEnd = r.pos;
        continue;
      case 3:
        if (wt !== 2) break;
        stringField(r);
        continue;
      case 4:
        if (wt !== 2) break;
        st.parentStart = bytesField(r);
        st.parentEnd = r.pos;
        continue;
      case 16:
        if (wt !== 5) break;
        r.skip(4);
        continue;
      case 5:
        if (wt !== 2) break;
        stringField(r);
        continue;
      case 6:
        if (wt !== 0) break;
        r.int32();
        continue;
      case 7:
      case 8:
        if (wt !== 1) break;
        r.skip(8);
        continue;
      case 9: {
        if (wt !== 2) break;
        const outer = enter(r, depth + 1);
        startList(st, 0, 0);
        st.listCount = attrs;
        walkAttribute(r, depth + 1, st);
        attrs = st.listCount;
        attrFault ??= st.valueFault;
        leave(r, outer);
        continue;
      }
      case 10:
      case 12:
      case 14:
        if (wt !== 0) break;
        r.uint32();
        continue;
      case 11: {
        if (wt !== 2) break;
        const outer = enter(r, depth + 1);
        walkEvent(r, depth + 1, st);
        leave(r, outer);
        continue;
      }
      case 13: {
        if (wt !== 2) break;
        const outer = enter(r, depth + 1);
        walkLink(r, depth + 1, st);
        leave(r, outer);
        checkLink(st, r.buf);
        continue;
      }
      case 15: {
        if (wt !== 2) break;
        const outer = enter(r, depth + 1);
        walkStatus(r, depth + 1, st);
        leave(r, outer);
        continue;
      }
    }
    unknown(r, wt, depth, tag, st);
  }
  if (st.statusSeen && st.statusCode === 0 && st.statusMsgLen === 0) st.rewrite = true; // the model drops an empty status
  st.attrCount = attrs;
  st.attrFault = attrs > st.limits.maxAttributes ? `attributes: ${tooManyEntries(attrs, "attributes", st.limits)}` : attrFault;
}

// ---------- assembling records ----------

const varintSize = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

function writeVarint(out: Uint8Array, pos: number, n: number): number {
  while (n >= 0x80) {
    out[pos++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[pos++] = n;
  return pos;
}

/** A field (tag + length + bytes) ready to copy. */
function field(tag: number, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + varintSize(bytes.length) + bytes.length);
  out[0] = tag;
  out.set(bytes, writeVarint(out, 1, bytes.length));
  return out;
}

const EMPTY = new Uint8Array(0);

interface ResourceCtx {
  /** Field 1 (resource), as the model re-encodes it. */
  header: Uint8Array;
  /** Field 3 (schema_url), or empty. */
  schema: Uint8Array;
}
interface ScopeCtx {
  resource: number;
  header: Uint8Array;
  schema: Uint8Array;
}

interface Parts {
  buf: Uint8Array;
  resources: ResourceCtx[];
  scopes: ScopeCtx[];
  /** Per span: scope index, byte range in `buf` (or -1 and a rewritten value in `own`). */
  spanScope: number[];
  spanStart: number[];
  spanEnd: number[];
  own: Map<number, Uint8Array>;
}

function spanLength(p: Parts, k: number): number {
  const own = p.own.get(k);
  return own ? own.length : p.spanEnd[k]! - p.spanStart[k]!;
}

/** Encoded size of the request holding spans `list` (in order), and the sizes of its nested messages. */
function measure(p: Parts, list: number[], sizes: number[]): number {
  sizes.length = 0;
  let total = 0;
  let i = 0;
  while (i < list.length) {
    const res = p.scopes[p.spanScope[list[i]!]!]!.resource;
    const rsAt = sizes.length;
    sizes.push(0);
    const rc = p.resources[res]!;
    let rs = rc.header.length + rc.schema.length;
    while (i < list.length && p.scopes[p.spanScope[list[i]!]!]!.resource === res) {
      const sc = p.spanScope[list[i]!]!;
      const ssAt = sizes.length;
      sizes.push(0);
      const scx = p.scopes[sc]!;
      let ss = scx.header.length + scx.schema.length;
      while (i < list.length && p.spanScope[list[i]!] === sc) {
        const n = spanLength(p, list[i]!);
        ss += 1 + varintSize(n) + n;
        i++;
      }
      sizes[ssAt] = ss;
      rs += 1 + varintSize(ss) + ss;
    }
    sizes[rsAt] = rs;
    total += 1 + varintSize(rs) + rs;
  }
  return total;
}

function assemble(p: Parts, list: number[], sizes: number[], total: number): Uint8Array {
  const out = Buffer.allocUnsafe(total);
  let pos = 0;
  let s = 0;
  let i = 0;
  while (i < list.length) {
    const res = p.scopes[p.spanScope[list[i]!]!]!.resource;
    const rc = p.resources[res]!;
    out[pos++] = 0x0a;
    pos = writeVarint(out, pos, sizes[s++]!);
    out.set(rc.header, pos);
    pos += rc.header.length;
    while (i < list.length && p.scopes[p.spanScope[list[i]!]!]!.resource === res) {
      const sc = p.spanScope[list[i]!]!;
      const scx = p.scopes[sc]!;
      out[pos++] = 0x12;
      pos = writeVarint(out, pos, sizes[s++]!);
      out.set(scx.header, pos);
      pos += scx.header.length;
      while (i < list.length && p.spanScope[list[i]!] === sc) {
        const k = list[i]!;
        const own = p.own.get(k);
        const bytes = own ?? p.buf.subarray(p.spanStart[k]!, p.spanEnd[k]!);
        out[pos++] = 0x12;
        pos = writeVarint(out, pos, bytes.length);
        out.set(bytes, pos);
        pos += bytes.length;
        i++;
      }
      out.set(scx.schema, pos);
      pos += scx.schema.length;
    }
    out.set(rc.schema, pos);
    pos += rc.schema.length;
  }
  if (pos !== total) throw new Error(`record assembly wrote ${pos} of ${total} bytes`);
  return out;
}

function hexOf(buf: Uint8Array, start: number, end: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString("hex");
}

function splitList(p: Parts, key: string, list: number[], maxBytes: number, records: SplitRecord[], errors: string[], sizes: number[]): void {
  const total = measure(p, list, sizes);
  if (total <= maxBytes) {
    records.push({ key, value: assemble(p, list, sizes, total), items: list.length });
    return;
  }
  if (list.length === 1) {
    const k = list[0]!;
    const spanId = spanIdHex(p.own.get(k) ?? p.buf.subarray(p.spanStart[k]!, p.spanEnd[k]!));
    errors.push(`span ${spanId} of trace ${key} encodes to ${total} bytes with its resource and scope, over the Kafka message limit of ${maxBytes} bytes`);
    return;
  }
  const mid = list.length >> 1;
  splitList(p, key, list.slice(0, mid), maxBytes, records, errors, sizes);
  splitList(p, key, list.slice(mid), maxBytes, records, errors, sizes);
}

function decodeSpan(bytes: Uint8Array): PbSpan {
  return SpanType.decode(bytes) as unknown as PbSpan;
}

/** The span id of a span as hex, read again from its bytes (only for error texts). */
function spanIdHex(bytes: Uint8Array): string {
  const id = decodeSpan(bytes).spanId;
  return hexOf(id, 0, id.length);
}

/**
 * Splits a protobuf `ExportTraceServiceRequest` into one record per trace id, each at most
 * `maxBytes` (a trace over it is halved until its parts fit; a span too big alone is refused),
 * validating span and link ids as {@link decodeTraceRequestProtobuf} does.
 * @returns the records and refusals, or null when the body is malformed or uses something the walk
 *   leaves to the full decoder (then decode it with decodeTraceRequestProtobuf, which names the fault)
 */
export function splitTraceRequestProtobuf(body: Uint8Array, maxBytes: number, limits: OtlpLimits): SplitTraces | null {
  try {
    return split(body, maxBytes, limits);
  } catch {
    // Unhandled, or a fault the generated decoder also refuses (RangeError, invalid UTF-8, depth):
    // the full decoder decides, and names the fault.
    return null;
  }
}

function split(body: Uint8Array, maxBytes: number, limits: OtlpLimits): SplitTraces {
  const r = ReaderClass.create(body);
  const buf = r.buf;
  const st = newScan(limits);
  let invalid = 0;
  const p: Parts = { buf, resources: [], scopes: [], spanScope: [], spanStart: [], spanEnd: [], own: new Map() };
  const byTrace = new Map<string, number[]>();
  const errors: string[] = [];
  let total = 0;
  let ri = 0;
  let lastList: number[] | undefined;
  let lastTraceStart = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    const wt = tag & 7;
    if (tag >>> 3 !== 1 || wt !== 2) {
      unknown(r, wt, 0, tag, undefined);
      continue;
    }
    // ResourceSpans
    const outerRs = enter(r, 1);
    let resStart = -1;
    let resEnd = -1;
    let schemaStart = 0;
    let schemaEnd = 0;
    const resIndex = p.resources.length;
    const rc: ResourceCtx = { header: EMPTY, schema: EMPTY };
    p.resources.push(rc);
    let si = 0;
    let resSpans = 0;
    while (r.pos < r.len) {
      const t2 = r.tag();
      const w2 = t2 & 7;
      const f2 = t2 >>> 3;
      if (f2 === 1 && w2 === 2) {
        if (resStart >= 0) throw new Unhandled("resource given twice");
        const outer = enter(r, 2);
        resStart = r.pos;
        resEnd = r.len;
        r.pos = r.len;
        leave(r, outer);
        continue;
      }
      if (f2 === 3 && w2 === 2) {
        schemaStart = stringField(r);
        schemaEnd = r.pos;
        continue;
      }
      if (f2 !== 2 || w2 !== 2) {
        unknown(r, w2, 1, t2, undefined);
        continue;
      }
      // ScopeSpans
      const outerSs = enter(r, 2);
      let scopeStart = -1;
      let scopeEnd = -1;
      let sSchemaStart = 0;
      let sSchemaEnd = 0;
      const scopeIndex = p.scopes.length;
      const sc: ScopeCtx = { resource: resIndex, header: EMPTY, schema: EMPTY };
      p.scopes.push(sc);
      let i = 0;
      while (r.pos < r.len) {
        const t3 = r.tag();
        const w3 = t3 & 7;
        const f3 = t3 >>> 3;
        if (f3 === 1 && w3 === 2) {
          if (scopeStart >= 0) throw new Unhandled("scope given twice");
          const outer = enter(r, 3);
          scopeStart = r.pos;
          scopeEnd = r.len;
          r.pos = r.len;
          leave(r, outer);
          continue;
        }
        if (f3 === 3 && w3 === 2) {
          sSchemaStart = stringField(r);
          sSchemaEnd = r.pos;
          continue;
        }
        if (f3 !== 2 || w3 !== 2) {
          unknown(r, w3, 2, t3, undefined);
          continue;
        }
        // Span
        const outerSpan = enter(r, 3);
        const start = r.pos;
        const end = r.len;
        walkSpan(r, 3, st);
        leave(r, outerSpan);
        total++;
        // Once the reasons kept are complete, a span is only counted (its reason is not worded).
        const error = errors.length < MAX_ERRORS || st.rewrite || st.parentEnd > st.parentStart ? spanError(st, buf) : spanInvalid(st, buf) ? "" : undefined;
        if (error !== undefined) {
          invalid++;
          if (errors.length < MAX_ERRORS) errors.push(`resourceSpans[${ri}].scopeSpans[${si}].spans[${i}].${error}`);
        } else {
          const k = p.spanScope.length;
          p.spanScope.push(scopeIndex);
          p.spanStart.push(start);
          p.spanEnd.push(end);
          if (st.rewrite) p.own.set(k, reencodeSpan(buf.subarray(start, end), limits));
          // Spans of a trace usually come together: reuse the previous span's list when the id repeats.
          if (lastList === undefined || !sameBytes(buf, st.traceStart, lastTraceStart)) {
            const key = hexOf(buf, st.traceStart, st.traceEnd);
            lastList = byTrace.get(key);
            if (lastList === undefined) {
              lastList = [];
              byTrace.set(key, lastList);
            }
            lastTraceStart = st.traceStart;
          }
          lastList.push(k);
        }
        i++;
      }
      leave(r, outerSs);
      // Scopes hold their spans' headers: decoded (validated) and re-encoded through the model; a
      // scope without spans carries nothing and is not read (as the decoder leaves it out).
      if (i > 0) {
        const scope = scopeStart < 0 ? null : (ScopeType.decode(ReaderClass.create(buf.subarray(scopeStart, scopeEnd)), undefined, undefined, 3) as unknown as PbScope);
        sc.header = field(0x0a, ScopeType.encode(scopeToPb(scopeFromPb(scope, limits, `resourceSpans[${ri}].scopeSpans[${si}]`))).finish());
        sc.schema = sSchemaEnd > sSchemaStart ? field(0x1a, buf.subarray(sSchemaStart, sSchemaEnd)) : EMPTY;
        resSpans += i;
      }
      si++;
    }
    leave(r, outerRs);
    if (resSpans > 0) {
      const resource = resStart < 0 ? null : (ResourceType.decode(ReaderClass.create(buf.subarray(resStart, resEnd)), undefined, undefined, 2) as unknown as PbResource);
      rc.header = field(0x0a, ResourceType.encode(resourceToPb(resourceFromPb(resource, limits, `resourceSpans[${ri}]`))).finish());
      rc.schema = schemaEnd > schemaStart ? field(0x1a, buf.subarray(schemaStart, schemaEnd)) : EMPTY;
    }
    ri++;
  }
  const records: SplitRecord[] = [];
  const sizes: number[] = [];
  const kept = errors.length;
  for (const [key, list] of byTrace) splitList(p, key, list, maxBytes, records, errors, sizes);
  return { records, total, rejected: invalid + errors.length - kept, errors, invalid };
}

/** True when spanError would refuse the span (for a span without a parent id; the parent check may set `rewrite`). */
function spanInvalid(st: SpanScan, buf: Uint8Array): boolean {
  if (st.traceEnd - st.traceStart !== 16 || isZero(buf, st.traceStart, st.traceEnd)) return true;
  if (st.spanEnd - st.spanStart !== 8 || isZero(buf, st.spanStart, st.spanEnd)) return true;
  if (st.linkError !== undefined || st.attrFault !== undefined || st.eventFault !== undefined || st.linkFault !== undefined) return true;
  return st.eventCount > st.limits.maxAttributes || st.linkCount > st.limits.maxAttributes;
}

/** The reason a span is refused (after its path), in the order decodeTraceRequestProtobuf checks. */
function spanError(st: SpanScan, buf: Uint8Array): string | undefined {
  if (st.traceEnd - st.traceStart !== 16 || isZero(buf, st.traceStart, st.traceEnd)) {
    const c = checkBinaryId(buf.subarray(st.traceStart, st.traceEnd), 16);
    if (!c.ok) return `traceId: ${c.error}`;
  }
  if (st.spanEnd - st.spanStart !== 8 || isZero(buf, st.spanStart, st.spanEnd)) {
    const c = checkBinaryId(buf.subarray(st.spanStart, st.spanEnd), 8);
    if (!c.ok) return `spanId: ${c.error}`;
  }
  const parent = st.parentEnd - st.parentStart;
  if (parent > 0) {
    if (isZero(buf, st.parentStart, st.parentEnd))
      st.rewrite = true; // the model drops an all-zero parent
    else if (parent !== 8) return `parentSpanId: must be 8 bytes (16 hex digits) or empty, got ${parent} bytes`;
  }
  if (st.linkError !== undefined) return st.linkError;
  if (st.attrFault !== undefined) return st.attrFault;
  if (st.eventCount > st.limits.maxAttributes) return `events: ${tooManyEntries(st.eventCount, "events", st.limits)}`;
  if (st.eventFault !== undefined) return st.eventFault;
  if (st.linkCount > st.limits.maxAttributes) return `links: ${tooManyEntries(st.linkCount, "links", st.limits)}`;
  return st.linkFault;
}

/** A span's bytes as the model re-encodes them (for spans whose bytes would decode differently). */
function reencodeSpan(bytes: Uint8Array, limits: OtlpLimits): Uint8Array {
  const c = spanFromPb(decodeSpan(bytes), "span", limits);
  if (!c.ok) throw new Unhandled(c.error);
  return SpanType.encode(spanToPb(c.value)).finish();
}
