import { SCORER_WRITE_BATCH } from "@ragmeter/runtime";

/**
 * Write batches across callers (issue 38): items handed in by many callers (serve's concurrent
 * requests, each one trace) are written together, one write at a time, so the store pays its
 * per-statement cost (on the embedded engine an insert and a merge) once per batch rather than once
 * per caller. A batch is bounded three ways ({@link WriteBatchLimits}): its items' count weight
 * (spans and log records), their estimated bytes, and time: the oldest pending item waits at most
 * `maxWaitMs` for others to join, and a batch no item joined for `gapMs` waits no longer (closed-loop
 * clients, each waiting for its own write, have all handed theirs in: waiting on would only delay
 * them). Each caller's promise settles with the write that held its item:
 * resolved once that write succeeded, rejected with its error otherwise (nothing of a failed batch is
 * acknowledged).
 */
export interface WriteBatcher<T> {
  /** Resolves once a write holding `item` succeeded; rejects with that write's error. */
  add(item: T): Promise<void>;
  /** Writes what is pending without waiting out `maxWaitMs`; settles once every item handed in so far is written (or failed). */
  drain(): Promise<void>;
}

/** The bounds of one batch. */
export interface WriteBatchLimits {
  /** Count weight at most (a single item heavier than this is written alone). */
  readonly maxCount: number;
  /** Estimated bytes at most (a single item larger than this is written alone). */
  readonly maxBytes: number;
  /**
   * How long the oldest pending item waits at most for more to join its batch, ms; 0: a batch is
   * written as soon as no write is in flight (what arrives during a write joins the next one).
   */
  readonly maxWaitMs: number;
  /**
   * How long a batch waits at most after its newest item for another, ms: the batch is written once
   * none joined for this long, before `maxWaitMs` (≥ `maxWaitMs`: only `maxWaitMs` counts).
   */
  readonly gapMs: number;
}

/** The default bounds (the settings' defaults, @ragmeter/runtime SCORER_WRITE_BATCH). */
export const DEFAULT_WRITE_BATCH: WriteBatchLimits = SCORER_WRITE_BATCH;

/** How an item is weighed against {@link WriteBatchLimits}. */
export interface ItemWeights<T> {
  /** Its count weight (spans + log records). */
  readonly count: (item: T) => number;
  /** Its estimated encoded size, bytes. */
  readonly bytes: (item: T) => number;
}

/**
 * The items split into consecutive batches within `limits`' count and bytes, in order: each batch
 * takes items while both sums stay within their limits; an item that alone exceeds one is a batch
 * of its own.
 */
export function splitBatches<T>(items: readonly T[], limits: Pick<WriteBatchLimits, "maxCount" | "maxBytes">, weights: ItemWeights<T>): T[][] {
  const out: T[][] = [];
  let i = 0;
  while (i < items.length) {
    const n = fitting(items, i, limits, weights);
    out.push(items.slice(i, i + n));
    i += n;
  }
  return out;
}

/** How many items from `from` fit one batch (at least one). */
function fitting<T>(items: readonly T[], from: number, limits: Pick<WriteBatchLimits, "maxCount" | "maxBytes">, weights: ItemWeights<T>): number {
  let count = 0;
  let bytes = 0;
  let n = 0;
  while (from + n < items.length) {
    const item = items[from + n] as T;
    const c = weights.count(item);
    const b = weights.bytes(item);
    if (n > 0 && (count + c > limits.maxCount || bytes + b > limits.maxBytes)) break;
    count += c;
    bytes += b;
    n++;
  }
  return n;
}

interface Waiting<T> {
  readonly item: T;
  readonly count: number;
  readonly bytes: number;
  /** When it was handed in (`now()`). */
  readonly at: number;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

/** A queued item's weights, computed once when it was handed in. */
const QUEUED: ItemWeights<{ readonly count: number; readonly bytes: number }> = { count: (w) => w.count, bytes: (w) => w.bytes };

/** Options of {@link createWriteBatcher}. */
export interface WriteBatcherOptions<T> extends ItemWeights<T> {
  readonly limits: WriteBatchLimits;
  /** The clock, ms (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * @param write writes one batch (its items in order of arrival); batches are written one at a time.
 *   A rejection fails every caller of the batch; retrying is `write`'s own (the items are written
 *   again whole, so it must be idempotent).
 */
export function createWriteBatcher<T>(write: (items: readonly T[]) => Promise<void>, o: WriteBatcherOptions<T>): WriteBatcher<T> {
  const now = o.now ?? (() => Date.now());
  const queue: Waiting<T>[] = [];
  let pendingCount = 0;
  let pendingBytes = 0;
  let writing = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let draining = 0;
  let idle: (() => void)[] = [];

  const full = (): boolean => pendingCount >= o.limits.maxCount || pendingBytes >= o.limits.maxBytes;
  const take = (): Waiting<T>[] => {
    const batch = queue.splice(0, fitting(queue, 0, o.limits, QUEUED));
    for (const w of batch) {
      pendingCount -= w.count;
      pendingBytes -= w.bytes;
    }
    return batch;
  };
  const settleIdle = (): void => {
    if (writing || queue.length > 0) return;
    const waiting = idle;
    idle = [];
    for (const r of waiting) r();
  };
  const writeNext = async (): Promise<void> => {
    writing = true;
    const batch = take();
    try {
      await write(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
    writing = false;
    schedule();
  };
  /** Starts the next write when one is due (full, the oldest or the newest waited long enough, or draining), else arms the timer for the nearer deadline. */
  const schedule = (): void => {
    if (writing) return;
    const oldest = queue[0];
    if (oldest === undefined) {
      settleIdle();
      return;
    }
    // a timer armed for the gap may fire before a newer item's gap ran out: then it is armed again
    const newest = queue[queue.length - 1] as Waiting<T>;
    const wait = Math.min(oldest.at + o.limits.maxWaitMs, newest.at + o.limits.gapMs) - now();
    if (full() || wait <= 0 || draining > 0) {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      void writeNext();
      return;
    }
    if (timer === null)
      timer = setTimeout(() => {
        timer = null;
        schedule();
      }, wait);
  };
  return {
    add(item: T): Promise<void> {
      const p = new Promise<void>((resolve, reject) => {
        const w: Waiting<T> = { item, count: o.count(item), bytes: o.bytes(item), at: now(), resolve, reject };
        queue.push(w);
        pendingCount += w.count;
        pendingBytes += w.bytes;
      });
      // After this tick: the items handed in with this one (one request's records, or requests of the same tick) join its batch.
      if (queue.length === 1 && !writing) queueMicrotask(schedule);
      else if (full()) schedule();
      return p;
    },
    async drain(): Promise<void> {
      draining++;
      try {
        const done = new Promise<void>((r) => idle.push(r));
        schedule();
        await done;
      } finally {
        draining--;
      }
    },
  };
}
