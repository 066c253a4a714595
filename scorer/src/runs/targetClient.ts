import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { RagmeterError } from "@ragmeter/runtime";
import { CANCELLED, fetchTimedTargetText, type TargetRequestInit, type TimedTargetText } from "./targetFetch.js";
import type { FromTargetThread, TargetCall, ToTargetThread } from "./targetWorker.js";

/** How a target's HTTP requests are sent. */
export interface TargetClient {
  /**
   * Requests this client runs at once, queuing the others; null: every request at once. A caller may
   * hand a client with a bound more questions than it wants in flight (eval asks ahead).
   */
  readonly inFlight: number | null;
  /** Settles once the client sends from where it will (its thread loaded); resolved at once for the inline client. */
  readonly ready: Promise<void>;
  /**
   * One request, its body as text, timed from sending to the body's end (queueing left out).
   * `cancel` aborted: the request is dropped if not sent yet, ended if it is; the call settles with
   * the reason {@link CANCELLED} or rejects with a {@link TargetClientError}.
   */
  fetchText(url: string | URL, init: TargetRequestInit, timeoutMs: number, bodyStart?: number, cancel?: AbortSignal): Promise<TimedTargetText>;
  /** Stops the client (its thread); calls after it fail. */
  close(): Promise<void>;
}

/** The target client thread failed (it exited or threw): the calls it held cannot be answered. */
export class TargetClientError extends RagmeterError {
  override readonly name = "TargetClientError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "internal", cause: options?.cause, named: true });
  }
}

/** Requests on the calling thread, all at once (replay, tests, in-process callers). */
export function inlineTargetClient(): TargetClient {
  return {
    inFlight: null,
    ready: Promise.resolve(),
    fetchText: (url, init, timeoutMs, bodyStart = 200, cancel) => fetchTimedTargetText(url, init, timeoutMs, bodyStart, cancel),
    close: async () => {},
  };
}

/** The compiled worker: next to this module, or in `dist/` when this module runs from `src/` (tests). */
function workerEntry(): URL {
  const here = new URL("./targetWorker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const built = new URL("../../dist/runs/targetWorker.js", import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new TargetClientError(`the target client thread's module is not built (${fileURLToPath(here)}); run npm run build`);
}

/**
 * Requests on a thread of their own, `concurrency` at once, the rest queued there (issue 12): an
 * answer arriving while the main thread judges or stores the ones before it no longer waits for
 * that work before the next question goes out, so the target is kept at `concurrency` questions as
 * by a bare client. Until the thread has loaded (≈ 70 ms) the first requests go out from the
 * calling thread; the thread then gets the rest of the `concurrency`, and each such request's place
 * once it is answered. The thread holds the process open while it loads and while requests are
 * pending.
 */
export function threadTargetClient(concurrency: number): TargetClient {
  const width = Math.max(1, Math.floor(concurrency));
  // A small young generation: the thread's garbage is a few strings per request (20,000 questions: peak RSS 430 → 406 MiB).
  const worker = new Worker(workerEntry(), { resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  type Call = {
    readonly call: TargetCall;
    readonly resolve: (got: TimedTargetText) => void;
    readonly reject: (err: Error) => void;
    readonly cancel: AbortSignal | undefined;
    readonly onCancel: () => void;
  };
  // Calls not answered yet: sent to the thread, or waiting for it to load (`early`), or inline.
  const pending = new Map<number, Call>();
  const early: Call[] = [];
  const inline = new Set<number>();
  let threadReady = false;
  let next = 0;
  let broken: TargetClientError | null = null;
  let closed = false;
  let markReady: () => void = () => {};
  let markFailed: (err: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  // Observed by whoever waits for it; this keeps a failed start from being unhandled meanwhile.
  ready.catch(() => undefined);
  const send = (m: ToTargetThread): void => worker.postMessage(m);
  // Held open while loading (a caller may be waiting for `ready` with nothing else pending) and while calls are pending.
  const hold = (): void => {
    if (threadReady && pending.size === 0) worker.unref();
    else worker.ref();
  };
  const settle = (id: number): Call | undefined => {
    const c = pending.get(id);
    if (c === undefined) return undefined;
    pending.delete(id);
    c.cancel?.removeEventListener("abort", c.onCancel);
    hold();
    return c;
  };
  // The thread is gone: the calls it held or was to get fail; those on this thread finish on their own.
  const breakAll = (err: TargetClientError): void => {
    broken ??= err;
    markFailed(err);
    early.length = 0;
    for (const id of [...pending.keys()]) if (!inline.has(id)) settle(id)?.reject(err);
  };
  const runInline = (c: Call): void => {
    inline.add(c.call.id);
    const { url, init, timeoutMs, bodyStart } = c.call;
    void fetchTimedTargetText(url, init, timeoutMs, bodyStart, c.cancel).then((got) => {
      inline.delete(c.call.id);
      settle(c.call.id)?.resolve(got);
      if (broken !== null) return;
      // Its place goes to the next early call, or to the thread once it is ready.
      if (threadReady) send({ type: "credit", n: 1 });
      else {
        const e = early.shift();
        if (e !== undefined) runInline(e);
      }
    });
  };
  worker.on("message", (m: FromTargetThread) => {
    if (m.type === "done") {
      settle(m.id)?.resolve(m.got);
      return;
    }
    threadReady = true;
    send({ type: "credit", n: width - inline.size });
    for (const e of early.splice(0)) send({ type: "call", ...e.call });
    hold();
    markReady();
  });
  worker.on("error", (err) => breakAll(new TargetClientError(`the target client thread failed: ${err.message}`)));
  worker.on("messageerror", (err) => breakAll(new TargetClientError(`the target client thread sent an unreadable message: ${err.message}`)));
  worker.on("exit", (code) => {
    if (!closed) breakAll(new TargetClientError(`the target client thread exited (code ${code})`));
  });
  return {
    inFlight: width,
    ready,
    fetchText(url, init, timeoutMs, bodyStart = 200, cancel) {
      if (closed) return Promise.reject(new TargetClientError("the target client is closed"));
      if (broken !== null) return Promise.reject(broken);
      const asked = performance.now();
      if (cancel?.aborted) return Promise.resolve({ ok: false, reason: CANCELLED, latency_ms: 0 });
      const call: TargetCall = { id: next++, url: String(url), init, timeoutMs, bodyStart };
      return new Promise<TimedTargetText>((resolve, reject) => {
        // Cancelled: an inline request ends through its own signal; one with the thread or waiting for it is dropped here (and there).
        const onCancel = (): void => {
          if (inline.has(call.id)) return;
          const at = early.indexOf(c);
          if (at >= 0) early.splice(at, 1);
          else send({ type: "cancel", id: call.id });
          settle(call.id)?.resolve({ ok: false, reason: CANCELLED, latency_ms: performance.now() - asked });
        };
        const c: Call = { call, resolve, reject, cancel, onCancel };
        pending.set(call.id, c);
        cancel?.addEventListener("abort", onCancel, { once: true });
        hold();
        if (threadReady) send({ type: "call", ...call });
        else if (inline.size < width) runInline(c);
        else early.push(c);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      breakAll(new TargetClientError("the target client is closed"));
      await worker.terminate();
    },
  };
}
