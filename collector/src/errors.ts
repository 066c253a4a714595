import { type OtlpError, UnsupportedMediaTypeError } from "@ragmeter/otlp";
import { type ErrorCode, RagmeterError } from "@ragmeter/runtime";

export { OtlpDecodeError, OtlpError, UnsupportedMediaTypeError } from "@ragmeter/otlp";

/**
 * Typed errors of the collector. Each carries the HTTP status it maps to and whether the client
 * may retry the same request later (`retriable`); the code follows the status (4xx: `input`, 5xx: `unavailable`).
 */
export class CollectorError extends RagmeterError {
  /** HTTP status the collector answers with when this error ends a request. */
  readonly status: number;
  constructor(message: string, status: number, retriable: boolean, options?: { cause?: unknown; code?: ErrorCode }) {
    super(message, { code: options?.code ?? (status >= 500 ? "unavailable" : "input"), retriable, cause: options?.cause });
    this.status = status;
  }
}

/**
 * The HTTP answer to an error of the OTLP codecs (@ragmeter/otlp): 400 for a body that cannot be
 * decoded (or whose items are all invalid), 415 for a content type or encoding it does not read.
 */
export function fromOtlpError(err: OtlpError): CollectorError {
  return new CollectorError(err.message, err instanceof UnsupportedMediaTypeError ? 415 : 400, false, { cause: err });
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
    super(message, 429, true, { code: "unavailable" });
  }
}

/** Kafka did not acknowledge in time or cannot be reached (503); nothing was acknowledged to the client. */
export class KafkaUnavailableError extends CollectorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 503, true, options);
  }
}

/** The collector's topic does not exist and it may not create it (503); names the topic. */
export class TopicMissingError extends KafkaUnavailableError {
  readonly topic: string;
  constructor(topic: string) {
    super(`Kafka topic "${topic}" does not exist; waiting for it to be created (or set RAGMETER_KAFKA_CREATE_TOPICS=true)`);
    this.topic = topic;
  }
}

/** Invalid configuration (a CLI maps it to exit code 2). `field` names the setting. */
export class CollectorConfigError extends RagmeterError {
  override readonly name = "CollectorConfigError";
  readonly issues: string[];
  constructor(issues: string[]) {
    super(`invalid collector configuration: ${issues.join("; ")}`, { code: "config" });
    this.issues = issues;
  }
}
