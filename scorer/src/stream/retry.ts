/** Exponential backoff with full jitter (delay = random(0, min(max, base·2^attempt))), ms. */
export function backoffDelay(attempt: number, baseMs = 200, maxMs = 10_000, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(maxMs, baseMs * 2 ** attempt));
}

/**
 * Runs `fn` until it succeeds, waiting {@link backoffDelay} between attempts, as long as
 * `keepGoing()` is true. Used where giving up would lose data (span writes before an offset commit).
 * @param onError called with each failure and the attempt number (for logging).
 * @throws the last error once `keepGoing()` turns false.
 */
export async function retryUntil<T>(fn: () => Promise<T>, keepGoing: () => boolean, onError: (err: unknown, attempt: number) => void, sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms))): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      onError(err, attempt);
      if (!keepGoing()) throw err;
      await sleep(backoffDelay(attempt));
    }
  }
}
