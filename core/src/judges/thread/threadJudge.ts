import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Judge, JudgeRequest, Judgment } from "../types.js";
import type { FromJudgeThread, JudgeCall } from "./judgeWorker.js";

/** A judge whose work runs on a thread of its own; {@link ThreadJudge.close} stops the thread. */
export interface ThreadJudge extends Judge {
  /** Where judgments are made now: `thread`, or `inline` once the thread failed or was closed (with why). */
  where(): { readonly at: "thread" } | { readonly at: "inline"; readonly reason: string };
  /** Stops the thread; later calls (and any still pending) are judged on the calling thread. */
  close(): Promise<void>;
}

/** How the thread's prompt versions differ from the calling thread's (`task: theirs vs ours`), or null when they are the same. */
function versionsDiffer(ours: Readonly<Record<string, string>>, theirs: Readonly<Record<string, string>>): string | null {
  for (const task of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
    if (ours[task] !== theirs[task]) return `${task}: ${theirs[task] ?? "none"} vs ${ours[task] ?? "none"}`;
  }
  return null;
}

/** The compiled worker: next to this module (dist/, or a bundle's folder), or in `dist/` when this module runs from `src/` (tests). */
function workerEntry(): URL | null {
  const here = new URL("./judgeWorker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const built = new URL("../../../dist/judges/thread/judgeWorker.js", import.meta.url);
  return existsSync(fileURLToPath(built)) ? built : null;
}

/**
 * The heuristic judge on a thread of its own (`RAGMETER_JUDGE_THREAD`, design §6): `inline` is the
 * same judge built on the calling thread, whose kind, model and prompt versions this one states; each
 * call is posted to the thread, which judges the calls in arrival order and keeps its own token
 * caches. A live scorer's main thread accepts spans, writes them and scores; with the rules' CPU
 * (about 2 ms a production-shaped trace) on another core, a request no longer waits behind a batch
 * being judged.
 *
 * Judgments are the same either way (the rules are deterministic, the caches change no judgment).
 * When the thread cannot be used — its module is not built, it reports other prompt versions than
 * `inline`, it throws, exits or sends an unreadable message — the calls it held and every later one
 * are judged by `inline`, and `onInline` hears why, once. A call the thread's judge threw for is
 * made again by `inline`, whose error is the caller's. `entry`: the thread's module (tests give
 * another; null: none built).
 */
export function threadJudge(inline: Judge, onInline: (reason: string) => void = () => {}, entry: URL | null = workerEntry()): ThreadJudge {
  type Pending = { readonly call: JudgeCall; readonly resolve: (j: Judgment) => void; readonly reject: (err: unknown) => void };
  const pending = new Map<number, Pending>();
  let next = 0;
  let inlineReason: string | null = null;
  const runInline = (p: Pending): void => {
    // A programming error (a task the judge has not) is thrown, not returned: the caller's rejection all the same.
    Promise.resolve()
      .then(() => inline.judge(p.call.task, p.call.request))
      .then(p.resolve, p.reject);
  };
  if (entry === null) {
    inlineReason = "the judge thread's module is not built (run npm run build)";
    onInline(inlineReason);
  }
  // A young generation of 8 MiB: the thread's garbage is short-lived token lists (bench:phoenix at 16
  // clients, peak RSS 673–702 MiB with 4, 705–726 with 8, 708–720 with 16; 4 lost a tenth of the traces/s).
  // No flags of the process's own (`--input-type`, an entry point's): the thread needs none, and some refuse a worker.
  const worker = entry === null ? null : new Worker(entry, { execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: 8 } });
  // Held open only while calls are pending (a process with nothing else to do ends).
  const hold = (): void => {
    if (worker === null) return;
    if (pending.size === 0) worker.unref();
    else worker.ref();
  };
  const take = (id: number): Pending | undefined => {
    const p = pending.get(id);
    pending.delete(id);
    hold();
    return p;
  };
  const goInline = (reason: string, notify = true): void => {
    if (inlineReason !== null) return;
    inlineReason = reason;
    if (notify) onInline(reason);
    for (const id of [...pending.keys()]) {
      const p = take(id);
      if (p !== undefined) runInline(p);
    }
    void worker?.terminate();
  };
  if (worker !== null) {
    worker.on("message", (m: FromJudgeThread) => {
      if (m.type === "ready") {
        const differ = versionsDiffer(inline.promptVersion, m.promptVersion);
        if (differ !== null) goInline(`the judge thread's prompt versions differ from this thread's (${differ})`);
        return;
      }
      const p = take(m.id);
      if (p === undefined) return;
      if (m.type === "done") p.resolve(m.judgment);
      else runInline(p);
    });
    worker.on("error", (err) => goInline(`the judge thread failed: ${err.message}`));
    worker.on("messageerror", (err) => goInline(`the judge thread sent an unreadable message: ${err.message}`));
    worker.on("exit", (code) => goInline(`the judge thread exited (code ${code})`));
    // After the listeners: a "message" listener refs the worker again.
    hold();
  }
  return {
    kind: inline.kind,
    model: inline.model,
    metered: inline.metered,
    promptVersion: inline.promptVersion,
    judge(task: string, request: JudgeRequest): Promise<Judgment> {
      if (worker === null || inlineReason !== null) return inline.judge(task, request);
      return new Promise<Judgment>((resolve, reject) => {
        const call: JudgeCall = { id: next++, task, request };
        const p: Pending = { call, resolve, reject };
        pending.set(call.id, p);
        hold();
        try {
          worker.postMessage(call);
        } catch {
          // A request the thread cannot be sent (not cloneable) is judged here.
          take(call.id);
          runInline(p);
        }
      });
    },
    where: () => (inlineReason === null ? { at: "thread" } : { at: "inline", reason: inlineReason }),
    async close() {
      goInline("the judge thread was closed", false);
      await worker?.terminate();
    },
  };
}
