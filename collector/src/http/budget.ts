/** The in-flight budget: bytes of request bodies held by requests in progress, bounded by maxInflightBytes. */
import { KafkaUnavailableError, OverloadedError } from "../errors.js";

/** Bytes of the in-flight budget one request holds. */
export interface RequestState {
  reserved: number;
  released: boolean;
}

/** The counters the budget keeps (a part of the collector's stats). */
export interface BudgetCounters {
  inflightBytes: number;
  peakInflightBytes: number;
}

export interface InflightBudget {
  /**
   * Adds `bytes` to the request's share. Past the limit (while anything else is in flight) it throws
   * OverloadedError (429), or KafkaUnavailableError (503) when Kafka is down. Nothing after release.
   */
  reserve(st: RequestState, bytes: number): void;
  /** Returns the request's share (once). */
  release(st: RequestState): void;
}

export function newRequestState(): RequestState {
  return { reserved: 0, released: false };
}

export function createInflightBudget(counters: BudgetCounters, maxInflightBytes: number, kafkaDegraded: () => boolean): InflightBudget {
  return {
    reserve(st, bytes) {
      if (st.released) return;
      if (counters.inflightBytes + bytes > maxInflightBytes && counters.inflightBytes > 0) {
        if (kafkaDegraded()) throw new KafkaUnavailableError("Kafka is unavailable and the collector's in-flight budget is used up");
        throw new OverloadedError(`the collector is busy (${counters.inflightBytes} bytes in flight, limit ${maxInflightBytes}); retry later`);
      }
      st.reserved += bytes;
      counters.inflightBytes += bytes;
      if (counters.inflightBytes > counters.peakInflightBytes) counters.peakInflightBytes = counters.inflightBytes;
    },
    release(st) {
      if (st.released) return;
      st.released = true;
      counters.inflightBytes -= st.reserved;
    },
  };
}
