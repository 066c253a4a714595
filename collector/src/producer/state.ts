/** The sink's shared state: when Kafka last failed, why, and the cached readiness answer. */

/** Mutable state one Kafka sink's modules read and write (one object per sink, no globals). */
export interface SinkState {
  /** `Date.now()` of the last failed send or topic check (0: none). */
  lastFailure: number;
  /** Why Kafka last failed ("" once a send succeeds). */
  lastCause: string;
  /** The last warning logged: its cause and when (one warning per cause while it lasts). */
  lastWarning: { cause: string; at: number };
  /** Readiness as last measured (a second's cache); undefined after a failure. */
  readyCache: { at: number; value: boolean } | undefined;
  /** Set by `close()`: sends and readiness refuse from then on. */
  closed: boolean;
}

export function newSinkState(): SinkState {
  return { lastFailure: 0, lastCause: "", lastWarning: { cause: "", at: 0 }, readyCache: undefined, closed: false };
}

/** True while the last failure is within the back-off window. */
export function inBackoff(state: SinkState, backoffMs: number, now: number): boolean {
  return now - state.lastFailure < backoffMs;
}
