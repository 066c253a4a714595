import pRetry from "p-retry";

/** Backoff of the Kafka and ClickHouse retries: exponential from 200 ms to 10 s, randomised. */
export const BACKOFF = { factor: 2, minTimeout: 200, maxTimeout: 10_000, randomize: true } as const;

/**
 * Runs `fn` until it succeeds (p-retry, {@link BACKOFF}), as long as `keepGoing()` is true. Used
 * where giving up would lose data (span writes before an offset commit).
 * @param onError called with each failure and the attempt number, from 0 (for logging).
 * @throws the last error once `keepGoing()` turns false.
 */
export async function retryUntil<T>(fn: () => Promise<T>, keepGoing: () => boolean, onError: (err: unknown, attempt: number) => void): Promise<T> {
  return pRetry(fn, {
    ...BACKOFF,
    retries: Number.POSITIVE_INFINITY,
    onFailedAttempt: ({ error, attemptNumber }) => onError(error, attemptNumber - 1),
    shouldRetry: () => keepGoing(),
  });
}
