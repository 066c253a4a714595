import { RagmeterError } from "@ragmeter/runtime";

/**
 * Typed errors of the OTLP codecs (code `input`, not retriable: the same body fails the same way). They say what is wrong with a body; the receiver maps them to
 * its HTTP answer (OTLP/HTTP: 400 for a body that cannot be decoded, 415 for a media type).
 */
export class OtlpError extends RagmeterError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "input", cause: options?.cause });
  }
}

/** The body cannot be decoded as OTLP, or no item in it is valid. `field` names the culprit. */
export class OtlpDecodeError extends OtlpError {
  /** Path of the offending field, e.g. `resourceSpans[0].scopeSpans[0].spans[1].traceId`, or "body". */
  readonly field: string;
  constructor(field: string, detail: string, options?: { cause?: unknown }) {
    super(`${field}: ${detail}`, options);
    this.field = field;
  }
}

/** A content type the codecs do not read. */
export class UnsupportedMediaTypeError extends OtlpError {}
