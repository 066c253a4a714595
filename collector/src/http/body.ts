/** Reading a request body within the body limit, and undoing its gzip or deflate encoding. */
import type { IncomingMessage } from "node:http";
import { promisify } from "node:util";
import { gunzip, inflate } from "node:zlib";
import { CollectorError, OtlpDecodeError, PayloadTooLargeError } from "../errors.js";

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

/** The request body as sent, at most `limit` bytes (413 past it; the rest is read and dropped). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const done = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer): void => {
      length += chunk.length;
      if (length > limit) {
        done();
        req.resume(); // drain and drop the rest, so the connection can carry the 413
        reject(new PayloadTooLargeError(`request body is over the limit of ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length));
    };
    const onError = (err: Error): void => {
      done();
      reject(new OtlpDecodeError("body", `request body could not be read: ${err.message}`, { cause: err }));
    };
    const onAborted = (): void => onError(new Error("the client aborted the request"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}

/**
 * The body decompressed when `contentEncoding` is gzip or deflate (`onInflated` is told its size
 * and may throw to refuse it), else the body itself. At most `limit` bytes decompressed (413 past it).
 */
export async function decompress(contentEncoding: string, body: Buffer, limit: number, onInflated: (bytes: number) => void): Promise<Buffer> {
  const ce = contentEncoding;
  if (ce !== "gzip" && ce !== "deflate") return body;
  try {
    const out = await (ce === "gzip" ? gunzipAsync : inflateAsync)(body, { maxOutputLength: limit });
    onInflated(out.length);
    return out;
  } catch (err) {
    if (err instanceof CollectorError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError) {
      throw new PayloadTooLargeError(`decompressed body is over the limit of ${limit} bytes`);
    }
    throw new OtlpDecodeError("body", `not valid ${ce} data: ${(err as Error).message}`, { cause: err });
  }
}
