/**
 * Limits that bound the work of decoding one export request (or one Kafka record), whatever it
 * holds (issue 39): a request over `maxItems` is refused whole; a span or log record over another
 * limit is rejected alone, with the reason, as one with a bad id is. The settings of the catalog
 * (@ragmeter/runtime, design §10) carry them; the defaults are far above the OpenTelemetry SDKs'
 * own limits (128 attributes, events and links per span), so no real request meets them.
 */

export interface OtlpLimits {
  /** Spans, or log records, in one request (`RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST`). */
  readonly maxItems: number;
  /**
   * Attributes of one span, event, link, log record, resource or scope, entries of one array or
   * map value, and events or links of one span (`RAGMETER_OTLP_MAX_ATTRIBUTES`).
   */
  readonly maxAttributes: number;
  /** UTF-8 bytes of one string value (attribute, log body) or bytes of one bytes value (`RAGMETER_OTLP_MAX_VALUE_BYTES`). */
  readonly maxValueBytes: number;
  /** Levels of one attribute value or log body: 1 for a scalar, 2 for an array or map of scalars, … (`RAGMETER_OTLP_MAX_VALUE_DEPTH`). */
  readonly maxDepth: number;
}

/**
 * The protobuf decoder's own bound: 100 message levels, which a span's attribute reaches with 31
 * maps in maps (depth 32). A larger `maxDepth` would only be met by JSON bodies.
 */
export const MAX_VALUE_DEPTH = 32;

/** The defaults of the settings (the catalog's, runtime/src/settings/catalog.ts, are the same numbers). */
export const DEFAULT_OTLP_LIMITS: OtlpLimits = Object.freeze({
  maxItems: 100_000,
  maxAttributes: 10_000,
  maxValueBytes: 8 * 1024 * 1024,
  maxDepth: MAX_VALUE_DEPTH,
});

/** Reasons kept per request (the rest are counted): enough for the answer's summary. */
export const MAX_ERRORS = 10;

/** Adds `error` to `errors` while fewer than {@link MAX_ERRORS} are kept. */
export function keepError(errors: string[], error: string | (() => string)): void {
  if (errors.length < MAX_ERRORS) errors.push(typeof error === "string" ? error : error());
}

/** The refusal of a request over the limit of items; `count` may be a lower bound ("more than 100000"). */
export function tooManyItems(count: number | string, what: string, limits: OtlpLimits): string {
  return `${count} ${what} in one request, over the limit of ${limits.maxItems} (RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST)`;
}

export function tooManyEntries(count: number, what: string, limits: OtlpLimits): string {
  return `${count} ${what}, over the limit of ${limits.maxAttributes} (RAGMETER_OTLP_MAX_ATTRIBUTES)`;
}

export function tooDeep(limits: OtlpLimits): string {
  return `value nested deeper than ${limits.maxDepth} levels (RAGMETER_OTLP_MAX_VALUE_DEPTH)`;
}

export function tooLong(bytes: number, limits: OtlpLimits): string {
  return `value of ${bytes} bytes, over the limit of ${limits.maxValueBytes} (RAGMETER_OTLP_MAX_VALUE_BYTES)`;
}
