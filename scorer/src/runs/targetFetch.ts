import { type Dispatcher, getGlobalDispatcher, interceptors, request } from "undici";

/** Redirects followed per request (undici 7 moved redirects from a request option to an interceptor). */
const MAX_REDIRECTIONS = 20;
/** undici's keep-alive pool with redirects followed (a thin wrapper: the pool's connections are shared). */
function dispatcher(): Dispatcher {
  return getGlobalDispatcher().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }));
}

/**
 * Largest reply read from a target, bytes (issue 39): past it the request is a `target_error` and
 * the rest is not read, so a target that streams without end (or a 10 GB reply) costs a bounded
 * amount of memory and time. A RAG reply of 64 MiB already holds thousands of full chunks.
 */
const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** What {@link fetchTargetText} sends: method, headers and an optional body. */
export interface TargetRequestInit {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** A target's body as text, or why there is none (`target_error`). */
export type TargetText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** {@link TargetText} with the request's own time, ms (from sending it to the body's end). */
export type TimedTargetText = TargetText & { readonly latency_ms: number };

/**
 * One request to a target and its body as text: a network error, a timeout, an unreadable body, a
 * body over `maxBytes`, an HTTP error status or `cancel` aborted comes back as `{ok: false, reason}`
 * (the error body's first `bodyStart` characters).
 * Sent with undici's `request` (keep-alive pool, no WHATWG streams): for `eval` the client side of a
 * question costs a fraction of `fetch`'s CPU and garbage (issue 12). Imports undici alone, so the
 * target client thread ({@link ./targetClient.ts}) starts in a few tens of ms.
 */
export async function fetchTargetText(
  url: string | URL,
  init: TargetRequestInit,
  timeoutMs: number,
  bodyStart = 200,
  cancel?: AbortSignal,
  maxBytes = MAX_REPLY_BYTES,
): Promise<TargetText> {
  if (cancel?.aborted) return { ok: false, reason: CANCELLED };
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = cancel !== undefined ? AbortSignal.any([timeout, cancel]) : timeout;
  const timedOut = (err: unknown): boolean => timeout.aborted || (err as Error | undefined)?.name === "TimeoutError";
  const why = (err: unknown, otherwise: string): string => (cancel?.aborted ? CANCELLED : timedOut(err) ? `timeout after ${timeoutMs} ms` : otherwise);
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method: init.method as Dispatcher.HttpMethod,
      headers: { ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
      signal,
      dispatcher: dispatcher(),
    });
  } catch (err) {
    const e = err as Error;
    return { ok: false, reason: why(err, `request failed: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}`) };
  }
  let text: string;
  try {
    const read = await readBody(res, maxBytes);
    if (!read.ok) return read;
    text = read.text;
  } catch (err) {
    return { ok: false, reason: why(err, `reading the body failed: ${(err as Error).message}`) };
  }
  if (res.statusCode < 200 || res.statusCode > 299) return { ok: false, reason: `HTTP ${res.statusCode}${text ? `: ${text.slice(0, bodyStart)}` : ""}` };
  return { ok: true, text };
}

/** A reply's body as UTF-8 text; over `maxBytes` (declared, or read so far) it is dropped, unread. */
async function readBody(res: Dispatcher.ResponseData, maxBytes: number): Promise<TargetText> {
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.body.destroy();
    return { ok: false, reason: `reply of ${declared} bytes is over the limit of ${maxBytes} bytes` };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) {
      res.body.destroy();
      return { ok: false, reason: `reply over the limit of ${maxBytes} bytes (the rest not read)` };
    }
    chunks.push(chunk);
  }
  return { ok: true, text: Buffer.concat(chunks, bytes).toString("utf8") };
}

/** The reason of a request cancelled by its caller (the run it belongs to failed). */
export const CANCELLED = "cancelled: the run stopped";

/**
 * {@link fetchTargetText}, timed; never rejects (an unexpected error is a reason too, so a caller
 * waiting for the answer always gets one).
 */
export async function fetchTimedTargetText(url: string | URL, init: TargetRequestInit, timeoutMs: number, bodyStart = 200, cancel?: AbortSignal): Promise<TimedTargetText> {
  const t0 = performance.now();
  const got = await fetchTargetText(url, init, timeoutMs, bodyStart, cancel).catch(
    (err: unknown): TargetText => ({ ok: false, reason: `request failed: ${(err as Error).message}` }),
  );
  return { ...got, latency_ms: performance.now() - t0 };
}
