import { setMaxListeners } from "node:events";

/** Longest stretch a finisher of {@link askAhead} runs without yielding to the event loop, ms. */
const FINISH_SLICE_MS = 10;

/** Listeners an ask in flight may hold on its cancel signal before Node warns of a leak. */
const ASK_LISTENERS = 4;

/** The two stages of {@link askAhead}. */
export interface AskAheadStages<T, A, R> {
  /** Calls of `ask` at once. */
  readonly askers: number;
  /** Calls of `finish` at once. */
  readonly finishers: number;
  /**
   * Answers waiting to be finished while `ready` is pending, at most (at least one); then the
   * askers wait. Once it has resolved, at most `finishers` wait (each asker then holds at most one
   * more), so answers do not pile up in memory behind busy finishers.
   */
  readonly backlog: number;
  /** What `finish` needs (the open store); asking starts before it settles. */
  readonly ready: Promise<unknown>;
  /** First stage (the target's call): needs nothing of `ready`. `cancel` is aborted once the run fails. */
  ask(item: T, index: number, cancel: AbortSignal): Promise<A>;
  /** Second stage (judges and the store): runs only once `ready` has resolved. */
  finish(answer: A, item: T, index: number): Promise<R>;
}

/**
 * Maps `items` through `ask` then `finish`, results in input order: `askers` workers keep that
 * many calls of `ask` in flight, whatever the finishing does, and hand each answer to `finishers`
 * workers through a queue of at most `backlog` answers (a full queue holds the askers back, each
 * with its answer). So the target keeps getting questions while the answers before are judged and
 * stored, and while the store opens (`eval`, issue 12): no `finish` call ever starts before `ready`
 * resolves (no judge call whose result cannot be stored). When `ready` rejects or a call throws,
 * no call starts after it, the asks in flight are cancelled (their signal), and the returned
 * promise rejects with the first error once the calls in flight have settled. A finisher gives the
 * event loop a turn every {@link FINISH_SLICE_MS} ms of finishing, so timers (the recorder's
 * flush, the progress bar) and I/O run while answers wait.
 */
export async function askAhead<T, A, R>(items: readonly T[], stages: AskAheadStages<T, A, R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  const queue: { readonly answer: A; readonly index: number }[] = [];
  const width = (n: number): number => Math.min(items.length, Math.max(1, Math.floor(n)));
  const before = Math.max(1, Math.floor(stages.backlog));
  const after = Math.max(1, Math.floor(stages.finishers));
  let isReady = false;
  const room = (): number => (isReady ? after : before);
  const cancel = new AbortController();
  let next = 0;
  const askers = width(stages.askers);
  // Every ask in flight listens to the one signal (the target client's and its request's listeners:
  // 68 at once in `eval` at concurrency 4), past Node's default of 10, which printed a
  // MaxListenersExceededWarning to the user; a leak beyond a few per ask still warns.
  setMaxListeners(Math.max(10, ASK_LISTENERS * askers), cancel.signal);
  let asking = askers;
  let failed = false;
  let firstError: unknown = null;
  // Parties waiting for the queue to change (an answer in, an answer out, the askers done, a failure).
  let waiters: (() => void)[] = [];
  const changed = (): void => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const change = (): Promise<void> => new Promise<void>((resolve) => waiters.push(resolve));
  const fail = (err: unknown): never => {
    if (!failed) firstError = err;
    failed = true;
    cancel.abort();
    changed();
    throw err;
  };
  const ready = stages.ready.then(() => {
    isReady = true;
  }, fail);
  // Observed by the finishers; this keeps an early rejection from being unhandled.
  ready.catch(() => undefined);
  const asker = async (): Promise<void> => {
    try {
      while (!failed && next < items.length) {
        const index = next++;
        const answer = await stages.ask(items[index] as T, index, cancel.signal);
        // One answer beyond the queue waits with its asker (the queue is full).
        while (!failed && queue.length >= room()) await change();
        if (failed) return;
        queue.push({ answer, index });
        changed();
      }
    } catch (err) {
      fail(err);
    } finally {
      if (--asking === 0) changed();
    }
  };
  /**
   * A finisher's pause: at the end of its time slice it yields to the event loop; else (nothing
   * queued) it waits for a change. False when there is nothing left to wait for (no asker running).
   */
  const pause = async (sliceOver: boolean): Promise<boolean> => {
    if (sliceOver) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      return true;
    }
    if (asking === 0) return false;
    await change();
    return true;
  };
  /** One step of a finisher: the next queued answer finished, or a pause; the time its slice started, null when it is done. */
  const finishStep = async (slice: number): Promise<number | null> => {
    if (failed) return null;
    const sliceOver = performance.now() - slice > FINISH_SLICE_MS;
    const p = sliceOver ? undefined : queue.shift();
    // the slice is used up, or nothing is queued: yield (or wait for a change), then a new slice
    if (p === undefined) return (await pause(sliceOver)) ? performance.now() : null;
    changed();
    out[p.index] = await stages.finish(p.answer, items[p.index] as T, p.index);
    return slice;
  };
  const finisher = async (): Promise<void> => {
    await ready;
    try {
      for (let slice: number | null = performance.now(); slice !== null; ) slice = await finishStep(slice);
    } catch (err) {
      fail(err);
    }
  };
  await Promise.allSettled([...Array.from({ length: askers }, asker), ...Array.from({ length: width(stages.finishers) }, finisher)]);
  if (failed) throw firstError;
  return out;
}
