import type { StoredLog, StoredSpan } from "@ragmeter/core/domain/spans";
import { logOrder, spanOrder } from "@ragmeter/store/spans";

/** A trace's spans and log records as this process wrote them to the store. */
export interface HeldTrace {
  readonly spans: readonly StoredSpan[];
  readonly logs: readonly StoredLog[];
}

/** Where the scoring loop looks for a trace before reading it back from the store. */
export interface HeldTraceSource {
  /** The trace as written by this process, in read order (spans by {@link spanOrder}, logs by {@link logOrder}); null when not held. */
  get(traceId: string): HeldTrace | null;
}

interface Entry {
  readonly spans: Map<string, StoredSpan>;
  readonly logs: Map<string, StoredLog>;
}

/**
 * The decoded spans and log records of the traces this process wrote and has not scored yet, so a
 * trace is scored from what was decoded instead of being read back (the read-back was ≈ a sixth
 * of the streaming scorer's engine time plus a JSON parse of every span; issue 15). At most `max`
 * traces are held: a trace first seen while the bound is reached is not held (it is read back).
 * A held trace may still lack spans the store has (written by another process before a
 * rebalance or a restart, or by this one before the trace was held): the scoring loop uses it
 * only when the store's row counts of the trace equal the held ones (`scoreTraces`).
 */
export class HeldTraces implements HeldTraceSource {
  private readonly traces = new Map<string, Entry>();

  constructor(private readonly max: number) {}

  /** Traces held now. */
  get size(): number {
    return this.traces.size;
  }

  /** Adds what one write stored (a re-sent span or record replaces the one held, as the store's key does). */
  add(spans: readonly StoredSpan[], logs: readonly StoredLog[]): void {
    for (const s of spans) this.entry(s.trace_id)?.spans.set(s.span_id, s);
    for (const l of logs) this.entry(l.trace_id)?.logs.set(`${l.span_id}\u0000${l.record_id}`, l);
  }

  get(traceId: string): HeldTrace | null {
    const e = this.traces.get(traceId);
    if (e === undefined) return null;
    return { spans: [...e.spans.values()].sort(spanOrder), logs: [...e.logs.values()].sort(logOrder) };
  }

  /** Drops a trace (scored, or given up). */
  delete(traceId: string): void {
    this.traces.delete(traceId);
  }

  private entry(traceId: string): Entry | null {
    const e = this.traces.get(traceId);
    if (e !== undefined) return e;
    if (this.traces.size >= this.max) return null;
    const fresh: Entry = { spans: new Map(), logs: new Map() };
    this.traces.set(traceId, fresh);
    return fresh;
  }
}
