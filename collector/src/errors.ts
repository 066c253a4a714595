/**
 * Typed errors of the collector. Each carries the HTTP status it maps to and whether the client
 * may retry the same request later (`retriable`).
 */
export class CollectorError extends Error {
  /** HTTP status the collector answers with when this error ends a request. */
  readonly status: number;
  /** True when sending the same request again later may succeed. */
  readonly retriable: boolean;
  constructor(message: string, status: number, retriable: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.status = status;
    this.retriable = retriable;
  }
}

/** The body cannot be decoded as OTLP, or no item in it is valid (400). `field` names the culprit. */
export class OtlpDecodeError extends CollectorError {
  /** Path of the offending field, e.g. `resourceSpans[0].scopeSpans[0].spans[1].traceId`, or "body". */
  readonly field: string;
  constructor(field: string, detail: string, options?: { cause?: unknown }) {
    super(`${field}: ${detail}`, 400, false, options);
    this.field = field;
  }
}

/** Content type or content encoding the collector does not accept (415). */
export class UnsupportedMediaTypeError extends CollectorError {
  constructor(message: string) {
    super(message, 415, false);
  }
}

/** Body over the configured limit, compressed or after decompression (413). */
export class PayloadTooLargeError extends CollectorError {
  constructor(message: string) {
    super(message, 413, false);
  }
}

/** Missing or wrong bearer token while `RAGMETER_COLLECTOR_TOKEN` is set (401). */
export class UnauthorizedError extends CollectorError {
  constructor(message = "missing or invalid bearer token") {
    super(message, 401, false);
  }
}

/** The in-flight byte budget is used up (429); retry after `retryAfterSeconds`. */
export class OverloadedError extends CollectorError {
  constructor(message: string) {
    super(message, 429, true);
  }
}

/** Kafka did not acknowledge in time or cannot be reached (503); nothing was acknowledged to the client. */
export class KafkaUnavailableError extends CollectorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 503, true, options);
  }
}

/** Invalid configuration (a CLI maps it to exit code 2). `field` names the setting. */
export class CollectorConfigError extends Error {
  readonly issues: string[];
  constructor(issues: string[]) {
    super(`invalid collector configuration: ${issues.join("; ")}`);
    this.name = "CollectorConfigError";
    this.issues = issues;
  }
}
