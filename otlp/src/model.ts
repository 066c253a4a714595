/**
 * The OTLP data model as the collector and the scorer see it, whatever the wire format.
 *
 * It follows OTLP/JSON field names, with two normalisations: trace and span ids are lower-case hex
 * strings ("" when absent), and every 64-bit integer (timestamps in Unix nanoseconds, `intValue`)
 * is a `bigint`, so no value ever loses precision.
 */

/** An attribute value: exactly one of the OTLP `AnyValue` fields, or `{}` for an empty value. */
export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: bigint }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } }
  | { kvlistValue: { values: KeyValue[] } }
  | { bytesValue: Uint8Array }
  | Record<string, never>;

/** One attribute. */
export interface KeyValue {
  key: string;
  value: AnyValue;
}

/** Reference from a resource to an entity (OTLP `EntityRef`). */
export interface EntityRef {
  schemaUrl: string;
  type: string;
  idKeys: string[];
  descriptionKeys: string[];
}

/** The entity that produced the telemetry (service name, deployment environment, …). */
export interface Resource {
  attributes: KeyValue[];
  droppedAttributesCount: number;
  entityRefs: EntityRef[];
}

/** The instrumentation library that produced a group of spans or log records. */
export interface InstrumentationScope {
  name: string;
  version: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

/** A time-stamped annotation of a span. `timeUnixNano` is in nanoseconds since the Unix epoch. */
export interface SpanEvent {
  timeUnixNano: bigint;
  name: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

/** A link from a span to another span (ids as lower-case hex). */
export interface SpanLink {
  traceId: string;
  spanId: string;
  traceState: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  flags: number;
}

/** Span status: `code` 0 unset, 1 ok, 2 error. */
export interface SpanStatus {
  code: number;
  message: string;
}

/**
 * One span. `traceId` is 32 and `spanId` 16 lower-case hex digits (never all zeros);
 * `parentSpanId` is 16 hex digits or "" for a root span. Times are Unix nanoseconds.
 * `kind` is the OTLP SpanKind number (0 unspecified … 5 consumer).
 */
export interface Span {
  traceId: string;
  spanId: string;
  traceState: string;
  parentSpanId: string;
  flags: number;
  name: string;
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  events: SpanEvent[];
  droppedEventsCount: number;
  links: SpanLink[];
  droppedLinksCount: number;
  status: SpanStatus;
}

/** Spans of one instrumentation scope. */
export interface ScopeSpans {
  scope: InstrumentationScope;
  spans: Span[];
  schemaUrl: string;
}

/** Spans of one resource. */
export interface ResourceSpans {
  resource: Resource;
  scopeSpans: ScopeSpans[];
  schemaUrl: string;
}

/** OTLP `ExportTraceServiceRequest`. */
export interface TraceRequest {
  resourceSpans: ResourceSpans[];
}

/**
 * One log record (GenAI content events travel as these). `traceId`/`spanId` are lower-case hex or
 * "" when the record is not tied to a span. Times are Unix nanoseconds (0 when unknown).
 */
export interface LogRecord {
  timeUnixNano: bigint;
  observedTimeUnixNano: bigint;
  severityNumber: number;
  severityText: string;
  body?: AnyValue | undefined;
  attributes: KeyValue[];
  droppedAttributesCount: number;
  flags: number;
  traceId: string;
  spanId: string;
  eventName: string;
}

/** Log records of one instrumentation scope. */
export interface ScopeLogs {
  scope: InstrumentationScope;
  logRecords: LogRecord[];
  schemaUrl: string;
}

/** Log records of one resource. */
export interface ResourceLogs {
  resource: Resource;
  scopeLogs: ScopeLogs[];
  schemaUrl: string;
}

/** OTLP `ExportLogsServiceRequest`. */
export interface LogsRequest {
  resourceLogs: ResourceLogs[];
}

/**
 * A decoded request: the valid items, plus how many items were rejected and why (one message per
 * rejected item, naming the field, e.g. `resourceSpans[0].scopeSpans[0].spans[2].traceId: …`; the
 * first 10 only, limits.ts MAX_ERRORS, so a request of a million bad items keeps ten strings).
 */
export interface Decoded<T> {
  request: T;
  /** Number of spans (or log records) left out because they were invalid. */
  rejected: number;
  /** Reasons of the first rejected items (at most 10), in request order. */
  errors: string[];
}

/** Supported OTLP/HTTP body encodings. */
export type OtlpEncoding = "protobuf" | "json";
