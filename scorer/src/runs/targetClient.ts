import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { fetchTimedTargetText, type TargetRequestInit, type TimedTargetText } from "./targetFetch.js";
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
  /** One request, its body as text, timed from sending to the body's end (queueing left out). */
  fetchText(url: string | URL, init: TargetRequestInit, timeoutMs: number, bodyStart?: number): Promise<TimedTargetText>;
  /** Stops the client (its thread); calls after it fail. */
  close(): Promise<void>;
}

/** The target client thread failed (it exited or threw): the calls it held cannot be answered. */
export class TargetClientError extends Error {
  override readonly name = "TargetClientError";
}

/** Requests on the calling thread, all at once (replay, tests, in-process callers). */
export function inlineTargetClient(): TargetClient {
  return {
    inFlight: null,
    ready: Promise.resolve(),
    fetchText: (url, init, timeoutMs, bodyStart = 200) => fetchTimedTargetText(url, init, timeoutMs, bodyStart),
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
 * once it is answered. The thread holds the process open only while requests are pending.
 */
export function threadTargetClient(concurrency: number): TargetClient {
  const width = Math.max(1, Math.floor(concurrency));
  // A small young generation: the thread's garbage is a few strings per request (20,000 questions: peak RSS 430 → 406 MiB).
  const worker = new Worker(workerEntry(), { resourceLimits: { maxYoungGenerationSizeMb: 4 } });
  worker.unref();
  type Call = { readonly call: TargetCall; readonly resolve: (got: TimedTargetText) => void; readonly reject: (err: Error) => void };
  const pending = new Map<number, Call>();
  // Calls beyond the inline ones while the thread loads.
  const early: Call[] = [];
  let inline = 0;
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
  const settle = (id: number): Call | undefined => {
    const c = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return c;
  };
  const breakAll = (err: TargetClientError): void => {
    broken ??= err;
    markFailed(err);
    early.length = 0;
    for (const id of [...pending.keys()]) settle(id)?.reject(err);
  };
  const runInline = (c: Call): void => {
    inline++;
    const { url, init, timeoutMs, bodyStart } = c.call;
    void fetchTimedTargetText(url, init, timeoutMs, bodyStart).then((got) => {
      inline--;
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
    send({ type: "credit", n: width - inline });
    for (const e of early.splice(0)) send({ type: "call", ...e.call });
    markReady();
  });
  worker.on("error", (err) => breakAll(new TargetClientError(`the target client thread failed: ${err.message}`)));
  worker.on("exit", (code) => {
    if (!closed) breakAll(new TargetClientError(`the target client thread exited (code ${code})`));
  });
  return {
    inFlight: width,
    ready,
    fetchText(url, init, timeoutMs, bodyStart = 200) {
      if (closed) return Promise.reject(new TargetClientError("the target client is closed"));
      if (broken !== null) return Promise.reject(broken);
      const call: TargetCall = {
        id: next++,
        url: String(url),
        init: { method: init.method, headers: { ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}) },
        timeoutMs,
        bodyStart,
      };
      return new Promise<TimedTargetText>((resolve, reject) => {
        if (pending.size === 0) worker.ref();
        const c: Call = { call, resolve, reject };
        pending.set(call.id, c);
        if (threadReady) send({ type: "call", ...call });
        else if (inline < width) runInline(c);
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
