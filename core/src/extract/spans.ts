import type { AnyValue, KeyValue, LogsRequest, TraceRequest } from "@ragmeter/otlp";

import type { Attrs, AttrValue, StoredLog, StoredSpan } from "../domain/spans.js";
import { incompleteJson } from "./jsonContent.js";

// The stored span and log shapes are domain types (the store reads and writes them); re-exported here.
export type { Attrs, AttrValue, StoredLog, StoredSpan } from "../domain/spans.js";

/** Converts an OTLP AnyValue to a plain value (bytes become base64). */
function plainValue(v: AnyValue | undefined): AttrValue {
  if (v === undefined) return null;
  if ("stringValue" in v) return v.stringValue;
  if ("boolValue" in v) return v.boolValue;
  if ("intValue" in v) return Number.isSafeInteger(Number(v.intValue)) ? Number(v.intValue) : v.intValue.toString();
  if ("doubleValue" in v) return v.doubleValue;
  if ("arrayValue" in v) return v.arrayValue.values.map(plainValue);
  if ("kvlistValue" in v) return plainAttrs(v.kvlistValue.values);
  if ("bytesValue" in v) return Buffer.from(v.bytesValue).toString("base64");
  return null;
}

/** Key-value list to a plain object (a repeated key keeps its last value). */
function plainAttrs(kvs: readonly KeyValue[]): Attrs {
  const out: Attrs = {};
  for (const kv of kvs) out[kv.key] = plainValue(kv.value);
  return out;
}

/** Attributes that should hold JSON content (documents, messages, inputs and outputs). */
const JSON_CONTENT =
  /^(gen_ai\.retrieval\.documents|gen_ai\.input\.messages|gen_ai\.output\.messages|gen_ai\.tool\.call\.result|input\.value|output\.value|traceloop\.entity\.(input|output)|retrieval\.documents\.\d+\.document\.metadata|ai\.toolCall\.result)$/u;

/**
 * Flags JSON-content attributes that do not parse (cut off upstream): their names, sorted, go in
 * `ragmeter.content.unparsed`; the values stay as they came (design §4).
 */
function flagUnparsed(a: Attrs): Attrs {
  const bad = Object.keys(a)
    .filter((k) => JSON_CONTENT.test(k) && incompleteJson(a[k], k) !== null)
    .sort();
  return bad.length === 0 ? a : { ...a, "ragmeter.content.unparsed": bad };
}

/** Flattens an OTLP trace request into stored spans, each with its resource and scope. */
export function spansOf(req: TraceRequest): StoredSpan[] {
  const out: StoredSpan[] = [];
  for (const rs of req.resourceSpans) {
    const resource = plainAttrs(rs.resource.attributes);
    const service = typeof resource["service.name"] === "string" ? resource["service.name"] : "";
    for (const ss of rs.scopeSpans) {
      for (const s of ss.spans) {
        out.push({
          trace_id: s.traceId,
          span_id: s.spanId,
          parent_span_id: s.parentSpanId,
          name: s.name,
          kind: s.kind,
          start_time_unix_nano: s.startTimeUnixNano.toString(),
          end_time_unix_nano: s.endTimeUnixNano.toString(),
          status_code: s.status.code,
          attributes: flagUnparsed(plainAttrs(s.attributes)),
          resource_attributes: resource,
          scope_name: ss.scope.name,
          events: s.events.map((e) => ({ name: e.name, time_unix_nano: e.timeUnixNano.toString(), attributes: plainAttrs(e.attributes) })),
          service_name: service,
        });
      }
    }
  }
  return out;
}

/** Flattens an OTLP logs request into stored log records that are tied to a trace (others are dropped). */
export function logsOf(req: LogsRequest, hash: (s: string) => string): StoredLog[] {
  const out: StoredLog[] = [];
  for (const rl of req.resourceLogs) {
    for (const sl of rl.scopeLogs) {
      for (const r of sl.logRecords) if (r.traceId !== "") out.push(storedLog(r, hash));
    }
  }
  return out;
}

/** One log record as stored: its event name (or `event.name` attribute), time (or observed time), and an id hashed from its content. */
function storedLog(r: LogsRequest["resourceLogs"][number]["scopeLogs"][number]["logRecords"][number], hash: (s: string) => string): StoredLog {
  const attributes = plainAttrs(r.attributes);
  const body = plainValue(r.body);
  const eventName = r.eventName || (typeof attributes["event.name"] === "string" ? attributes["event.name"] : "");
  const time = (r.timeUnixNano || r.observedTimeUnixNano).toString();
  return {
    trace_id: r.traceId,
    span_id: r.spanId,
    record_id: hash(JSON.stringify([r.spanId, eventName, time, body, attributes])),
    event_name: eventName,
    time_unix_nano: time,
    body,
    attributes,
  };
}
