import pLimit from "p-limit";
import pThrottle from "p-throttle";

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
}

/**
 * A concurrency limit (p-limit) plus an optional requests-per-minute limit over a sliding 60 s
 * window (p-throttle, strict). Per instance: no module state, so two judges (or two tests) never
 * share a budget.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const limit = pLimit(Math.max(1, options.concurrency));
  const rpm = options.rpm ?? null;
  const admit = rpm === null ? null : pThrottle({ limit: rpm, interval: 60_000, strict: true })(() => undefined);
  return {
    schedule: <T>(fn: () => Promise<T>) =>
      limit(async () => {
        if (admit) await admit();
        return fn();
      }),
  };
}
