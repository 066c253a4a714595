/** A plain attribute value: 64-bit integers become numbers when exact, else decimal strings. */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };

/** Attributes as a plain object. */
export type Attrs = Record<string, AttrValue>;

/** A span as the scorer stores and reads it (table `spans`). Times are Unix nanoseconds as decimal strings. */
export interface StoredSpan {
  readonly trace_id: string;
  readonly span_id: string;
  readonly parent_span_id: string;
  readonly name: string;
  readonly kind: number;
  readonly start_time_unix_nano: string;
  readonly end_time_unix_nano: string;
  readonly status_code: number;
  readonly attributes: Attrs;
  readonly resource_attributes: Attrs;
  readonly scope_name: string;
  readonly events: readonly { name: string; time_unix_nano: string; attributes: Attrs }[];
  readonly service_name: string;
}

/** An OTLP log record as the scorer stores it (table `logs`), e.g. a GenAI content event. */
export interface StoredLog {
  readonly trace_id: string;
  readonly span_id: string;
  /** Content hash of the record: a re-sent record maps to the same key. */
  readonly record_id: string;
  readonly event_name: string;
  readonly time_unix_nano: string;
  readonly body: AttrValue;
  readonly attributes: Attrs;
}
