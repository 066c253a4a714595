/**
 * OTLP/JSON → model (the readers are in json-read.ts) and model → OTLP/JSON.
 *
 * OTLP/JSON is the proto3 JSON mapping with hex trace/span ids and integer enums. 64-bit integers
 * may be decimal strings or JSON numbers; numbers of 16 digits or more are read from the source text
 * (never through a float), so `9007199254740993` stays exact.
 */
import { OtlpDecodeError } from "./errors.js";
import { array, Fault, field, logRecord, object, pathOf, resource, schemaUrl, scope, span } from "./json-read.js";
import { DEFAULT_OTLP_LIMITS, keepError, MAX_ERRORS, type OtlpLimits, tooManyItems } from "./limits.js";
import type { AnyValue, Decoded, KeyValue, LogsRequest, TraceRequest } from "./model.js";

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

// ---------- OTLP/JSON → model (json-read.ts) ----------

/** True when `v` is an object whose `key` holds a non-empty array. */
function holds(v: unknown, key: string): boolean {
  if (typeof v !== "object" || v === null) return false;
  const list = (v as Record<string, unknown>)[key];
  return !Array.isArray(list) || list.length > 0; // not an array: read, so its fault is named
}

/**
 * The request's items, counted before any is read: over the limit of one request it is refused
 * whole, and so is a request of more resources and scopes than that. Returns which resources and scopes hold items (the others carry nothing and are not read:
 * a million empty ones cost a loop, not a million resources).
 */
function plan(resources: readonly unknown[], scopesKey: string, itemsKey: string, what: string, limits: OtlpLimits): { resources: boolean[]; scopes: boolean[][] } {
  if (resources.length > limits.maxItems) throw new OtlpDecodeError("body", tooManyItems(resources.length, "resources", limits));
  let n = 0;
  let containers = resources.length;
  const keepR: boolean[] = new Array(resources.length).fill(false);
  const keepS: boolean[][] = new Array(resources.length);
  for (let ri = 0; ri < resources.length; ri++) {
    const r = resources[ri];
    if (typeof r !== "object" || r === null || Array.isArray(r)) {
      keepR[ri] = true; // not an object: read, so its fault is named
      continue;
    }
    const scopes = (r as Record<string, unknown>)[scopesKey];
    if (scopes === undefined || scopes === null) continue;
    if (!Array.isArray(scopes)) {
      keepR[ri] = true;
      continue;
    }
    containers += scopes.length;
    if (containers > limits.maxItems) break;
    const ks: boolean[] = new Array(scopes.length).fill(false);
    for (let si = 0; si < scopes.length; si++) {
      const sc = scopes[si];
      if (typeof sc !== "object" || sc === null || Array.isArray(sc)) {
        ks[si] = true;
        continue;
      }
      const items = (sc as Record<string, unknown>)[itemsKey];
      if (items === undefined || items === null) continue;
      ks[si] = holds(sc, itemsKey);
      if (Array.isArray(items)) n += items.length;
    }
    keepS[ri] = ks;
    keepR[ri] = ks.includes(true);
  }
  if (containers > limits.maxItems) throw new OtlpDecodeError("body", tooManyItems(containers, "resources and scopes", limits));
  if (n > limits.maxItems) throw new OtlpDecodeError("body", tooManyItems(n, what, limits));
  return { resources: keepR, scopes: keepS };
}

/** Runs `read`, turning a fault into an OtlpDecodeError naming its field under `prefix`. */
function structure<T>(prefix: string, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof Fault) throw new OtlpDecodeError(pathOf(prefix, e.path), e.message);
    throw e;
  }
}

/** The items of `raw` that `read` accepts; a rejected one is counted, its reason (`<path>[i].<field>: …`) kept among the first few. */
function keepValid<T>(
  raw: readonly unknown[],
  read: (v: unknown, limits: OtlpLimits) => T,
  limits: OtlpLimits,
  path: string,
  out: { rejected: number; errors: string[] },
  surelyInvalid: (v: unknown) => boolean = () => false,
): T[] {
  const kept: T[] = [];
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i];
    // Once the reasons kept are complete, an item sure to fail is counted without being read (a
    // thrown fault costs more than a body of `{}` items is worth).
    if (out.errors.length >= MAX_ERRORS && surelyInvalid(item)) {
      out.rejected++;
      continue;
    }
    try {
      kept.push(read(item, limits));
    } catch (e) {
      if (!(e instanceof Fault)) throw e;
      out.rejected++;
      keepError(out.errors, () => `${pathOf(`${path}[${i}]`, e.path)}: ${e.message}`);
    }
  }
  return kept;
}

/** A span without a trace id or span id of the right length (read would reject it). */
function spanSurelyInvalid(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return true;
  const o = v as Record<string, unknown>;
  const t = o["traceId"];
  const s = o["spanId"];
  return typeof t !== "string" || t.length !== 32 || typeof s !== "string" || s.length !== 16;
}

/**
 * Decodes an OTLP/JSON `ExportTraceServiceRequest` (text already decompressed), within `limits`.
 * Spans failing validation are rejected one by one (`rejected`), the first reasons kept, each
 * naming the field. Resources and scopes without spans are left out (not read).
 * @throws OtlpDecodeError on malformed JSON, an invalid resource or scope, or more spans than the limit.
 */
export function decodeTraceRequestJson(text: string, limits: OtlpLimits = DEFAULT_OTLP_LIMITS): Decoded<TraceRequest> {
  const top = structure("", () => object(parseJsonExact(text)));
  const resources = structure("", () => field(top, "resourceSpans", array));
  const keep = plan(resources, "scopeSpans", "spans", "spans", limits);
  const out = { rejected: 0, errors: [] as string[] };
  const request: TraceRequest = { resourceSpans: [] };
  resources.forEach((raw, ri) => {
    if (!keep.resources[ri]) return;
    const at = `resourceSpans[${ri}]`;
    const rs = structure(at, () => object(raw));
    const scopes = structure(at, () => field(rs, "scopeSpans", array));
    const scopeSpans: TraceRequest["resourceSpans"][number]["scopeSpans"] = [];
    scopes.forEach((rawScope, si) => {
      if (keep.scopes[ri]?.[si] === false) return;
      const sat = `${at}.scopeSpans[${si}]`;
      const ss = structure(sat, () => object(rawScope));
      const spans = structure(sat, () => field(ss, "spans", array));
      scopeSpans.push({
        scope: structure(sat, () => field(ss, "scope", (v) => scope(v, limits))),
        schemaUrl: structure(sat, () => schemaUrl(ss)),
        spans: keepValid(spans, span, limits, `${sat}.spans`, out, spanSurelyInvalid),
      });
    });
    request.resourceSpans.push({ resource: structure(at, () => field(rs, "resource", (v) => resource(v, limits))), schemaUrl: structure(at, () => schemaUrl(rs)), scopeSpans });
  });
  return { request, rejected: out.rejected, errors: out.errors };
}

/**
 * Decodes an OTLP/JSON `ExportLogsServiceRequest` (text already decompressed), within `limits`.
 * @throws OtlpDecodeError on malformed JSON, an invalid resource or scope, or more log records than the limit.
 */
export function decodeLogsRequestJson(text: string, limits: OtlpLimits = DEFAULT_OTLP_LIMITS): Decoded<LogsRequest> {
  const top = structure("", () => object(parseJsonExact(text)));
  const resources = structure("", () => field(top, "resourceLogs", array));
  const keep = plan(resources, "scopeLogs", "logRecords", "log records", limits);
  const out = { rejected: 0, errors: [] as string[] };
  const request: LogsRequest = { resourceLogs: [] };
  resources.forEach((raw, ri) => {
    if (!keep.resources[ri]) return;
    const at = `resourceLogs[${ri}]`;
    const rl = structure(at, () => object(raw));
    const scopes = structure(at, () => field(rl, "scopeLogs", array));
    const scopeLogs: LogsRequest["resourceLogs"][number]["scopeLogs"] = [];
    scopes.forEach((rawScope, si) => {
      if (keep.scopes[ri]?.[si] === false) return;
      const sat = `${at}.scopeLogs[${si}]`;
      const sl = structure(sat, () => object(rawScope));
      const logs = structure(sat, () => field(sl, "logRecords", array));
      scopeLogs.push({
        scope: structure(sat, () => field(sl, "scope", (v) => scope(v, limits))),
        schemaUrl: structure(sat, () => schemaUrl(sl)),
        logRecords: keepValid(logs, logRecord, limits, `${sat}.logRecords`, out),
      });
    });
    request.resourceLogs.push({ resource: structure(at, () => field(rl, "resource", (v) => resource(v, limits))), schemaUrl: structure(at, () => schemaUrl(rl)), scopeLogs });
  });
  return { request, rejected: out.rejected, errors: out.errors };
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
