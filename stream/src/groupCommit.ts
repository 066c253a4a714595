/**
 * Group commit: items handed in while a write is in flight are written together by the next write,
 * and each caller's promise settles with the write that held its item. With C concurrent callers a
 * store sees about one insert per write's duration instead of C; with one caller nothing waits.
 */
export interface GroupCommit<T> {
  /** Resolves once a write holding `item` succeeded; rejects with that write's error. */
  add(item: T): Promise<void>;
  /** Settles once every item handed in so far is written (or failed). */
  drain(): Promise<void>;
}

interface Waiting<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

/**
 * @param write writes one group (in order of arrival), at most `maxWeight` by `weight` unless one
 *   item alone weighs more; groups are written one at a time.
 */
export function createGroupCommit<T>(write: (items: readonly T[]) => Promise<void>, opts: { readonly maxWeight: number; readonly weight: (item: T) => number }): GroupCommit<T> {
  const queue: Waiting<T>[] = [];
  let running: Promise<void> | null = null;
  const take = (): Waiting<T>[] => {
    let w = 0;
    let n = 0;
    while (n < queue.length) {
      const next = opts.weight((queue[n] as Waiting<T>).item);
      if (n > 0 && w + next > opts.maxWeight) break;
      w += next;
      n++;
    }
    return queue.splice(0, n);
  };
  const loop = async (): Promise<void> => {
    // first yield, so `running` is set before this can end, and items handed in this tick join the group
    await Promise.resolve();
    while (queue.length > 0) {
      const group = take();
      try {
        await write(group.map((g) => g.item));
        for (const g of group) g.resolve();
      } catch (err) {
        for (const g of group) g.reject(err);
      }
    }
    running = null;
  };
  return {
    add(item: T): Promise<void> {
      const p = new Promise<void>((resolve, reject) => queue.push({ item, resolve, reject }));
      if (running === null) running = loop();
      return p;
    },
    async drain(): Promise<void> {
      while (running !== null) await running;
    },
  };
}
