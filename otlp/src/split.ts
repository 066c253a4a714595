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
 * fields, an all-zero parent span id, repeated empty statuses, a key without a value, an AnyValue
 * with two kinds of value) is re-encoded through the model too; one empty status (code unset, no
 * message: what the SDKs' exporters write for a span whose status was never set, and which the model
 * drops) is left out of the span's copied bytes instead. When the walk meets anything else it does not
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
  /** Spans re-encoded through the model (their bytes would decode differently); 0 when every kept span was copied. */
  reencoded: number;
  /** Spans copied without their empty status. */
  trimmed: number;
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
  /** Status fields met (the decoder merges them), the merged code and message length, the last one's field range (tag included). */
  statusCount: number;
  statusCode: number;
  statusMsgLen: number;
  statusStart: number;
  statusEnd: number;
  /** Bytes of the span left out when it is copied (an empty status, which the model drops): [cutStart, cutEnd), or empty. */
  cutStart: number;
  cutEnd: number;
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
  /** The span's own attributes and their first value fault so far (its events' and links' lists interleave on the wire). */
  spanAttrs: number;
  spanAttrFault: string | undefined;
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
    spanAttrs: 0,
    spanAttrFault: undefined,
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
    statusCount: 0,
    statusCode: 0,
    statusMsgLen: 0,
    statusStart: 0,
    statusEnd: 0,
    cutStart: 0,
    cutEnd: 0,
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

/** Walks a length-delimited sub-message (at `depth` + 1) with `walk`. */
function nested(r: Reader, depth: number, st: SpanScan, walk: (r: Reader, depth: number, st: SpanScan) => void): void {
  const outer = enter(r, depth + 1);
  walk(r, depth + 1, st);
  leave(r, outer);
}

/** Skips a sub-message (checked as `enter` checks it) without walking it; returns its content's start (the end is `r.pos`). */
function skipMessage(r: Reader, depth: number): number {
  const outer = enter(r, depth);
  const start = r.pos;
  r.pos = r.len;
  leave(r, outer);
  return start;
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
  // Node's isUtf8 (SIMD) beats a loop from about 32 bytes on (800 bytes: 0.06–0.16 against 0.9–1.5 µs), not below.
  if (end - start > 32 ? !isUtf8(r.buf.subarray(start, end)) : !asciiOrUtf8(r.buf, start, end)) throw new Error("invalid UTF-8");
  return start;
}

function asciiOrUtf8(buf: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i]! >= 0x80) return isUtf8(buf.subarray(start, end));
  return true;
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

/**
 * Wire types of a message's known fields, by field number (-1: not a field the walk knows). A field
 * met with another wire type is skipped as unknown, as the generated decoder skips it.
 */
function wireTypes(byField: Record<number, number>): Int8Array {
  const table = new Int8Array(Math.max(...Object.keys(byField).map(Number)) + 1).fill(-1);
  for (const [f, w] of Object.entries(byField)) table[Number(f)] = w;
  return table;
}
const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const FIXED32 = 5;
// opentelemetry/proto/common/v1/common.proto and trace/v1/trace.proto
const ANY_VALUE_WIRE = wireTypes({ 1: LEN, 2: VARINT, 3: VARINT, 4: FIXED64, 5: LEN, 6: LEN, 7: LEN });
const KEY_VALUE_WIRE = wireTypes({ 1: LEN, 2: LEN });
const SPAN_WIRE = wireTypes({
  1: LEN,
  2: LEN,
  3: LEN,
  4: LEN,
  5: LEN,
  6: VARINT,
  7: FIXED64,
  8: FIXED64,
  9: LEN,
  10: VARINT,
  11: LEN,
  12: VARINT,
  13: LEN,
  14: VARINT,
  15: LEN,
  16: FIXED32,
});
const EVENT_WIRE = wireTypes({ 1: FIXED64, 2: LEN, 3: LEN, 4: VARINT });
const LINK_WIRE = wireTypes({ 1: LEN, 2: LEN, 3: LEN, 4: LEN, 5: VARINT, 6: FIXED32 });
const STATUS_WIRE = wireTypes({ 2: LEN, 3: VARINT });

/** The field number of `tag` when it is a known field of `table` with its wire type, else 0 (unknown). */
function knownField(table: Int8Array, tag: number): number {
  const field = tag >>> 3;
  return field < table.length && table[field] === (tag & 7) ? field : 0;
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

/** A string or bytes value just skipped from `start`: checked against the value limit. */
function checkValueBytes(r: Reader, st: SpanScan, start: number, where: () => string): void {
  const bytes = r.pos - start;
  if (bytes > st.limits.maxValueBytes) valueFault(st, where, tooLong(bytes, st.limits));
}

/** An array or map value: its entries walked by `walk` (which returns their number), then checked. */
function walkEntries(r: Reader, depth: number, st: SpanScan, vdepth: number, where: () => string, walk: typeof walkArrayValue): void {
  const outer = enter(r, depth + 1);
  const n = walk(r, depth + 1, st, vdepth, where);
  leave(r, outer);
  checkEntries(st, n, vdepth, where);
}

/** One known field of an AnyValue (see walkAnyValue). */
function anyValueField(r: Reader, depth: number, st: SpanScan, vdepth: number, where: () => string, field: number): void {
  switch (field) {
    case 1:
      checkValueBytes(r, st, stringField(r), where);
      return;
    case 2:
      r.bool();
      return;
    case 3:
      varint64(r);
      return;
    case 4:
      r.skip(8);
      return;
    case 5:
      walkEntries(r, depth, st, vdepth, where, walkArrayValue);
      return;
    case 6:
      walkEntries(r, depth, st, vdepth, where, walkKeyValues);
      return;
    default: // 7
      checkValueBytes(r, st, bytesField(r), where);
  }
}

/** Walks an AnyValue at value level `vdepth` (1: an attribute's value); `where` is its path in the list. */
function walkAnyValue(r: Reader, depth: number, st: SpanScan, vdepth: number, where: () => string): void {
  let kind = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    const field = knownField(ANY_VALUE_WIRE, tag);
    if (field === 0) {
      unknown(r, tag & 7, depth, tag, st);
      continue;
    }
    anyValueField(r, depth, st, vdepth, where, field);
    if (kind !== 0 && kind !== field) st.rewrite = true; // two kinds of value: the model keeps one
    kind = field;
  }
}

/** Walks an ArrayValue whose AnyValue is at `vdepth`; returns its entries. */
function walkArrayValue(r: Reader, depth: number, st: SpanScan, vdepth: number, where: () => string): number {
  let n = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag !== 0x0a) {
      unknown(r, tag & 7, depth, tag, st);
      continue;
    }
    const outer = enter(r, depth + 1);
    const i = n++;
    walkAnyValue(r, depth + 1, st, vdepth + 1, () => `${where()}.arrayValue.values[${i}]`);
    leave(r, outer);
  }
  return n;
}

/** KeyValueList: field 1 = repeated KeyValue (of a map value at `vdepth`); returns its entries. */
function walkKeyValues(r: Reader, depth: number, st: SpanScan, vdepth: number, where: () => string): number {
  let n = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag !== 0x0a) {
      unknown(r, tag & 7, depth, tag, st);
      continue;
    }
    const outer = enter(r, depth + 1);
    const i = n++;
    walkKeyValue(r, depth + 1, st, vdepth + 1, () => `${where()}.kvlistValue.values[${i}].value`);
    leave(r, outer);
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
    const field = knownField(KEY_VALUE_WIRE, tag);
    if (field === 1) stringField(r);
    else if (field === 2) {
      const outer = enter(r, depth + 1);
      walkAnyValue(r, depth + 1, st, vdepth, where);
      leave(r, outer);
      values++;
    } else unknown(r, tag & 7, depth, tag, st);
  }
  // The model turns a missing value into an empty one, and merges repeated ones by its own rule.
  if (values !== 1) st.rewrite = true;
}

/** One known field of an Event or a Link other than ids and times: `field` as in the Link message. */
function eventOrLinkField(r: Reader, depth: number, st: SpanScan, field: number): void {
  switch (field) {
    case 4:
      nested(r, depth, st, walkAttribute);
      return;
    case 3:
      stringField(r);
      return;
    case 5:
      r.uint32();
      return;
    default: // 6: flags
      r.skip(4);
  }
}

// An Event's fields as the Link's of the same kind: name → 3 (string), attributes → 4, dropped count → 5; its time (1) stays 1.
const EVENT_AS_LINK = [0, 1, 3, 4, 5];

function walkEvent(r: Reader, depth: number, st: SpanScan): void {
  startList(st, 1, st.eventCount);
  while (r.pos < r.len) {
    const tag = r.tag();
    const field = EVENT_AS_LINK[knownField(EVENT_WIRE, tag)]!;
    if (field === 0) unknown(r, tag & 7, depth, tag, st);
    else if (field === 1) r.skip(8);
    else eventOrLinkField(r, depth, st, field);
  }
  st.eventFault ??= listFault(st);
  st.eventCount++;
}

function walkLink(r: Reader, depth: number, st: SpanScan): void {
  st.linkTraceStart = st.linkTraceEnd = st.linkSpanStart = st.linkSpanEnd = 0;
  startList(st, 2, st.linkCount);
  while (r.pos < r.len) {
    const tag = r.tag();
    const field = knownField(LINK_WIRE, tag);
    if (field === 1) {
      st.linkTraceStart = bytesField(r);
      st.linkTraceEnd = r.pos;
    } else if (field === 2) {
      st.linkSpanStart = bytesField(r);
      st.linkSpanEnd = r.pos;
    } else if (field === 0) unknown(r, tag & 7, depth, tag, st);
    else eventOrLinkField(r, depth, st, field);
  }
  st.linkFault ??= listFault(st);
  st.linkCount++;
}

function walkStatus(r: Reader, depth: number, st: SpanScan): void {
  while (r.pos < r.len) {
    const tag = r.tag();
    const field = knownField(STATUS_WIRE, tag);
    if (field === 2) {
      const start = stringField(r);
      st.statusMsgLen = r.pos - start;
    } else if (field === 3) st.statusCode = r.int32();
    else unknown(r, tag & 7, depth, tag, st);
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

/** One of the span's own attributes (their count and first fault are kept apart from its events' and links'). */
function walkSpanAttribute(r: Reader, depth: number, st: SpanScan): void {
  startList(st, 0, 0);
  st.listCount = st.spanAttrs;
  walkAttribute(r, depth, st);
  st.spanAttrs = st.listCount;
  st.spanAttrFault ??= st.valueFault;
}

/** One known field of a Span; `tagStart`: where its tag starts. */
function spanField(r: Reader, depth: number, st: SpanScan, field: number, tagStart: number): void {
  switch (field) {
    case 1:
      st.traceStart = bytesField(r);
      st.traceEnd = r.pos;
      return;
    case 2:
      st.spanStart = bytesField(r);
      st.spanEnd = r.pos;
      return;
    case 4:
      st.parentStart = bytesField(r);
      st.parentEnd = r.pos;
      return;
    case 3:
    case 5:
      stringField(r);
      return;
    case 6:
      r.int32();
      return;
    case 7:
    case 8:
      r.skip(8);
      return;
    case 16:
      r.skip(4);
      return;
    case 9:
      nested(r, depth, st, walkSpanAttribute);
      return;
    case 11:
      nested(r, depth, st, walkEvent);
      return;
    case 13:
      nested(r, depth, st, walkLink);
      checkLink(st, r.buf);
      return;
    case 15:
      st.statusCount++;
      st.statusStart = tagStart;
      nested(r, depth, st, walkStatus);
      st.statusEnd = r.pos;
      return;
    default: // 10, 12, 14: dropped counts
      r.uint32();
  }
}

function resetSpan(st: SpanScan): void {
  st.traceStart = st.traceEnd = st.spanStart = st.spanEnd = st.parentStart = st.parentEnd = 0;
  st.statusCount = st.statusCode = st.statusMsgLen = st.statusStart = st.statusEnd = 0;
  st.cutStart = st.cutEnd = 0;
  st.rewrite = false;
  st.linkIndex = 0;
  st.linkError = undefined;
  st.eventCount = st.linkCount = st.attrCount = st.spanAttrs = 0;
  st.attrFault = st.eventFault = st.linkFault = st.spanAttrFault = undefined;
}

/** Walks one Span (r.len = its end), filling `st`. */
function walkSpan(r: Reader, depth: number, st: SpanScan): void {
  resetSpan(st);
  while (r.pos < r.len) {
    const tagStart = r.pos;
    const tag = r.tag();
    const field = knownField(SPAN_WIRE, tag);
    if (field === 0) unknown(r, tag & 7, depth, tag, st);
    else spanField(r, depth, st, field, tagStart);
  }
  // The model drops an empty status (code unset, no message; the decoder merges repeated ones): one
  // is left out of the copied bytes (what SDKs send for a span whose status was never set), several are re-encoded.
  if (st.statusCount > 0 && st.statusCode === 0 && st.statusMsgLen === 0) {
    if (st.statusCount === 1) [st.cutStart, st.cutEnd] = [st.statusStart, st.statusEnd];
    else st.rewrite = true;
  }
  st.attrCount = st.spanAttrs;
  st.attrFault = st.spanAttrs > st.limits.maxAttributes ? `attributes: ${tooManyEntries(st.spanAttrs, "attributes", st.limits)}` : st.spanAttrFault;
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
  /** Per span: scope index, byte range in `buf`, the range inside it left out (empty: none), or a rewritten value in `own`. */
  spanScope: number[];
  spanStart: number[];
  spanEnd: number[];
  cutStart: number[];
  cutEnd: number[];
  own: Map<number, Uint8Array>;
}

function spanLength(p: Parts, k: number): number {
  const own = p.own.get(k);
  return own ? own.length : p.spanEnd[k]! - p.spanStart[k]! - (p.cutEnd[k]! - p.cutStart[k]!);
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

/** Writes the request holding spans `list` (sizes from {@link measure}) into `out` (exactly `total` bytes). */
function assemble(p: Parts, list: number[], sizes: number[], total: number, out: Uint8Array): Uint8Array {
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
        pos = writeSpan(p, list[i]!, out, pos);
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

/** Writes span `k` as a field of its ScopeSpans at `pos`; returns the position after it. */
function writeSpan(p: Parts, k: number, out: Uint8Array, pos: number): number {
  out[pos++] = 0x12;
  pos = writeVarint(out, pos, spanLength(p, k));
  const own = p.own.get(k);
  if (own) {
    out.set(own, pos);
    return pos + own.length;
  }
  const cut = p.cutEnd[k]! > p.cutStart[k]!;
  const first = p.buf.subarray(p.spanStart[k]!, cut ? p.cutStart[k]! : p.spanEnd[k]!);
  out.set(first, pos);
  pos += first.length;
  if (!cut) return pos;
  const rest = p.buf.subarray(p.cutEnd[k]!, p.spanEnd[k]!);
  out.set(rest, pos);
  return pos + rest.length;
}

function hexOf(buf: Uint8Array, start: number, end: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString("hex");
}

/** A record measured and not yet written: its spans, the sizes of its nested messages and its length. */
interface Planned {
  key: string;
  list: number[];
  sizes: number[];
  total: number;
}

function splitList(p: Parts, key: string, list: number[], maxBytes: number, planned: Planned[], errors: string[]): void {
  const sizes: number[] = [];
  const total = measure(p, list, sizes);
  if (total <= maxBytes) {
    planned.push({ key, list, sizes, total });
    return;
  }
  if (list.length === 1) {
    const k = list[0]!;
    const spanId = spanIdHex(p.own.get(k) ?? p.buf.subarray(p.spanStart[k]!, p.spanEnd[k]!));
    errors.push(`span ${spanId} of trace ${key} encodes to ${total} bytes with its resource and scope, over the Kafka message limit of ${maxBytes} bytes`);
    return;
  }
  const mid = list.length >> 1;
  splitList(p, key, list.slice(0, mid), maxBytes, planned, errors);
  splitList(p, key, list.slice(mid), maxBytes, planned, errors);
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
 * The records' values are views of one buffer of their total length, from `alloc` (default
 * `Buffer.allocUnsafe`; the collector passes a pool's, and gives it back once Kafka holds the records).
 * @returns the records and refusals, or null when the body is malformed or uses something the walk
 *   leaves to the full decoder (then decode it with decodeTraceRequestProtobuf, which names the fault)
 */
export function splitTraceRequestProtobuf(body: Uint8Array, maxBytes: number, limits: OtlpLimits, alloc: (bytes: number) => Uint8Array = Buffer.allocUnsafe): SplitTraces | null {
  try {
    return split(body, maxBytes, limits, alloc);
  } catch {
    // Unhandled, or a fault the generated decoder also refuses (RangeError, invalid UTF-8, depth):
    // the full decoder decides, and names the fault.
    return null;
  }
}

/** The state of one request's walk. */
interface Walk {
  r: Reader;
  buf: Uint8Array;
  st: SpanScan;
  limits: OtlpLimits;
  p: Parts;
  byTrace: Map<string, number[]>;
  errors: string[];
  total: number;
  invalid: number;
  reencoded: number;
  trimmed: number;
  /** The list of the last span's trace, and where that span's trace id starts (spans of a trace usually come together). */
  lastList: number[] | undefined;
  lastTraceStart: number;
  /** Index of the ResourceSpans and ScopeSpans being walked (for error paths). */
  ri: number;
  si: number;
}

function split(body: Uint8Array, maxBytes: number, limits: OtlpLimits, alloc: (bytes: number) => Uint8Array): SplitTraces {
  const r = ReaderClass.create(body);
  const w: Walk = {
    r,
    buf: r.buf,
    st: newScan(limits),
    limits,
    p: { buf: r.buf, resources: [], scopes: [], spanScope: [], spanStart: [], spanEnd: [], cutStart: [], cutEnd: [], own: new Map() },
    byTrace: new Map(),
    errors: [],
    total: 0,
    invalid: 0,
    reencoded: 0,
    trimmed: 0,
    lastList: undefined,
    lastTraceStart: 0,
    ri: 0,
    si: 0,
  };
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag !== 0x0a) {
      unknown(r, tag & 7, 0, tag, undefined);
      continue;
    }
    walkResourceSpans(w);
    w.ri++;
  }
  const planned: Planned[] = [];
  const errors = w.errors;
  const kept = errors.length;
  for (const [key, list] of w.byTrace) splitList(w.p, key, list, maxBytes, planned, errors);
  // Every record is a view of one buffer for the request: one allocation, not one per trace.
  let bytes = 0;
  for (const d of planned) bytes += d.total;
  const out = bytes === 0 ? EMPTY : alloc(bytes);
  if (out.length < bytes) throw new RangeError(`the allocator gave ${out.length} bytes for ${bytes}`);
  const records: SplitRecord[] = [];
  let at = 0;
  for (const d of planned) {
    records.push({ key: d.key, value: assemble(w.p, d.list, d.sizes, d.total, out.subarray(at, at + d.total)), items: d.list.length });
    at += d.total;
  }
  return { records, total: w.total, rejected: w.invalid + errors.length - kept, errors, invalid: w.invalid, reencoded: w.reencoded, trimmed: w.trimmed };
}

/** A ResourceSpans (field 1 of the request); its resource is decoded and re-encoded through the model when it has spans. */
function walkResourceSpans(w: Walk): void {
  const r = w.r;
  const outer = enter(r, 1);
  let resStart = -1;
  let resEnd = -1;
  let schemaStart = 0;
  let schemaEnd = 0;
  const resIndex = w.p.resources.length;
  const rc: ResourceCtx = { header: EMPTY, schema: EMPTY };
  w.p.resources.push(rc);
  let spans = 0;
  w.si = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag === 0x12) {
      spans += walkScopeSpans(w, resIndex);
      w.si++;
    } else if (tag === 0x0a) {
      if (resStart >= 0) throw new Unhandled("resource given twice");
      resStart = skipMessage(r, 2);
      resEnd = r.pos;
    } else if (tag === 0x1a) {
      schemaStart = stringField(r);
      schemaEnd = r.pos;
    } else unknown(r, tag & 7, 1, tag, undefined);
  }
  leave(r, outer);
  if (spans === 0) return;
  const resource = resStart < 0 ? null : (ResourceType.decode(ReaderClass.create(w.buf.subarray(resStart, resEnd)), undefined, undefined, 2) as unknown as PbResource);
  rc.header = field(0x0a, ResourceType.encode(resourceToPb(resourceFromPb(resource, w.limits, `resourceSpans[${w.ri}]`))).finish());
  rc.schema = schemaEnd > schemaStart ? field(0x1a, w.buf.subarray(schemaStart, schemaEnd)) : EMPTY;
}

/**
 * A ScopeSpans (field 2 of a ResourceSpans); returns its spans. Its scope is decoded (validated) and
 * re-encoded through the model when it has spans; a scope without spans carries nothing and is not
 * read (as the decoder leaves it out).
 */
function walkScopeSpans(w: Walk, resource: number): number {
  const r = w.r;
  const outer = enter(r, 2);
  let scopeStart = -1;
  let scopeEnd = -1;
  let schemaStart = 0;
  let schemaEnd = 0;
  const scopeIndex = w.p.scopes.length;
  const sc: ScopeCtx = { resource, header: EMPTY, schema: EMPTY };
  w.p.scopes.push(sc);
  let i = 0;
  while (r.pos < r.len) {
    const tag = r.tag();
    if (tag === 0x12) walkSpanOf(w, scopeIndex, i++);
    else if (tag === 0x0a) {
      if (scopeStart >= 0) throw new Unhandled("scope given twice");
      scopeStart = skipMessage(r, 3);
      scopeEnd = r.pos;
    } else if (tag === 0x1a) {
      schemaStart = stringField(r);
      schemaEnd = r.pos;
    } else unknown(r, tag & 7, 2, tag, undefined);
  }
  leave(r, outer);
  if (i === 0) return 0;
  const scope = scopeStart < 0 ? null : (ScopeType.decode(ReaderClass.create(w.buf.subarray(scopeStart, scopeEnd)), undefined, undefined, 3) as unknown as PbScope);
  sc.header = field(0x0a, ScopeType.encode(scopeToPb(scopeFromPb(scope, w.limits, `resourceSpans[${w.ri}].scopeSpans[${w.si}]`))).finish());
  sc.schema = schemaEnd > schemaStart ? field(0x1a, w.buf.subarray(schemaStart, schemaEnd)) : EMPTY;
  return i;
}

/** Span `i` (field 2 of a ScopeSpans): refused with its reason, or kept under its trace (copied, or re-encoded through the model). */
function walkSpanOf(w: Walk, scopeIndex: number, i: number): void {
  const { r, buf, st, p, errors } = w;
  const outer = enter(r, 3);
  const start = r.pos;
  const end = r.len;
  walkSpan(r, 3, st);
  leave(r, outer);
  w.total++;
  // Once the reasons kept are complete, a span is only counted (its reason is not worded).
  const error = errors.length < MAX_ERRORS || st.rewrite || st.parentEnd > st.parentStart ? spanError(st, buf) : spanInvalid(st, buf) ? "" : undefined;
  if (error !== undefined) {
    w.invalid++;
    if (errors.length < MAX_ERRORS) errors.push(`resourceSpans[${w.ri}].scopeSpans[${w.si}].spans[${i}].${error}`);
    return;
  }
  const k = p.spanScope.length;
  p.spanScope.push(scopeIndex);
  p.spanStart.push(start);
  p.spanEnd.push(end);
  p.cutStart.push(st.cutStart);
  p.cutEnd.push(st.cutEnd);
  if (st.rewrite) {
    p.own.set(k, reencodeSpan(buf.subarray(start, end), w.limits));
    w.reencoded++;
  } else if (st.cutEnd > st.cutStart) w.trimmed++;
  traceList(w).push(k);
}

/** The list of the trace of the span just walked. */
function traceList(w: Walk): number[] {
  const { buf, st } = w;
  if (w.lastList !== undefined && sameBytes(buf, st.traceStart, w.lastTraceStart)) return w.lastList;
  const key = hexOf(buf, st.traceStart, st.traceEnd);
  let list = w.byTrace.get(key);
  if (list === undefined) {
    list = [];
    w.byTrace.set(key, list);
  }
  w.lastList = list;
  w.lastTraceStart = st.traceStart;
  return list;
}

/** True when spanError would refuse the span (for a span without a parent id; the parent check may set `rewrite`). */
function spanInvalid(st: SpanScan, buf: Uint8Array): boolean {
  if (st.traceEnd - st.traceStart !== 16 || isZero(buf, st.traceStart, st.traceEnd)) return true;
  if (st.spanEnd - st.spanStart !== 8 || isZero(buf, st.spanStart, st.spanEnd)) return true;
  if (st.linkError !== undefined || st.attrFault !== undefined || st.eventFault !== undefined || st.linkFault !== undefined) return true;
  return st.eventCount > st.limits.maxAttributes || st.linkCount > st.limits.maxAttributes;
}

/** The reason the span's trace or span id is refused, if it is. */
function idError(st: SpanScan, buf: Uint8Array): string | undefined {
  if (st.traceEnd - st.traceStart !== 16 || isZero(buf, st.traceStart, st.traceEnd)) {
    const c = checkBinaryId(buf.subarray(st.traceStart, st.traceEnd), 16);
    if (!c.ok) return `traceId: ${c.error}`;
  }
  if (st.spanEnd - st.spanStart !== 8 || isZero(buf, st.spanStart, st.spanEnd)) {
    const c = checkBinaryId(buf.subarray(st.spanStart, st.spanEnd), 8);
    if (!c.ok) return `spanId: ${c.error}`;
  }
  return undefined;
}

/** The reason a span is refused (after its path), in the order decodeTraceRequestProtobuf checks. */
function spanError(st: SpanScan, buf: Uint8Array): string | undefined {
  const ids = idError(st, buf);
  if (ids !== undefined) return ids;
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
