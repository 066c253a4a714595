import pLimit from "p-limit";
const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Bounds the judge calls of one judge instance: at most `concurrency` in flight, at most `rpm` started per minute. */
export interface RateLimiter {
  /** Runs `fn` when a slot is free (and the per-minute budget allows). */
  schedule<T>(fn: () => Promise<T>): Promise<T>;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Calls in flight at once (≥ 1). */
  readonly concurrency: number;
  /** Calls started in any sliding 60-second window; null or undefined = unlimited. */
  readonly rpm?: number | null;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * A concurrency limit (p-limit) plus an optional requests-per-minute limit over a sliding 60 s
 * window. Per instance: no module state, so two judges (or two tests) never share a budget.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const limit = pLimit(Math.max(1, options.concurrency));
  const rpm = options.rpm ?? null;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const starts: number[] = [];
  let gate: Promise<void> = Promise.resolve();

  function admit(): Promise<void> {
    if (rpm === null) return Promise.resolve();
    const next = gate.then(async () => {
      for (;;) {
        const t = now();
        while (starts.length > 0 && (starts[0] as number) <= t - 60_000) starts.shift();
        if (starts.length < rpm) {
          starts.push(t);
          return;
        }
        await sleep((starts[0] as number) + 60_000 - t);
      }
    });
    gate = next.catch(() => undefined);
    return next;
  }

  return {
    schedule: <T>(fn: () => Promise<T>) =>
      limit(async () => {
        await admit();
        return fn();
      }),
  };
}
