/** The two stages of {@link askAhead}. */
export interface AskAheadStages<T, A, R> {
  /** Workers at once; each runs one call of `ask` or `finish` at a time. */
  readonly concurrency: number;
  /** Answers parked while `ready` is pending, at most; then the workers wait for it. */
  readonly backlog: number;
  /** What `finish` needs (the open store); asking starts before it settles. */
  readonly ready: Promise<unknown>;
  /** First stage (the target's call): needs nothing of `ready`. */
  ask(item: T, index: number): Promise<A>;
  /** Second stage (judges and the store): runs only once `ready` has resolved. */
  finish(answer: A, item: T, index: number): Promise<R>;
}

/**
 * Maps `items` through `ask` then `finish` with `concurrency` workers, results in input order.
 * While `ready` is pending, a worker parks each answer and asks the next question, up to `backlog`
 * parked answers, so the target is busy while the store opens (`eval`, issue 12); once it resolves,
 * the workers finish the parked answers first, then ask and finish in turn as one worker did
 * before. No `finish` call ever starts before `ready` resolves (no judge call whose result cannot
 * be stored). When `ready` rejects or a call throws, no worker starts another call, and the
 * returned promise rejects with the first error once the calls in flight have settled.
 */
export async function askAhead<T, A, R>(items: readonly T[], stages: AskAheadStages<T, A, R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  const parked: { readonly answer: A; readonly index: number }[] = [];
  let next = 0;
  let failed = false;
  let isReady = false;
  const ready = stages.ready.then(
    () => {
      isReady = true;
    },
    (err: unknown) => {
      failed = true;
      throw err;
    },
  );
  // Observed by the workers that wait for it; this keeps an early rejection from being unhandled.
  ready.catch(() => undefined);
  const finish = async (answer: A, index: number): Promise<void> => {
    out[index] = await stages.finish(answer, items[index] as T, index);
  };
  const worker = async (): Promise<void> => {
    try {
      while (!failed) {
        if (isReady) {
          const p = parked.shift();
          if (p) {
            await finish(p.answer, p.index);
            continue;
          }
        }
        if (next >= items.length) {
          if (isReady) return;
          await ready;
          continue;
        }
        const index = next++;
        const answer = await stages.ask(items[index] as T, index);
        if (failed) return;
        if (!isReady) {
          if (parked.length < stages.backlog) {
            parked.push({ answer, index });
            continue;
          }
          await ready;
        }
        await finish(answer, index);
      }
    } catch (err) {
      failed = true;
      throw err;
    }
  };
  const workers = Array.from({ length: Math.min(items.length, Math.max(1, Math.floor(stages.concurrency))) }, worker);
  const settled = await Promise.allSettled(workers);
  const rejected = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (rejected) throw rejected.reason;
  // Every worker may have returned on `failed` without being the one that saw `ready` reject.
  if (failed) await ready;
  return out;
}
