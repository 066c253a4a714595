import type { Attrs, AttrValue, StoredLog, StoredSpan } from "@ragmeter/core/domain/spans";
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
  readonly spans: Map<string, { readonly span: StoredSpan; readonly size: number }>;
  readonly logs: Map<string, { readonly log: StoredLog; readonly size: number }>;
  /** Its spans' and records' sizes ({@link heldSpanSize}, {@link heldLogSize}), summed. */
  size: number;
}

/** What the size of an item counts besides its text: its object, ids and times (characters). */
const ITEM_OVERHEAD = 200;

/** Characters of an attribute value's text (keys and strings; a number, boolean or null counts 8). */
function textSize(v: AttrValue): number {
  if (typeof v === "string") return v.length;
  if (v === null || typeof v !== "object") return 8;
  if (Array.isArray(v)) return v.reduce<number>((n, x) => n + textSize(x), 0);
  return attrsSize(v);
}

function attrsSize(a: Attrs): number {
  let n = 0;
  for (const k in a) n += k.length + textSize(a[k] as AttrValue);
  return n;
}

/** The size a held span counts: its text in characters (attributes, resource, events, name) and {@link ITEM_OVERHEAD}. */
export function heldSpanSize(s: StoredSpan): number {
  let n = ITEM_OVERHEAD + s.name.length + attrsSize(s.attributes) + attrsSize(s.resource_attributes);
  for (const e of s.events) n += e.name.length + attrsSize(e.attributes);
  return n;
}

/** The size a held log record counts: its body's and attributes' text in characters and {@link ITEM_OVERHEAD}. */
export function heldLogSize(l: StoredLog): number {
  return ITEM_OVERHEAD + textSize(l.body) + attrsSize(l.attributes);
}

/**
 * The decoded spans and log records of the traces this process wrote and has not scored yet, so a
 * trace is scored from what was decoded instead of being read back (the read-back was ≈ a sixth
 * of the streaming scorer's engine time plus a JSON parse of every span; issue 15). At most `max`
 * traces and `maxSize` characters of their text ({@link heldSpanSize}) are held: a trace first seen
 * while the count is reached is not held, and a span that would take the text past its bound drops
 * its trace (either is read back); a held trace still takes its later spans within the bounds.
 * A held trace may still lack spans the store has (written by another process before a
 * rebalance or a restart, or by this one before the trace was held): the scoring loop uses it
 * only when the store's row counts of the trace equal the held ones (`scoreTraces`).
 */
export class HeldTraces implements HeldTraceSource {
  private readonly traces = new Map<string, Entry>();
  #held = 0;

  constructor(
    private readonly max: number,
    private readonly maxSize: number = Number.POSITIVE_INFINITY,
  ) {}

  /** Traces held now. */
  get size(): number {
    return this.traces.size;
  }

  /** What the held traces count against `maxSize` ({@link heldSpanSize}, {@link heldLogSize}). */
  get heldSize(): number {
    return this.#held;
  }

  /** Adds what one write stored (a re-sent span or record replaces the one held, as the store's key does). */
  add(spans: readonly StoredSpan[], logs: readonly StoredLog[]): void {
    for (const s of spans) {
      const e = this.entry(s.trace_id);
      if (e !== null) this.grow(s.trace_id, e, e.spans, s.span_id, { span: s, size: heldSpanSize(s) });
    }
    for (const l of logs) {
      const e = this.entry(l.trace_id);
      if (e !== null) this.grow(l.trace_id, e, e.logs, `${l.span_id}\u0000${l.record_id}`, { log: l, size: heldLogSize(l) });
    }
  }

  get(traceId: string): HeldTrace | null {
    const e = this.traces.get(traceId);
    if (e === undefined) return null;
    return { spans: [...e.spans.values()].map((x) => x.span).sort(spanOrder), logs: [...e.logs.values()].map((x) => x.log).sort(logOrder) };
  }

  /** Drops a trace (scored, or given up). */
  delete(traceId: string): void {
    const e = this.traces.get(traceId);
    if (e === undefined) return;
    this.#held -= e.size;
    this.traces.delete(traceId);
  }

  /** Holds one item of trace `traceId`; when the text held would pass its bound, drops the trace instead. */
  private grow<T extends { readonly size: number }>(traceId: string, e: Entry, items: Map<string, T>, key: string, item: T): void {
    const size = item.size - (items.get(key)?.size ?? 0);
    items.set(key, item);
    e.size += size;
    this.#held += size;
    if (this.#held > this.maxSize) this.delete(traceId);
  }

  private entry(traceId: string): Entry | null {
    const e = this.traces.get(traceId);
    if (e !== undefined) return e;
    if (this.traces.size >= this.max) return null;
    const fresh: Entry = { spans: new Map(), logs: new Map(), size: 0 };
    this.traces.set(traceId, fresh);
    return fresh;
  }
}
