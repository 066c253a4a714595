import type { ScoredTrace } from "@ragmeter/core/scoring/trace";
import type { Store } from "@ragmeter/store/client";
import type { HeldTraces } from "./held.js";
import { prepareTraces, type ScoringSettings, saveScored, scoreSettledTraces } from "./loop.js";

/** What the scoring passes of a scorer work on, and whom they tell. */
export interface PassDeps {
  readonly store: Store;
  readonly scoring: ScoringSettings;
  /** Traces this instance wrote and has not scored since: trace id → when its last span was written. */
  readonly dirty: Map<string, number>;
  /** Their decoded spans, scored from memory when the store has no other rows of them. */
  readonly held: HeldTraces;
  /** Told each batch a pass scored (empty batches of the full scan included). */
  readonly scored: (scored: readonly ScoredTrace[]) => void;
  /** Told how many traces a pass scored, when it completed. */
  readonly passed: (total: number) => void;
  /** True once the scorer stops: a pass ends after its current batch. */
  readonly stopped: () => boolean;
  /** Interval of the full scan for settled, unscored traces, ms. */
  readonly fullScanIntervalMs: number;
}

/** The scoring passes of one scorer, one at a time. */
export interface ScoringPasses {
  /** Runs a pass after the one before it (with a full scan when `full` or when one is due); resolves to the number of traces scored. */
  run(full: boolean): Promise<number>;
  /** The latest pass. */
  current(): Promise<number>;
}

/**
 * The scoring passes (design §6): a full scan of the store's settled traces at start and every
 * `fullScanIntervalMs`, then the traces this instance wrote once their quiet window passed.
 */
export function createScoringPasses(d: PassDeps): ScoringPasses {
  let pass: Promise<number> = Promise.resolve(0);
  let lastFullScan = 0;
  const run = (full: boolean): Promise<number> => {
    // After the pass before it, failed or not: its failure was its caller's (logged by it); chained on
    // a rejected pass, every later pass would fail without running (found by bench:soak, issue 31).
    const previous = pass.catch(() => 0);
    pass = previous.then(async () => {
      let total = 0;
      const now = Date.now();
      if (full || now - lastFullScan >= d.fullScanIntervalMs) {
        // The scan at start (or asked for) takes every settled trace; the periodic ones only those
        // settled two scan intervals past the quiet window: the traces of a live scorer (this one's
        // dirty ones, another's in its partitions) are its own to score, and with a backlog each
        // scorer's scan took the others' settled traces and both scored them (bench:scale, issue 38:
        // 2,809 scorings for 2,000 traces with one scorer). A scorer that died or lost a partition
        // leaves its traces to them after that delay.
        const settleMs = full || lastFullScan === 0 ? d.scoring.quietMs : d.scoring.quietMs + 2 * d.fullScanIntervalMs;
        lastFullScan = now;
        total += await fullScan(d, now, settleMs);
      }
      total += await scoreDirty(d, full);
      d.passed(total);
      return total;
    });
    return pass;
  };
  return { run, current: () => pass };
}

/** Scores the store's traces settled `settleMs` ago, batch after batch; resolves to how many. */
async function fullScan(d: PassDeps, now: number, settleMs: number): Promise<number> {
  let total = 0;
  for (;;) {
    const scored = await scoreSettledTraces(d.store, d.scoring, Date.now(), settleMs);
    // Scored from the store with every span written before the scan: not again by the dirty pass.
    for (const t of scored) {
      const at = d.dirty.get(t.interaction.trace_id);
      if (at !== undefined && at <= now) forget(d, t.interaction.trace_id);
    }
    total += scored.length;
    d.scored(scored);
    if (scored.length < d.scoring.batchSize || d.stopped()) return total;
  }
}

/** A trace leaves the dirty set and the held traces. */
function forget(d: PassDeps, traceId: string): void {
  d.dirty.delete(traceId);
  d.held.delete(traceId);
}

/** A batch being scored and written: its traces with the write time they were taken at. */
type Saving = { readonly due: readonly (readonly [string, number])[]; readonly done: Promise<ScoredTrace[]> };

/**
 * Scores the traces this instance wrote, in batches, two at a time: a batch is scored while the one
 * before it finishes scoring and is written (the writes in order, one at a time), so the judges
 * stay busy across a batch's last traces and the engine writes while the judges work. Resolves to
 * how many were scored.
 */
async function scoreDirty(d: PassDeps, now: boolean): Promise<number> {
  const inFlight = new Set<string>();
  let total = 0;
  const settle = async (s: Saving): Promise<void> => {
    total += await settled(d, s, inFlight);
  };
  let saving: Saving | null = null;
  try {
    for (;;) {
      const due = dueTraces(d, inFlight, now);
      if (due.length === 0) break;
      const previous: Saving | null = saving;
      saving = startSaving(d, due, inFlight, previous);
      if (previous !== null) await settle(previous);
      if (d.stopped()) break;
    }
    const last = saving;
    saving = null;
    if (last !== null) await settle(last);
  } finally {
    // A pass that failed still settles the write it started (its traces leave the dirty set when written).
    if (saving !== null) await settle(saving).catch(() => undefined);
  }
  return total;
}

/**
 * The next batch: dirty traces past their quiet window and not in flight, at most a batch; none yet
 * while the batch is not full and the first of them has been due for less than the batch wait
 * (`batchWaitMs`; `now`, a pass asked for, takes them at once): at a few traces a second a batch is
 * otherwise a handful of traces paying a whole round of statements (issue 38).
 */
function dueTraces(d: PassDeps, inFlight: ReadonlySet<string>, now: boolean): [string, number][] {
  const t = Date.now();
  const cutoff = t - d.scoring.quietMs;
  const due = [...d.dirty].filter(([id, at]) => at <= cutoff && !inFlight.has(id)).slice(0, d.scoring.batchSize);
  const wait = d.scoring.batchWaitMs ?? 0;
  if (now || wait <= 0 || due.length >= d.scoring.batchSize) return due;
  const first = due.reduce((m, [, at]) => Math.min(m, at), Number.POSITIVE_INFINITY);
  return first + d.scoring.quietMs + wait <= t ? due : [];
}

/** Starts scoring a batch now; its write waits for the write of the batch before it. */
function startSaving(d: PassDeps, due: readonly (readonly [string, number])[], inFlight: Set<string>, previous: Saving | null): Saving {
  for (const [id] of due) inFlight.add(id);
  const prepared = prepareTraces(
    d.store,
    d.scoring,
    due.map(([id]) => id),
    d.held,
  );
  // Observed through `done` below; this keeps an early failure from being an unhandled rejection meanwhile.
  prepared.catch(() => undefined);
  const after =
    previous === null
      ? Promise.resolve()
      : previous.done.then(
          () => undefined,
          () => undefined,
        );
  const done: Promise<ScoredTrace[]> = after.then(async () => saveScored(d.store, d.scoring, await prepared));
  // Awaited by its settling; this keeps a failed write from being an unhandled rejection meanwhile.
  done.catch(() => undefined);
  return { due, done };
}

/** Waits for a batch's write, then its traces leave the dirty set (and in-flight set); resolves to how many were scored. */
async function settled(d: PassDeps, s: Saving, inFlight: Set<string>): Promise<number> {
  try {
    const scored = await s.done;
    // A trace that received spans while it was being scored stays dirty (and held) and is scored again.
    for (const [id, at] of s.due) if (d.dirty.get(id) === at) forget(d, id);
    d.scored(scored);
    return scored.length;
  } finally {
    for (const [id] of s.due) inFlight.delete(id);
  }
}
