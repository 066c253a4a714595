import type { LiveWindowRow, MinuteDelta, MinuteRows } from "./liveWindowRead.js";
import { type MinuteScores, MinuteScoresBuilder, type ScoreKinds, type ScoreRowIn } from "./liveWindowScores.js";

/**
 * A minute still being written, read again on every call of the live view (./liveWindow.ts): the
 * reader keeps what it read of it last (`MinutePartial`) and reads only its rows of a version at or
 * above {@link deltaFloor} (`MinuteDelta`), merged here into what a read of the whole minute gives.
 * The merge takes, per key (`live_traces`: time, trace id; `live_scores`: time, trace id, metric),
 * the row of the highest version, as FINAL does, and drops a score whose latest row has no status
 * (a later scoring without that metric), as the whole read's `status != ''` does.
 */

/** What the reader keeps of a minute it read and did not keep: its rows as read and their highest version (µs). */
export interface MinutePartial {
  readonly rows: readonly LiveWindowRow[];
  readonly scores: MinuteScores;
  readonly max: number;
}

/**
 * The version (µs) from which a minute's rows are read again: the highest version read of it, less
 * `settleMs`. A row not yet landed when the minute was read has a version above the time of that
 * read less `settleMs` (the assumption a kept minute rests on: a write lands within `settleMs` of
 * its version), and the highest version read is at or below the time of the read.
 */
export const deltaFloor = (p: MinutePartial, settleMs: number): number => p.max - settleMs * 1000;

/** The highest version of a minute's rows read (0: none). */
export function maxVersion(m: MinuteRows): number {
  let max = 0;
  for (const r of m.rows) if (r.version > max) max = r.version;
  for (let i = 0; i < m.scores.n; i++) if ((m.scores.version[i] as number) > max) max = m.scores.version[i] as number;
  return max;
}

/** Strings compared as the engine orders them (bytes of UTF-8; UTF-16 code units give the same order below the surrogates). */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  if (/[\ud800-\uffff]/u.test(a) || /[\ud800-\uffff]/u.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : 1;
}

/** Order of two keys (time, then trace id, then metric when given). */
function compareKeys(ta: number, ida: string, ma: string, tb: number, idb: string, mb: string): number {
  if (ta !== tb) return ta < tb ? -1 : 1;
  const c = compareStrings(ida, idb);
  return c !== 0 ? c : compareStrings(ma, mb);
}

/**
 * Walks two lists in key order (`n` kept, `m` read), `compare` ordering kept row i against read row
 * j; `emit` gets each key's rows: a kept row, a read one, or both when the key is in both.
 */
function walk(n: number, m: number, compare: (i: number, j: number) => number, emit: (i: number | undefined, j: number | undefined) => void): void {
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const c = i >= n ? 1 : j >= m ? -1 : compare(i, j);
    emit(c <= 0 ? i : undefined, c >= 0 ? j : undefined);
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
}

/** The trace rows of the minute: the kept ones and the delta's merged in key order, the higher version for a key read in both. */
function mergeRows(kept: readonly LiveWindowRow[], delta: readonly LiveWindowRow[]): LiveWindowRow[] {
  if (delta.length === 0) return [...kept];
  const out: LiveWindowRow[] = [];
  walk(
    kept.length,
    delta.length,
    (i, j) => compareKeys((kept[i] as LiveWindowRow).t, (kept[i] as LiveWindowRow).trace_id, "", (delta[j] as LiveWindowRow).t, (delta[j] as LiveWindowRow).trace_id, ""),
    (i, j) => {
      const a = i === undefined ? undefined : kept[i];
      const b = j === undefined ? undefined : delta[j];
      out.push((b === undefined || (a !== undefined && a.version > b.version) ? a : b) as LiveWindowRow);
    },
  );
  return out;
}

/** The score rows of the minute: the kept ones and the delta's merged in key order, the higher version for a key, none where that has no status. */
function mergeScores(kept: MinuteScores, delta: readonly ScoreRowIn[], kinds: ScoreKinds): MinuteScores {
  if (delta.length === 0) return kept;
  const out = new MinuteScoresBuilder(kinds);
  const metricOf = (i: number): string => (kinds.list[kept.kind[i] as number] as { metric: string }).metric;
  walk(
    kept.n,
    delta.length,
    (i, j) => {
      const b = delta[j] as ScoreRowIn;
      return compareKeys(kept.t[i] as number, kept.trace[i] as string, metricOf(i), b.t, b.trace_id, b.metric);
    },
    (i, j) => {
      const b = j === undefined ? undefined : delta[j];
      if (i !== undefined && (b === undefined || (kept.version[i] as number) > b.version)) out.pushKept(kept, i);
      else if (b !== undefined && b.status !== "") out.push(b, b.trace_id);
    },
  );
  return out.build();
}

/** The minute as a read of all its rows gives it: what was kept of it with the delta merged in. */
export function mergeMinute(kept: MinutePartial, delta: MinuteDelta, kinds: ScoreKinds): MinuteRows {
  return { rows: mergeRows(kept.rows, delta.rows), scores: mergeScores(kept.scores, delta.scores, kinds) };
}
