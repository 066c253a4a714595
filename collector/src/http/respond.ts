/** Writing responses: a whole body at once, errors as google.rpc.Status in the request's encoding. */
import type { ServerResponse } from "node:http";
import { CONTENT_TYPES, encodeErrorStatus, type OtlpEncoding } from "@ragmeter/otlp";
import type { CollectorError } from "../errors.js";

export const JSON_TYPE = "application/json; charset=utf-8";

/** gRPC status codes used in google.rpc.Status error bodies, by HTTP status. */
const GRPC_CODE: Record<number, number> = { 400: 3, 401: 16, 413: 8, 415: 3, 429: 8, 500: 13, 503: 14 };

/** The gRPC code of an HTTP status (2, UNKNOWN, for any other). */
export function grpcCodeOf(status: number): number {
  return GRPC_CODE[status] ?? 2;
}

export interface Responder {
  /** Writes a whole response (once; nothing if the client is gone). While closing, the connection closes after it. */
  send(res: ServerResponse, status: number, contentType: string, body: Uint8Array | string, extra?: Record<string, string>): void;
  /** Writes `err` as a google.rpc.Status; 429 and 503 carry Retry-After. */
  sendError(res: ServerResponse, encoding: OtlpEncoding, err: CollectorError): void;
}

export function createResponder(closing: () => boolean, retryAfterSeconds: number): Responder {
  // The status line and headers go to writeHead as one flat list (Node then formats them once, with
  // no per-header setHeader), and an empty body as end() alone: the answer leaves in one socket write.
  const send: Responder["send"] = (res, status, contentType, body, extra) => {
    if (res.headersSent || res.destroyed) return;
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
    const headers = ["content-type", contentType, "content-length", String(bytes.length)];
    if (extra) for (const k of Object.keys(extra)) headers.push(k, extra[k] as string);
    if (closing()) headers.push("connection", "close");
    res.writeHead(status, headers);
    if (bytes.length === 0) res.end();
    else res.end(bytes);
  };
  return {
    send,
    sendError(res, encoding, err) {
      const extra = err.status === 429 || err.status === 503 ? { "retry-after": String(retryAfterSeconds) } : undefined;
      send(res, err.status, CONTENT_TYPES[encoding], encodeErrorStatus(encoding, grpcCodeOf(err.status), err.message), extra);
    },
  };
}
