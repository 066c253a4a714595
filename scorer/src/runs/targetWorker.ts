/**
 * The target client thread (see {@link ./targetClient.ts}): runs the target's HTTP requests as far
 * as its credit goes (the requests the main thread lets it have in flight; it starts with none),
 * the rest queued in arrival order, and posts each body back with the request's own time. Its
 * event loop does nothing else, so the next queued question goes out the moment an answer
 * arrives, whatever the main thread is busy with (issue 12).
 */
import { parentPort } from "node:worker_threads";
import { fetchTimedTargetText, type TargetRequestInit, type TimedTargetText } from "./targetFetch.js";

/** A request for the thread. */
export interface TargetCall {
  readonly id: number;
  readonly url: string;
  readonly init: TargetRequestInit;
  readonly timeoutMs: number;
  readonly bodyStart: number;
}

/** From the main thread: a request, more requests the thread may have in flight, or a call cancelled (queued or in flight). */
export type ToTargetThread = ({ readonly type: "call" } & TargetCall) | { readonly type: "credit"; readonly n: number } | { readonly type: "cancel"; readonly id: number };

/** To the main thread: loaded, or the answer to the call of that id. */
export type FromTargetThread = { readonly type: "ready" } | { readonly type: "done"; readonly id: number; readonly got: TimedTargetText };

const port = parentPort;
if (port === null) throw new Error("targetWorker runs as a worker thread (targetClient.ts starts it)");
const queue: TargetCall[] = [];
// Calls in flight, by id: aborting one ends its request at once.
const running = new Map<number, AbortController>();
let credit = 0;

function pump(): void {
  while (credit > 0) {
    const call = queue.shift();
    if (call === undefined) return;
    credit--;
    const cancel = new AbortController();
    running.set(call.id, cancel);
    void fetchTimedTargetText(call.url, call.init, call.timeoutMs, call.bodyStart, cancel.signal).then((got) => {
      running.delete(call.id);
      credit++;
      port?.postMessage({ type: "done", id: call.id, got } satisfies FromTargetThread);
      // The next queued call goes out after the messages already waiting are handled: one abort
      // cancels a call in flight and those queued behind it with one message each, and the aborted
      // request can end between two of them (at load it did: a queued call was sent after its
      // cancellation had been posted).
      setImmediate(pump);
    });
  }
}

port.on("message", (m: ToTargetThread) => {
  if (m.type === "credit") credit += m.n;
  else if (m.type === "cancel") {
    running.get(m.id)?.abort();
    const at = queue.findIndex((c) => c.id === m.id);
    if (at >= 0) queue.splice(at, 1);
  } else queue.push({ id: m.id, url: m.url, init: m.init, timeoutMs: m.timeoutMs, bodyStart: m.bodyStart });
  pump();
});
port.postMessage({ type: "ready" } satisfies FromTargetThread);
