import { setTimeout as sleep } from "node:timers/promises";
import pRetry from "p-retry";
import { isRetriable, RagmeterError } from "./errors.js";

/** Exponential backoff between attempts (p-retry's options): from `minTimeout` ms, × `factor` each time, at most `maxTimeout`, × 1–2 at random when `randomize`. */
export interface Backoff {
  readonly factor: number;
  readonly minTimeout: number;
  readonly maxTimeout: number;
  readonly randomize: boolean;
}

/** Backoff of the Kafka and ClickHouse retries: exponential from 200 ms to 10 s, randomised. */
const BACKOFF: Backoff = { factor: 2, minTimeout: 200, maxTimeout: 10_000, randomize: true };

/** Options of {@link retry}. */
export interface RetryOptions {
  /** Retries after the first attempt (`Infinity`: until it succeeds or `keepGoing` turns false). */
  readonly retries: number;
  /** Backoff between attempts; default {@link BACKOFF}. */
  readonly backoff?: Backoff;
  /** Asked before each retry; false ends the retries with the last error. Default: always true. */
  readonly keepGoing?: () => boolean;
  /** Called with each failure and its attempt number, from 1 (for logging), retried or not. */
  readonly onError?: (err: unknown, attempt: number) => void;
  /** Ends the waiting and the retries when aborted. */
  readonly signal?: AbortSignal;
}

/**
 * The one retry helper (p-retry): runs `fn` and runs it again after a failure that says trying
 * again may succeed — a {@link RagmeterError} with `retriable` true; any other error ends it at
 * once — up to `retries` times, waiting the backoff or the server's `retryAfterMs`, whichever is longer.
 * @throws the last error: a non-retriable one, or the last retriable one once the retries are used up or `keepGoing()` is false.
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const keepGoing = options.keepGoing ?? (() => true);
  return pRetry(fn, {
    ...(options.backoff ?? BACKOFF),
    retries: options.retries,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
    shouldRetry: ({ error }) => isRetriable(error) && keepGoing(),
    onFailedAttempt: async ({ error, attemptNumber, retriesLeft, retryDelay }) => {
      options.onError?.(error, attemptNumber);
      // The server's Retry-After, when longer than the backoff: the difference is waited here, the backoff by p-retry.
      const after = error instanceof RagmeterError && error.retriable && retriesLeft > 0 && keepGoing() ? (error.retryAfterMs ?? 0) : 0;
      if (after > retryDelay) await sleep(after - retryDelay, undefined, options.signal !== undefined ? { signal: options.signal } : undefined);
    },
  });
}
