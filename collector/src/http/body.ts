/** Reading a request body within the body limit, and undoing its gzip or deflate encoding. */
import type { IncomingMessage } from "node:http";
import { promisify } from "node:util";
import { gunzip, inflate } from "node:zlib";
import type { BufferPool } from "../buffer-pool.js";
import { CollectorError, OtlpDecodeError, PayloadTooLargeError } from "../errors.js";

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

/** A body as read: its bytes, and `release()` to call once nothing holds a view of them (gives a pooled buffer back). */
export interface ReadBody {
  bytes: Buffer;
  release(): void;
}

const NOTHING_TO_RELEASE = (): void => {};

/**
 * The request body as sent, at most `limit` bytes (413 past it; the rest is read and dropped). With
 * a `pool` and a declared length, a body that arrives in more than one chunk is copied into a
 * buffer of the pool as it comes (no concatenation at the end); `release()` gives that buffer back.
 * A body in one chunk is that chunk.
 */
export function readBody(req: IncomingMessage, limit: number, pool?: BufferPool): Promise<ReadBody> {
  const declared = Number(req.headers["content-length"]);
  const poolable = pool !== undefined && Number.isSafeInteger(declared) && declared > 0 && declared <= limit;
  return new Promise<ReadBody>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let into: Buffer | undefined; // the pool's buffer, once a second chunk came
    const giveBack = (): void => {
      if (into !== undefined) pool?.give(into);
      into = undefined;
    };
    const done = (): void => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer): void => {
      if (length + chunk.length > limit || (into !== undefined && length + chunk.length > into.length)) {
        done();
        giveBack();
        req.resume(); // drain and drop the rest, so the connection can carry the 413
        reject(new PayloadTooLargeError(`request body is over the limit of ${limit} bytes`));
        return;
      }
      if (into === undefined && poolable && length > 0 && length + chunk.length <= declared) {
        // The second chunk: the first one (the only one so far) goes to the pool's buffer, and every later one as it comes.
        into = pool.take(declared);
        chunks[0]!.copy(into, 0);
        chunks.length = 0;
      }
      if (into !== undefined) chunk.copy(into, length);
      else chunks.push(chunk);
      length += chunk.length;
    };
    const onEnd = (): void => {
      done();
      if (into !== undefined) {
        const buf = into;
        into = undefined;
        let released = false;
        resolve({
          bytes: buf.subarray(0, length),
          release: () => {
            if (released) return;
            released = true;
            pool?.give(buf);
          },
        });
        return;
      }
      resolve({ bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length), release: NOTHING_TO_RELEASE });
    };
    const onError = (err: Error): void => {
      done();
      giveBack();
      reject(new OtlpDecodeError("body", `request body could not be read: ${err.message}`, { cause: err }));
    };
    const onAborted = (): void => onError(new Error("the client aborted the request"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}

/** True for the content encodings {@link decompress} undoes (gzip, deflate). */
export function isCompressed(contentEncoding: string): boolean {
  return contentEncoding === "gzip" || contentEncoding === "deflate";
}

/**
 * The body decompressed when `contentEncoding` is gzip or deflate (`onInflated` is told its size
 * and may throw to refuse it), else the body itself. At most `limit` bytes decompressed (413 past it).
 */
export async function decompress(contentEncoding: string, body: Buffer, limit: number, onInflated: (bytes: number) => void): Promise<Buffer> {
  const ce = contentEncoding;
  if (!isCompressed(ce)) return body;
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
