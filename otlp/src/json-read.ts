/**
 * OTLP/JSON (parsed) → model, item by item, within the limits (limits.ts). Plain functions instead
 * of a zod schema (issue 39): a zod parse cost 4–12 µs per object whatever its size, so a body of
 * tiny objects (1,000,000 `{}` spans, 3 MB) held the collector for 11–25 s, and its recursive
 * AnyValue schema overflowed the stack on a value nested 5,000 deep (a 500). Here an object costs
 * a few field reads, a value's depth is checked before it is entered (recursion ≤ maxDepth), and a
 * fault is a plain object thrown up to the item (no Error, no stack trace), its path built on the
 * way up. Messages keep the wording of the zod schema they replace.
 */
import { checkHexId } from "./ids.js";
import { INT64_MAX, INT64_MIN, UINT64_MAX } from "./int64.js";
import { type OtlpLimits, tooDeep, tooLong, tooManyEntries } from "./limits.js";
import type { AnyValue, EntityRef, InstrumentationScope, KeyValue, LogRecord, Resource, Span, SpanEvent, SpanLink } from "./model.js";

/** What is wrong, and where (relative to the item the caller reads). Thrown, never an Error: no stack trace to capture. */
export class Fault {
  readonly path: PropertyKey[] = [];
  constructor(readonly message: string) {}
}

/** Formats a path as `a[0].b.c`, under `prefix`. */
export function pathOf(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out === "" ? String(p) : `.${String(p)}`;
  return out === "" ? "body" : out;
}

type Obj = Record<string, unknown>;

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
}

/** Reads `o[key]` with `read`, naming `key` in a fault's path. */
function at<T>(o: Obj, key: string, read: (v: unknown) => T): T {
  try {
    return read(o[key]);
  } catch (e) {
    if (e instanceof Fault) e.path.unshift(key);
    throw e;
  }
}

/** Reads every element of `list` with `read`, naming the index in a fault's path. */
function each<T>(list: readonly unknown[], read: (v: unknown) => T): T[] {
  const out: T[] = new Array(list.length);
  let i = 0;
  try {
    for (; i < list.length; i++) out[i] = read(list[i]);
  } catch (e) {
    if (e instanceof Fault) e.path.unshift(i);
    throw e;
  }
  return out;
}

export function object(v: unknown): Obj {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Fault(`Invalid input: expected object, received ${typeName(v)}`);
  return v as Obj;
}

/** An array (null or absent: empty). */
export function array(v: unknown): readonly unknown[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new Fault(`Invalid input: expected array, received ${typeName(v)}`);
  return v;
}

function str(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v !== "string") throw new Fault(`Invalid input: expected string, received ${typeName(v)}`);
  return v;
}

function uint32(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 0xffffffff) return v;
  if (typeof v === "string" && /^\d{1,10}$/.test(v) && Number(v) <= 0xffffffff) return Number(v);
  throw new Fault(`must be an unsigned 32-bit integer, got ${describe(v)}`);
}

/** An OTLP/JSON 64-bit integer (decimal string or JSON integer), or an error text. */
function readInt64(v: unknown, min: bigint, max: bigint, what: string): bigint | string {
  let out: bigint | undefined;
  if (typeof v === "string" && /^-?\d+$/.test(v)) out = BigInt(v);
  else if (typeof v === "number" && Number.isInteger(v)) out = BigInt(v);
  if (out === undefined) return `must be ${what} as a decimal string or a JSON integer, got ${describe(v)}`;
  if (out < min || out > max) return `${out} is out of range for ${what}`;
  return out;
}

function uint64(v: unknown): bigint {
  if (v === null || v === undefined) return 0n;
  const r = readInt64(v, 0n, UINT64_MAX, "an unsigned 64-bit integer");
  if (typeof r === "string") throw new Fault(r);
  return r;
}

function enumNumber(names: readonly string[]): (v: unknown) => number {
  return (v) => {
    if (v === null || v === undefined) return 0;
    if (typeof v === "number" && Number.isInteger(v)) return v;
    if (typeof v === "string") {
      const i = names.indexOf(v);
      if (i >= 0) return i;
      if (/^-?\d{1,10}$/.test(v)) return Number(v);
      throw new Fault(`unknown enum value ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`);
    }
    throw new Fault(`must be an enum name or number, got ${describe(v)}`);
  };
}

const SPAN_KINDS = ["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"] as const;
const STATUS_CODES = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"] as const;
const SEVERITIES = [
  "SEVERITY_NUMBER_UNSPECIFIED",
  ...["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"].flatMap((s) => ["", "2", "3", "4"].map((n) => `SEVERITY_NUMBER_${s}${n}`)),
] as const;
const spanKind = enumNumber(SPAN_KINDS);
const statusCode = enumNumber(STATUS_CODES);
const severity = enumNumber(SEVERITIES);

function hexId(digits: number): (v: unknown) => string {
  return (v) => {
    if (typeof v !== "string") throw new Fault(`must be ${digits} hex digits, got ${describe(v)}`);
    const c = checkHexId(v, digits);
    if (!c.ok) throw new Fault(c.error);
    return c.hex;
  };
}

function optionalHexId(digits: number): (v: unknown) => string {
  return (v) => {
    if (v === undefined || v === null || v === "") return "";
    if (typeof v === "string" && v.length === digits && /^0+$/.test(v)) return "";
    if (typeof v !== "string") throw new Fault(`must be ${digits} hex digits or empty, got ${describe(v)}`);
    const c = checkHexId(v, digits);
    if (!c.ok) throw new Fault(c.error);
    return c.hex;
  };
}
const traceIdOf = hexId(32);
const spanIdOf = hexId(16);
const optionalTraceId = optionalHexId(32);
const optionalSpanId = optionalHexId(16);

function double(v: unknown): number {
  if (typeof v === "number") return v;
  if (v === "NaN" || v === "Infinity" || v === "-Infinity") return Number(v);
  if (typeof v === "string" && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v)) return Number(v);
  throw new Fault(`must be a number, got ${describe(v)}`);
}

/** UTF-8 bytes of `s`, counted only when its length does not settle the comparison with `max`. */
function checkString(s: string, limits: OtlpLimits): string {
  if (s.length * 3 > limits.maxValueBytes) {
    const bytes = Buffer.byteLength(s, "utf8");
    if (bytes > limits.maxValueBytes) throw new Fault(tooLong(bytes, limits));
  }
  return s;
}

function base64(v: unknown, limits: OtlpLimits): Uint8Array {
  if (typeof v !== "string" || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) throw new Fault("must be base64");
  const bytes = Math.floor((v.replace(/=+$/, "").length * 3) / 4);
  if (bytes > limits.maxValueBytes) throw new Fault(tooLong(bytes, limits));
  return new Uint8Array(Buffer.from(v, "base64"));
}

const VALUE_FIELDS = ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"] as const;

/** An AnyValue at level `depth` (1: an attribute's value or a log body). */
function anyValue(v: unknown, depth: number, limits: OtlpLimits): AnyValue {
  if (v === null || v === undefined) return {};
  const o = object(v);
  let set: string | undefined;
  for (const k of VALUE_FIELDS) {
    if (o[k] === undefined || o[k] === null) continue;
    if (set !== undefined) {
      const all = VALUE_FIELDS.filter((f) => o[f] !== undefined && o[f] !== null);
      throw new Fault(`an AnyValue holds exactly one of its fields, got ${all.join(", ")}`);
    }
    set = k;
  }
  switch (set) {
    case "stringValue":
      return { stringValue: at(o, set, (s) => checkString(str(s), limits)) };
    case "boolValue":
      return {
        boolValue: at(o, set, (b) => {
          if (typeof b !== "boolean") throw new Fault(`Invalid input: expected boolean, received ${typeName(b)}`);
          return b;
        }),
      };
    case "intValue":
      return {
        intValue: at(o, set, (i) => {
          const r = readInt64(i, INT64_MIN, INT64_MAX, "a signed 64-bit integer");
          if (typeof r === "string") throw new Fault(r);
          return r;
        }),
      };
    case "doubleValue":
      return { doubleValue: at(o, set, double) };
    case "arrayValue":
      return { arrayValue: { values: at(o, set, (a) => at(object(a), "values", (l) => entries(l, depth, limits, (x) => anyValue(x, depth + 1, limits)))) } };
    case "kvlistValue":
      return { kvlistValue: { values: at(o, set, (a) => at(object(a), "values", (l) => entries(l, depth, limits, (x) => keyValue(x, depth + 1, limits)))) } };
    case "bytesValue":
      return { bytesValue: at(o, set, (b) => base64(b, limits)) };
    default:
      return {};
  }
}

/** The entries of an array or map value at `depth`, each one level deeper. */
function entries<T>(v: unknown, depth: number, limits: OtlpLimits, read: (x: unknown) => T): T[] {
  const list = array(v);
  if (list.length === 0) return [];
  if (depth + 1 > limits.maxDepth) throw new Fault(tooDeep(limits));
  if (list.length > limits.maxAttributes) throw new Fault(tooManyEntries(list.length, "entries", limits));
  return each(list, read);
}

function requiredString(v: unknown): string {
  if (typeof v !== "string") throw new Fault(`Invalid input: expected string, received ${typeName(v)}`);
  return v;
}

function keyValue(v: unknown, depth: number, limits: OtlpLimits): KeyValue {
  const o = object(v);
  const key = at(o, "key", requiredString);
  return { key, value: at(o, "value", (x) => anyValue(x, depth, limits)) };
}

/** A list of attributes (null or absent: none), at most maxAttributes. */
function attributes(v: unknown, limits: OtlpLimits): KeyValue[] {
  const list = array(v);
  if (list.length > limits.maxAttributes) throw new Fault(tooManyEntries(list.length, "attributes", limits));
  return each(list, (x) => keyValue(x, 1, limits));
}

function limited(v: unknown, what: string, limits: OtlpLimits): readonly unknown[] {
  const list = array(v);
  if (list.length > limits.maxAttributes) throw new Fault(tooManyEntries(list.length, what, limits));
  return list;
}

function entityRef(v: unknown): EntityRef {
  const o = object(v);
  const keys = (k: unknown): string[] => each(array(k), requiredString);
  return { schemaUrl: at(o, "schemaUrl", str), type: at(o, "type", str), idKeys: at(o, "idKeys", keys), descriptionKeys: at(o, "descriptionKeys", keys) };
}

export function resource(v: unknown, limits: OtlpLimits): Resource {
  if (v === null || v === undefined) return { attributes: [], droppedAttributesCount: 0, entityRefs: [] };
  const o = object(v);
  return {
    attributes: at(o, "attributes", (a) => attributes(a, limits)),
    droppedAttributesCount: at(o, "droppedAttributesCount", uint32),
    entityRefs: at(o, "entityRefs", (e) => each(limited(e, "entity refs", limits), entityRef)),
  };
}

export function scope(v: unknown, limits: OtlpLimits): InstrumentationScope {
  if (v === null || v === undefined) return { name: "", version: "", attributes: [], droppedAttributesCount: 0 };
  const o = object(v);
  return {
    name: at(o, "name", str),
    version: at(o, "version", str),
    attributes: at(o, "attributes", (a) => attributes(a, limits)),
    droppedAttributesCount: at(o, "droppedAttributesCount", uint32),
  };
}

export function schemaUrl(o: Obj): string {
  return at(o, "schemaUrl", str);
}

function event(v: unknown, limits: OtlpLimits): SpanEvent {
  const o = object(v);
  return {
    timeUnixNano: at(o, "timeUnixNano", uint64),
    name: at(o, "name", str),
    attributes: at(o, "attributes", (a) => attributes(a, limits)),
    droppedAttributesCount: at(o, "droppedAttributesCount", uint32),
  };
}

function link(v: unknown, limits: OtlpLimits): SpanLink {
  const o = object(v);
  return {
    traceId: at(o, "traceId", traceIdOf),
    spanId: at(o, "spanId", spanIdOf),
    traceState: at(o, "traceState", str),
    attributes: at(o, "attributes", (a) => attributes(a, limits)),
    droppedAttributesCount: at(o, "droppedAttributesCount", uint32),
    flags: at(o, "flags", uint32),
  };
}

function status(v: unknown): Span["status"] {
  if (v === null || v === undefined) return { code: 0, message: "" };
  const o = object(v);
  return { code: at(o, "code", statusCode), message: at(o, "message", str) };
}

/** One span (ids first: a body of items without them is refused for the price of two reads each). */
export function span(v: unknown, limits: OtlpLimits): Span {
  const o = object(v);
  return {
    traceId: at(o, "traceId", traceIdOf),
    spanId: at(o, "spanId", spanIdOf),
    traceState: at(o, "traceState", str),
    parentSpanId: at(o, "parentSpanId", optionalSpanId),
    flags: at(o, "flags", uint32),
    name: at(o, "name", str),
    kind: at(o, "kind", spanKind),
    startTimeUnixNano: at(o, "startTimeUnixNano", uint64),
    endTimeUnixNano: at(o, "endTimeUnixNano", uint64),
    attributes: at(o, "attributes", (a) => attributes(a, limits)),
    droppedAttributesCount: at(o, "droppedAttributesCount", uint32),
    events: at(o, "events", (e) => each(limited(e, "events", limits), (x) => event(x, limits))),
    droppedEventsCount: at(o, "droppedEventsCount", uint32),
    links: at(o, "links", (l) => each(limited(l, "links", limits), (x) => link(x, limits))),
    droppedLinksCount: at(o, "droppedLinksCount", uint32),
    status: at(o, "status", status),
  };
}

/** One log record. */
export function logRecord(v: unknown, limits: OtlpLimits): LogRecord {
  const o = object(v);
  return {
    timeUnixNano: at(o, "timeUnixNano", uint64),
    observedTimeUnixNano: at(o, "observedTimeUnixNano", uint64),
    severityNumber: at(o, "severityNumber", severity),
    severityText: at(o, "severityText", str),
    body: o["body"] === undefined ? undefined : at(o, "body", (b) => anyValue(b, 1, limits)),
    attributes: at(o, "attributes", (a) => attributes(a, limits)),
    droppedAttributesCount: at(o, "droppedAttributesCount", uint32),
    flags: at(o, "flags", uint32),
    traceId: at(o, "traceId", optionalTraceId),
    spanId: at(o, "spanId", optionalSpanId),
    eventName: at(o, "eventName", str),
  };
}

/** Reads `o[key]` with `read`, naming `key` in a fault's path (for the request's structure). */
export function field<T>(o: Obj, key: string, read: (v: unknown) => T): T {
  return at(o, key, read);
}
