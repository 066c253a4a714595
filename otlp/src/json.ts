/**
 * OTLP/JSON → model, validated with zod.
 *
 * OTLP/JSON is the proto3 JSON mapping with hex trace/span ids and integer enums. 64-bit integers
 * may be decimal strings or JSON numbers; numbers of 16 digits or more are read from the source text
 * (never through a float), so `9007199254740993` stays exact.
 */
import * as z from "zod"; // a namespace import lets a bundler drop what is not used (the locales, JSON Schema): collector bundle −430 KiB
import { OtlpDecodeError } from "./errors.js";
import { checkHexId } from "./ids.js";
import { INT64_MAX, INT64_MIN, UINT64_MAX } from "./int64.js";
import type { AnyValue, Decoded, KeyValue, LogRecord, LogsRequest, Span, TraceRequest } from "./model.js";

// ---------- exact JSON parsing ----------

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Wraps integer literals of 16+ digits (outside strings) in quotes so JSON.parse keeps them exact. */
export function quoteLongIntegers(s: string): string {
  let out = "";
  let last = 0;
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 34) {
      // skip a string literal
      let j = i + 1;
      for (;;) {
        const q = s.indexOf('"', j);
        if (q < 0) return s; // unterminated: let JSON.parse report it
        let b = q - 1;
        while (s.charCodeAt(b) === 92) b--;
        if ((q - 1 - b) % 2 === 0) {
          i = q + 1;
          break;
        }
        j = q + 1;
      }
      continue;
    }
    if (c === 45 || isDigit(c)) {
      let j = c === 45 ? i + 1 : i;
      const startDigits = j;
      while (j < n && isDigit(s.charCodeAt(j))) j++;
      const next = s.charCodeAt(j);
      const fractional = next === 46 || next === 101 || next === 69;
      if (!fractional && j - startDigits >= 16) {
        out += `${s.slice(last, i)}"${s.slice(i, j)}"`;
        last = j;
      } else {
        while (j < n) {
          const d = s.charCodeAt(j);
          if (isDigit(d) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) j++;
          else break;
        }
      }
      i = j;
      continue;
    }
    i++;
  }
  return last === 0 ? s : out + s.slice(last);
}

/**
 * Parses JSON keeping integers of 16+ digits exact (as decimal strings).
 * @throws OtlpDecodeError (field "body") on malformed JSON.
 */
export function parseJsonExact(text: string): unknown {
  const src = /\d{16}/.test(text) ? quoteLongIntegers(text) : text;
  try {
    return JSON.parse(src);
  } catch (err) {
    throw new OtlpDecodeError("body", `malformed JSON: ${(err as Error).message}`, { cause: err });
  }
}

// ---------- zod schemas ----------

/** Reads an OTLP/JSON 64-bit integer (decimal string or JSON integer); returns the value or an error text. */
function readInt64(v: unknown, min: bigint, max: bigint, what: string): bigint | string {
  let out: bigint | undefined;
  if (typeof v === "string" && /^-?\d+$/.test(v)) out = BigInt(v);
  else if (typeof v === "number" && Number.isInteger(v)) out = BigInt(v);
  if (out === undefined) return `must be ${what} as a decimal string or a JSON integer, got ${describe(v)}`;
  if (out < min || out > max) return `${out} is out of range for ${what}`;
  return out;
}

function int64(min: bigint, max: bigint, what: string) {
  return z
    .unknown()
    .optional()
    .transform((v, ctx): bigint => {
      if (v === null || v === undefined) return 0n;
      const r = readInt64(v, min, max, what);
      if (typeof r === "string") {
        ctx.addIssue({ code: "custom", message: r });
        return z.NEVER;
      }
      return r;
    });
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
}

const uint64 = int64(0n, UINT64_MAX, "an unsigned 64-bit integer");

const uint32 = z
  .union([z.number().int().min(0).max(0xffffffff), z.string().regex(/^\d+$/).transform(Number)])
  .nullish()
  .transform((v) => v ?? 0)
  .refine((v) => v <= 0xffffffff, "out of range for uint32");

const str = z
  .string()
  .nullish()
  .transform((v) => v ?? "");

function enumNumber(names: readonly string[]) {
  return z
    .union([z.number().int(), z.string()])
    .nullish()
    .transform((v, ctx): number => {
      if (v === null || v === undefined) return 0;
      if (typeof v === "number") return v;
      const i = names.indexOf(v);
      if (i >= 0) return i;
      if (/^-?\d+$/.test(v)) return Number(v);
      ctx.addIssue({ code: "custom", message: `unknown enum value ${JSON.stringify(v)}` });
      return z.NEVER;
    });
}

const SPAN_KINDS = ["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"] as const;
const STATUS_CODES = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"] as const;
const SEVERITIES = [
  "SEVERITY_NUMBER_UNSPECIFIED",
  ...["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"].flatMap((s) => ["", "2", "3", "4"].map((n) => `SEVERITY_NUMBER_${s}${n}`)),
] as const;

function hexId(digits: number) {
  return z
    .unknown()
    .optional()
    .transform((v, ctx): string => {
      if (typeof v !== "string") {
        ctx.addIssue({ code: "custom", message: `must be ${digits} hex digits, got ${describe(v)}` });
        return z.NEVER;
      }
      const c = checkHexId(v, digits);
      if (!c.ok) {
        ctx.addIssue({ code: "custom", message: c.error });
        return z.NEVER;
      }
      return c.hex;
    });
}

function optionalHexId(digits: number) {
  return z
    .unknown()
    .optional()
    .transform((v, ctx): string => {
      if (v === undefined || v === null || v === "") return "";
      if (typeof v === "string" && v.length === digits && /^0+$/.test(v)) return "";
      if (typeof v !== "string") {
        ctx.addIssue({ code: "custom", message: `must be ${digits} hex digits or empty, got ${describe(v)}` });
        return z.NEVER;
      }
      const c = checkHexId(v, digits);
      if (!c.ok) {
        ctx.addIssue({ code: "custom", message: c.error });
        return z.NEVER;
      }
      return c.hex;
    });
}

const double = z.union([
  z.number(),
  z.enum(["NaN", "Infinity", "-Infinity"]).transform(Number),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/)
    .transform(Number),
]);
const base64 = z
  .string()
  .regex(/^[A-Za-z0-9+/_-]*={0,2}$/, "must be base64")
  .transform((s) => new Uint8Array(Buffer.from(s, "base64")));

type AnyValueIn = {
  stringValue?: string | null | undefined;
  boolValue?: boolean | null | undefined;
  intValue?: unknown;
  doubleValue?: unknown;
  arrayValue?: unknown;
  kvlistValue?: unknown;
  bytesValue?: unknown;
};

const anyValue: z.ZodType<AnyValue, unknown> = z.lazy(() =>
  z
    .object({
      stringValue: z.string().nullish(),
      boolValue: z.boolean().nullish(),
      intValue: z.unknown().optional(),
      doubleValue: double.nullish(),
      arrayValue: z.object({ values: z.array(anyValue).nullish() }).nullish(),
      kvlistValue: z.object({ values: z.array(keyValue).nullish() }).nullish(),
      bytesValue: base64.nullish(),
    })
    .nullish()
    .transform((v, ctx): AnyValue => {
      if (!v) return {};
      const set = (Object.keys(v) as (keyof AnyValueIn)[]).filter((k) => v[k] !== undefined && v[k] !== null);
      if (set.length > 1) {
        ctx.addIssue({ code: "custom", message: `an AnyValue holds exactly one of its fields, got ${set.join(", ")}` });
        return z.NEVER;
      }
      if (typeof v.stringValue === "string") return { stringValue: v.stringValue };
      if (typeof v.boolValue === "boolean") return { boolValue: v.boolValue };
      if (v.intValue !== undefined && v.intValue !== null) {
        const r = readInt64(v.intValue, INT64_MIN, INT64_MAX, "a signed 64-bit integer");
        if (typeof r === "string") {
          ctx.addIssue({ code: "custom", path: ["intValue"], message: r });
          return z.NEVER;
        }
        return { intValue: r };
      }
      if (typeof v.doubleValue === "number") return { doubleValue: v.doubleValue };
      if (v.arrayValue) return { arrayValue: { values: v.arrayValue.values ?? [] } };
      if (v.kvlistValue) return { kvlistValue: { values: v.kvlistValue.values ?? [] } };
      if (v.bytesValue) return { bytesValue: v.bytesValue };
      return {};
    }),
);

const keyValue: z.ZodType<KeyValue, unknown> = z.lazy(() => z.object({ key: z.string(), value: anyValue }).transform((kv) => ({ key: kv.key, value: kv.value })));

const attributes = z
  .array(keyValue)
  .nullish()
  .transform((v) => v ?? []);

const resource = z
  .object({
    attributes,
    droppedAttributesCount: uint32,
    entityRefs: z
      .array(
        z.object({
          schemaUrl: str,
          type: str,
          idKeys: z
            .array(z.string())
            .nullish()
            .transform((v) => v ?? []),
          descriptionKeys: z
            .array(z.string())
            .nullish()
            .transform((v) => v ?? []),
        }),
      )
      .nullish()
      .transform((v) => v ?? []),
  })
  .nullish()
  .transform((r) => r ?? { attributes: [], droppedAttributesCount: 0, entityRefs: [] });

const scope = z
  .object({ name: str, version: str, attributes, droppedAttributesCount: uint32 })
  .nullish()
  .transform((s) => s ?? { name: "", version: "", attributes: [], droppedAttributesCount: 0 });

const spanSchema: z.ZodType<Span, unknown> = z.object({
  traceId: hexId(32),
  spanId: hexId(16),
  traceState: str,
  parentSpanId: optionalHexId(16),
  flags: uint32,
  name: str,
  kind: enumNumber(SPAN_KINDS),
  startTimeUnixNano: uint64,
  endTimeUnixNano: uint64,
  attributes,
  droppedAttributesCount: uint32,
  events: z
    .array(z.object({ timeUnixNano: uint64, name: str, attributes, droppedAttributesCount: uint32 }))
    .nullish()
    .transform((v) => v ?? []),
  droppedEventsCount: uint32,
  links: z
    .array(z.object({ traceId: hexId(32), spanId: hexId(16), traceState: str, attributes, droppedAttributesCount: uint32, flags: uint32 }))
    .nullish()
    .transform((v) => v ?? []),
  droppedLinksCount: uint32,
  status: z
    .object({ code: enumNumber(STATUS_CODES), message: str })
    .nullish()
    .transform((s) => s ?? { code: 0, message: "" }),
});

const logRecordSchema: z.ZodType<LogRecord, unknown> = z.object({
  timeUnixNano: uint64,
  observedTimeUnixNano: uint64,
  severityNumber: enumNumber(SEVERITIES),
  severityText: str,
  body: anyValue.optional(),
  attributes,
  droppedAttributesCount: uint32,
  flags: uint32,
  traceId: optionalHexId(32),
  spanId: optionalHexId(16),
  eventName: str,
});

const items = z
  .array(z.unknown())
  .nullish()
  .transform((v) => v ?? []);

const traceRequestSchema = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource,
        schemaUrl: str,
        scopeSpans: z
          .array(z.object({ scope, schemaUrl: str, spans: items }))
          .nullish()
          .transform((v) => v ?? []),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
});

const logsRequestSchema = z.object({
  resourceLogs: z
    .array(
      z.object({
        resource,
        schemaUrl: str,
        scopeLogs: z
          .array(z.object({ scope, schemaUrl: str, logRecords: items }))
          .nullish()
          .transform((v) => v ?? []),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
});

/** Formats a zod issue path as `a[0].b.c`, under `prefix`. */
function pathOf(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out === "" ? String(p) : `.${String(p)}`;
  return out === "" ? "body" : out;
}

function firstIssue(err: z.ZodError, prefix: string): { field: string; message: string } {
  const issue = err.issues[0];
  if (!issue) return { field: prefix || "body", message: "invalid" };
  return { field: pathOf(prefix, issue.path), message: issue.message };
}

function parseTop<T>(schema: z.ZodType<T, unknown>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) {
    const i = firstIssue(r.error, "");
    throw new OtlpDecodeError(i.field, i.message);
  }
  return r.data;
}

/**
 * The items of `raw` that pass `schema`; each rejected one adds a message naming its field
 * (`<path>[i].<field>: …`) to `errors`.
 */
function keepValid<T>(raw: readonly unknown[], schema: z.ZodType<T, unknown>, path: string, errors: string[]): T[] {
  const kept: T[] = [];
  raw.forEach((item, i) => {
    const r = schema.safeParse(item);
    if (r.success) kept.push(r.data);
    else {
      const issue = firstIssue(r.error, `${path}[${i}]`);
      errors.push(`${issue.field}: ${issue.message}`);
    }
  });
  return kept;
}

/**
 * Decodes an OTLP/JSON `ExportTraceServiceRequest` (text already decompressed).
 * Spans failing validation are rejected one by one with a message naming the field.
 * @throws OtlpDecodeError on malformed JSON or an invalid resource or scope.
 */
export function decodeTraceRequestJson(text: string): Decoded<TraceRequest> {
  const top = parseTop(traceRequestSchema, parseJsonExact(text));
  const errors: string[] = [];
  const request: TraceRequest = {
    resourceSpans: top.resourceSpans.map((rs, ri) => ({
      resource: rs.resource,
      schemaUrl: rs.schemaUrl,
      scopeSpans: rs.scopeSpans.map((ss, si) => {
        const spans = keepValid(ss.spans, spanSchema, `resourceSpans[${ri}].scopeSpans[${si}].spans`, errors);
        return { scope: ss.scope, schemaUrl: ss.schemaUrl, spans };
      }),
    })),
  };
  return { request, rejected: errors.length, errors };
}

/**
 * Decodes an OTLP/JSON `ExportLogsServiceRequest` (text already decompressed).
 * @throws OtlpDecodeError on malformed JSON or an invalid resource or scope.
 */
export function decodeLogsRequestJson(text: string): Decoded<LogsRequest> {
  const top = parseTop(logsRequestSchema, parseJsonExact(text));
  const errors: string[] = [];
  const request: LogsRequest = {
    resourceLogs: top.resourceLogs.map((rl, ri) => ({
      resource: rl.resource,
      schemaUrl: rl.schemaUrl,
      scopeLogs: rl.scopeLogs.map((sl, si) => {
        const logRecords = keepValid(sl.logRecords, logRecordSchema, `resourceLogs[${ri}].scopeLogs[${si}].logRecords`, errors);
        return { scope: sl.scope, schemaUrl: sl.schemaUrl, logRecords };
      }),
    })),
  };
  return { request, rejected: errors.length, errors };
}

// ---------- model → OTLP/JSON (for tests, tools and JSON responses) ----------

function anyToJson(v: AnyValue): unknown {
  if ("stringValue" in v) return { stringValue: v.stringValue };
  if ("intValue" in v) return { intValue: v.intValue.toString() };
  if ("boolValue" in v) return { boolValue: v.boolValue };
  if ("doubleValue" in v) return { doubleValue: Number.isFinite(v.doubleValue) ? v.doubleValue : String(v.doubleValue) };
  if ("arrayValue" in v) return { arrayValue: { values: v.arrayValue.values.map(anyToJson) } };
  if ("kvlistValue" in v) return { kvlistValue: { values: v.kvlistValue.values.map(kvToJson) } };
  if ("bytesValue" in v) return { bytesValue: Buffer.from(v.bytesValue).toString("base64") };
  return {};
}

function kvToJson(kv: KeyValue): unknown {
  return { key: kv.key, value: anyToJson(kv.value) };
}

/** Replacer turning bigints into decimal strings and byte arrays into base64 (proto3 JSON). */
function jsonReplacer(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** Encodes a trace request as OTLP/JSON text (64-bit integers as decimal strings). */
export function encodeTraceRequestJson(req: TraceRequest): string {
  return JSON.stringify(
    {
      resourceSpans: req.resourceSpans.map((rs) => ({
        resource: { ...rs.resource, attributes: rs.resource.attributes.map(kvToJson) },
        schemaUrl: rs.schemaUrl,
        scopeSpans: rs.scopeSpans.map((ss) => ({
          scope: { ...ss.scope, attributes: ss.scope.attributes.map(kvToJson) },
          schemaUrl: ss.schemaUrl,
          spans: ss.spans.map((s) => ({
            ...s,
            attributes: s.attributes.map(kvToJson),
            events: s.events.map((e) => ({ ...e, attributes: e.attributes.map(kvToJson) })),
            links: s.links.map((l) => ({ ...l, attributes: l.attributes.map(kvToJson) })),
          })),
        })),
      })),
    },
    jsonReplacer,
  );
}

/** Encodes a logs request as OTLP/JSON text (64-bit integers as decimal strings). */
export function encodeLogsRequestJson(req: LogsRequest): string {
  return JSON.stringify(
    {
      resourceLogs: req.resourceLogs.map((rl) => ({
        resource: { ...rl.resource, attributes: rl.resource.attributes.map(kvToJson) },
        schemaUrl: rl.schemaUrl,
        scopeLogs: rl.scopeLogs.map((sl) => ({
          scope: { ...sl.scope, attributes: sl.scope.attributes.map(kvToJson) },
          schemaUrl: sl.schemaUrl,
          logRecords: sl.logRecords.map((l) => ({
            ...l,
            body: l.body === undefined ? undefined : anyToJson(l.body),
            attributes: l.attributes.map(kvToJson),
          })),
        })),
      })),
    },
    jsonReplacer,
  );
}
