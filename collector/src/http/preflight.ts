/** Checks of a request before its body is read: bearer token, content type, content encoding, declared length. */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { encodingOf, type OtlpEncoding } from "@ragmeter/otlp";
import { PayloadTooLargeError, UnauthorizedError, UnsupportedMediaTypeError } from "../errors.js";

/** Bytes reserved for a body of unknown length (at most the body limit). */
const UNKNOWN_LENGTH_RESERVE = 64 * 1024;

function digest(s: string): Buffer {
  return createHash("sha256").update(s, "utf8").digest();
}

/** The expected Authorization header's digest for `token` (undefined: no token required). */
export function expectedAuthorization(token: string | undefined): Buffer | undefined {
  return token === undefined ? undefined : digest(`Bearer ${token}`);
}

/** The Content-Encoding, lower case and trimmed ("identity" when absent). */
export function contentEncodingOf(headers: IncomingHttpHeaders): string {
  return (headers["content-encoding"] ?? "identity").toLowerCase().trim();
}

/** The request's encoding from its Content-Type, JSON when it names none (for the error body). */
export function guessEncoding(headers: IncomingHttpHeaders): OtlpEncoding {
  try {
    return encodingOf(headers["content-type"]);
  } catch {
    return "json";
  }
}

/**
 * Checks token, content type and encoding, and the declared length.
 * @returns the bytes to reserve in the in-flight budget before reading the body
 * @throws UnauthorizedError (401), an OTLP content-type error (415), UnsupportedMediaTypeError (415), PayloadTooLargeError (413)
 */
export function preflight(headers: IncomingHttpHeaders, expectedToken: Buffer | undefined, bodyLimitBytes: number): number {
  if (expectedToken) {
    // The auth scheme is case-insensitive (RFC 9110 §11.1); the token is compared as sent.
    const got = digest((headers.authorization ?? "").replace(/^bearer(?= )/iu, "Bearer"));
    if (!timingSafeEqual(got, expectedToken)) throw new UnauthorizedError("missing or invalid bearer token in the Authorization header");
  }
  encodingOf(headers["content-type"]);
  const ce = contentEncodingOf(headers);
  if (ce !== "identity" && ce !== "gzip" && ce !== "deflate" && ce !== "") {
    throw new UnsupportedMediaTypeError(`unsupported content encoding ${JSON.stringify(ce)}: send gzip or identity`);
  }
  const declared = Number(headers["content-length"]);
  if (Number.isFinite(declared) && declared > bodyLimitBytes) {
    throw new PayloadTooLargeError(`request body of ${declared} bytes is over the limit of ${bodyLimitBytes} bytes`);
  }
  return Number.isFinite(declared) && declared > 0 ? declared : Math.min(bodyLimitBytes, UNKNOWN_LENGTH_RESERVE);
}
