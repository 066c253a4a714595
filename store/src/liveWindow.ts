import type { Store } from "./client.js";
import type { LiveStreamStats } from "./liveStream.js";
import { deltaFloor, type MinutePartial, maxVersion, mergeMinute } from "./liveWindowDelta.js";
import { type LiveMinuteMark, type LiveWindowRow, type MinuteRows, readMinutes, readWindow, type WindowRead } from "./liveWindowRead.js";
import { type MinuteScores, type ScoreKinds, type ScoreTotal, scoreKinds, scoreTotals } from "./liveWindowScores.js";

/**
 * What `/api/live` reads of a window before its aggregates (design §3, live view): the minutes' marks
 * (`live_minutes_state`, migration 12: which minutes `live_minutes` covers) and, through a
 * {@link LiveWindowCache} kept by the reading process, the window's `live_traces` rows (a few
 * columns) and `live_scores` rows (./liveWindowScores.ts): they give the rows later scorings
 * superseded, the traces' and the live metrics' aggregates, the retrieval overlap of versions and the
 * intervals' samples without a statement reading the window's rows again.
 * A minute's rows are kept while its `touched` mark (the version of its latest write) stays the same:
 * a write to the minute raises it, so a kept minute is never stale. A minute still being written is
 * read again on every call from the version the last call's read of it reached, less the settling
 * time (./liveWindowDelta.ts), and merged with what that call read.
 */

/** The traces of a kept minute of one service and version that the view counts alike: how many. */
interface LiveTraceCount {
  readonly service_name: string;
  readonly pipeline_version: string;
  readonly view_status: string;
  readonly scored: number;
  readonly content_missing: number;
  traces: number;
}

/** The minutes the cache holds: their rows (time order) at the `touched` version they were read at. */
export interface KeptMinute {
  readonly touched: number;
  readonly rows: readonly LiveWindowRow[];
  /** Its rows counted by what the view counts them as, and beside each row the index of its count. */
  readonly views: readonly LiveTraceCount[];
  readonly viewOf: Uint32Array;
  /** Its score rows (key order) and their totals by kind. */
  readonly scores: MinuteScores;
  readonly totals: readonly ScoreTotal[];
}

/**
 * A service's question (its hash) in the kept minutes: the latest row (by time, then trace id) of
 * each version, the Jaccard indexes of pairs of them computed so far, and the pairs of its latest
 * rows while they stay the same (./liveWindowOverlap.ts; undefined once a version's row changed).
 */
export interface KeptQuestion {
  readonly versions: Map<string, LiveWindowRow>;
  readonly jaccard: Map<number, { readonly a: LiveWindowRow; readonly b: LiveWindowRow; readonly j: number }>;
  pairs: readonly KeptPair[] | undefined;
}

/** Two versions' latest rows of a kept question: the pair of versions (a < b) by its number in {@link LiveWindowCache.pairs}, their Jaccard index, the earlier row's time (ms). */
export interface KeptPair {
  readonly ix: number;
  readonly j: number;
  readonly t: number;
}

/** The key of a service and pipeline version. */
export const groupKey = (service: string, version: string): string => `${service}\u0000${version}`;

/** The value of `key` in `map`, set to `make()` first when it has none. */
export function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

/** Whether row `a` is later than row `b` (by time, then trace id: the order of `live_traces`' key). */
export const later = (a: LiveWindowRow, b: LiveWindowRow): boolean => a.t > b.t || (a.t === b.t && a.trace_id > b.trace_id);

/** The rows of recent windows, by minute, kept between calls by the process that serves the live view (one per store). */
export interface LiveWindowCache {
  readonly minutes: Map<number, KeptMinute>;
  /** Rows of each trace id in the kept minutes, and the ids with more than one (a later scoring superseded a row). */
  readonly ids: Map<string, number>;
  readonly multi: Set<string>;
  /** By service, then question hash: the latest row of each version in the kept minutes (rebuilt when a kept minute is replaced: `stale`). */
  readonly questions: Map<string, Map<string, KeptQuestion>>;
  /** By service, its kept questions' hashes in order and each one's entry (gone when a question comes or goes): the overlap adds them up in this order, whatever the cache's history. */
  readonly order: Map<string, { readonly keys: readonly string[]; readonly questions: readonly KeptQuestion[] }>;
  /** Pairs of versions (a < b), numbered as first seen: `ids` by a, then b; `list` by number. */
  readonly pairs: { readonly ids: Map<string, Map<string, number>>; readonly list: { readonly a: string; readonly b: string }[] };
  stale: boolean;
  /** Strings seen in rows (service names, versions, document ids), one copy each. */
  readonly strings: Map<string, string>;
  /** The kinds of score of the kept score rows (./liveWindowScores.ts). */
  readonly kinds: ScoreKinds;
  /** Window starts of recent calls (ms) by the time of the call (ms): minutes before the earliest are let go. */
  readonly starts: { at: number; since: number }[];
  /** A minute's rows are kept once its latest write is this old (ms): those rows have landed. */
  readonly settleMs: number;
  /** Above this many trace rows, or score rows, in a window, the cache is not used (the window's statements read them). */
  readonly maxRows: number;
  readonly maxScores: number;
  /** Minutes of the windows of calls this recent (ms) are kept. */
  readonly keepMs: number;
  /**
   * What the last call saw: its minutes not kept (still being written) and its latest minute (s). The
   * next call reads their rows, and those of any later minute, with the marks (one statement); the
   * marks may name other minutes to read (a second statement).
   */
  readonly pending: Set<number>;
  /** What the last call read of its minutes not kept: the next reads each from {@link deltaFloor} on. */
  readonly partial: Map<number, MinutePartial>;
  latest: number | undefined;
  /** The time now, ms since the epoch (the store's versions are µs of the same clock). */
  readonly clock: () => number;
}

/** Above this many traces in a window the live view reads the window's ids and documents with statements instead (bounds the cache's memory: about 300 bytes a row). */
const LIVE_WINDOW_CACHE_ROWS = 300_000;
/** Above this many scores (rows of `live_scores` with a status) in a window, the same (60 bytes a row: four live metrics of the traces above). */
const LIVE_WINDOW_CACHE_SCORES = 1_200_000;
/** A minute is kept once its latest write is this old (ms; as the minutes' aggregates, ./liveMinutes.ts). */
const LIVE_WINDOW_SETTLE_MS = 5_000;
/** Minutes of the windows served over this long (ms) are kept: a page showing the last day beside one showing the last hour keeps the day. */
const LIVE_WINDOW_KEEP_MS = 600_000;

/** A cache of the live view's window rows (one per process and store; the read API's reader holds it). */
export function liveWindowCache(o: { settleMs?: number; maxRows?: number; maxScores?: number; keepMs?: number; clock?: () => number } = {}): LiveWindowCache {
  return {
    minutes: new Map(),
    ids: new Map(),
    multi: new Set(),
    questions: new Map(),
    order: new Map(),
    pairs: { ids: new Map(), list: [] },
    stale: false,
    strings: new Map(),
    kinds: scoreKinds(),
    starts: [],
    settleMs: o.settleMs ?? LIVE_WINDOW_SETTLE_MS,
    maxRows: o.maxRows ?? LIVE_WINDOW_CACHE_ROWS,
    maxScores: o.maxScores ?? LIVE_WINDOW_CACHE_SCORES,
    keepMs: o.keepMs ?? LIVE_WINDOW_KEEP_MS,
    pending: new Set(),
    partial: new Map(),
    latest: undefined,
    clock: o.clock ?? Date.now,
  };
}

/** Keeps a minute's rows (replacing those kept of it). */
function keep(cache: LiveWindowCache, minute: number, read: MinuteRows, touched: number): void {
  drop(cache, minute, false);
  const rows = read.rows;
  for (const r of rows) {
    const n = (cache.ids.get(r.trace_id) ?? 0) + 1;
    cache.ids.set(r.trace_id, n);
    if (n > 1) cache.multi.add(r.trace_id);
    if (!cache.stale) question(cache, r);
  }
  const views = new Map<string, number>();
  const counts: LiveTraceCount[] = [];
  const viewOf = new Uint32Array(rows.length);
  rows.forEach((r, i) => {
    const k = `${r.service_name}\u0000${r.pipeline_version}\u0000${r.view_status}\u0000${r.scored}\u0000${r.content_missing}`;
    const at = entry(views, k, () => counts.push({ ...viewOfRow(r), traces: 0 }) - 1);
    (counts[at] as LiveTraceCount).traces++;
    viewOf[i] = at;
  });
  cache.minutes.set(minute, { touched, rows, views: counts, viewOf, scores: read.scores, totals: scoreTotals(read.scores, 0, read.scores.n) });
}

/** What the view counts a row as. */
function viewOfRow(r: LiveWindowRow): Omit<LiveTraceCount, "traces"> {
  return { service_name: r.service_name, pipeline_version: r.pipeline_version, view_status: r.view_status, scored: r.scored, content_missing: r.content_missing };
}

/** Counts a kept row in the latest rows of its question, by version. */
export function question(cache: LiveWindowCache, r: LiveWindowRow): void {
  if (r.question_hash === "0") return;
  const of = entry(cache.questions, r.service_name, () => new Map<string, KeptQuestion>());
  let q = of.get(r.question_hash);
  if (q === undefined) {
    q = { versions: new Map(), jaccard: new Map(), pairs: undefined };
    of.set(r.question_hash, q);
    cache.order.delete(r.service_name);
  }
  const prev = q.versions.get(r.pipeline_version);
  if (prev === undefined || later(r, prev)) {
    q.versions.set(r.pipeline_version, r);
    q.pairs = undefined;
  }
}

/**
 * Lets a kept minute go: the oldest minutes when no window served lately reaches them (`evicted`: the
 * latest rows of their questions are then the oldest of those kept, and go with them), or one whose
 * rows changed (the latest rows of their questions are computed again before they are next used).
 */
function drop(cache: LiveWindowCache, minute: number, evicted: boolean): void {
  const kept = cache.minutes.get(minute);
  if (kept === undefined) return;
  cache.minutes.delete(minute);
  if (!evicted) cache.stale = true;
  for (const r of kept.rows) {
    const n = (cache.ids.get(r.trace_id) ?? 1) - 1;
    if (n === 0) cache.ids.delete(r.trace_id);
    else cache.ids.set(r.trace_id, n);
    if (n <= 1) cache.multi.delete(r.trace_id);
    if (evicted && !cache.stale) unlatest(cache, r);
  }
}

/** Lets an evicted row go from the latest rows of its question (it is the oldest kept: no other row of its version is left). */
function unlatest(cache: LiveWindowCache, r: LiveWindowRow): void {
  if (r.question_hash === "0") return;
  const q = cache.questions.get(r.service_name)?.get(r.question_hash);
  if (q === undefined || q.versions.get(r.pipeline_version) !== r) return;
  q.versions.delete(r.pipeline_version);
  q.pairs = undefined;
  if (q.versions.size > 0) return;
  cache.questions.get(r.service_name)?.delete(r.question_hash);
  cache.order.delete(r.service_name);
}

/** What {@link readLiveWindow} returns. */
export interface LiveWindow {
  /** The marks of the window's minutes (from the one holding its start). */
  readonly marks: readonly LiveMinuteMark[];
  /** The stream's counters over the window's minutes (read with the marks). */
  readonly stream: LiveStreamStats;
  /**
   * The window's `live_traces` rows (every scoring's row: superseded ones too; FINAL), by minute in
   * time order, the first minute's rows before the window's start left out; null when no cache was
   * given or the window holds more than the cache's `maxRows` (or `maxScores` scores).
   */
  readonly rows: readonly (readonly LiveWindowRow[])[] | null;
  /** With `rows`: the keys (`trace_id:version`) of the window's rows a later scoring of their trace superseded, their minutes (s) and their questions' hashes. */
  readonly superseded?: { readonly keys: readonly string[]; readonly minutes: readonly number[]; readonly questions?: readonly string[] };
  /**
   * With `rows`, beside each minute: its start (s), its score rows (./liveWindowScores.ts; every one
   * of the minute, the first minute's before the window's start too), and what the cache keeps of it
   * when it is kept (its counts and totals are the whole minute's; `rows` of the first minute are the
   * end of the kept rows), else null.
   */
  readonly minutes?: readonly number[];
  readonly scores?: readonly MinuteScores[];
  readonly kept?: readonly (KeptMinute | null)[];
  /** With `rows`: those of minutes not kept (still being written). */
  readonly unkept?: readonly LiveWindowRow[];
}

/**
 * The window's minute marks, the stream's counters and, with a cache, its rows: the rows of minutes
 * the cache holds at their current `touched` mark come from it, the others are read (one statement)
 * and kept once settled (their latest write {@link LiveWindowCache.settleMs} old by the store's
 * version clock and its rows landed: a trace row of that version read, written after its scores).
 */
export async function readLiveWindow(store: Store, cache: LiveWindowCache | undefined, sinceMs: number): Promise<LiveWindow> {
  const limits = { traces: cache?.maxRows ?? 0, scores: cache?.maxScores ?? 0 };
  if (cache === undefined) {
    const { marks, stream } = await readWindow(store, sinceMs, [], new Map(), scoreKinds(), limits);
    return { marks, stream, rows: null };
  }
  const nowMs = cache.clock();
  evict(cache, nowMs, sinceMs);
  const guess = guessed(cache, sinceMs, nowMs);
  // What this call merges its reads with, taken before it waits: another call on the cache may replace it meanwhile.
  const partials = new Map([...cache.partial].filter(([m]) => guess.includes(m)));
  const first = await readWindow(store, sinceMs, guess, cache.strings, cache.kinds, limits, floors(partials, cache.settleMs));
  const { marks, stream } = first;
  if (marks.reduce((a, m) => a + m.traces, 0) > cache.maxRows || first.read === null) return { marks, stream, rows: null };
  const settled = (nowMs - cache.settleMs) * 1000;
  const known = new Set(guess);
  const stale = marks.filter((m) => !known.has(m.minute) && cache.minutes.get(m.minute)?.touched !== m.touched).map((m) => m.minute);
  stale.push(...merged(first, partials, marks, settled, cache.kinds));
  const more = await readMinutes(store, stale, cache.strings, cache.kinds, limits);
  if (more === null) return { marks, stream, rows: null };
  for (const [m, x] of more) first.read.set(m, x);
  const window = assemble(cache, marks, first.read, sinceMs, settled);
  remember(cache, marks, first.read);
  cache.latest = marks.reduce<number | undefined>((a, m) => (a === undefined || m.minute > a ? m.minute : a), cache.latest);
  if (window.rows.reduce((a, xs) => a + xs.length, 0) > cache.maxRows || window.scores.reduce((a, x) => a + x.n, 0) > cache.maxScores) {
    for (const m of [...cache.minutes.keys()]) drop(cache, m, false);
    return { marks, stream, rows: null };
  }
  const several = severalRows(cache, window.unkept);
  return { marks, stream, ...window, superseded: several.size === 0 ? { keys: [], minutes: [] } : superseded(window.rows, several) };
}

/** The minutes a call reads from a version on: each from its {@link deltaFloor} (minute, s → version, µs). */
function floors(partials: ReadonlyMap<number, MinutePartial>, settleMs: number): Map<number, number> {
  return new Map([...partials].map(([m, p]) => [m, deltaFloor(p, settleMs)]));
}

/**
 * Merges each minute read from a version on (`read.deltas`) with what the last call read of it into
 * `read.read`, but for a minute this call keeps (settled by its mark): those are returned, to be read
 * whole, so a kept minute always rests on a whole read (a write slower than the settling time shows
 * in it; in a minute still being written, from the read after it settles).
 */
function merged(read: WindowRead, partials: ReadonlyMap<number, MinutePartial>, marks: readonly LiveMinuteMark[], settled: number, kinds: LiveWindowCache["kinds"]): number[] {
  const whole: number[] = [];
  const touched = new Map(marks.map((m) => [m.minute, m.touched]));
  for (const [m, delta] of read.deltas) {
    if ((touched.get(m) ?? Number.POSITIVE_INFINITY) <= settled) whole.push(m);
    else read.read?.set(m, mergeMinute(partials.get(m) as MinutePartial, delta, kinds));
  }
  return whole;
}

/** What the next call reads with the marks: this call's minutes not kept, with what was read of them. */
function remember(cache: LiveWindowCache, marks: readonly LiveMinuteMark[], read: ReadonlyMap<number, MinuteRows>): void {
  cache.pending.clear();
  cache.partial.clear();
  for (const m of marks) {
    if (cache.minutes.has(m.minute)) continue;
    cache.pending.add(m.minute);
    const rows = read.get(m.minute);
    if (rows !== undefined) cache.partial.set(m.minute, { rows: rows.rows, scores: rows.scores, max: maxVersion(rows) });
  }
}

/**
 * The minutes (s) whose rows a call reads with the marks, before it knows them: those of the window
 * the last call saw not kept, and every minute after the last call's latest up to the one of `nowMs`
 * (none on a first call: the marks name what to read).
 */
function guessed(cache: LiveWindowCache, sinceMs: number, nowMs: number): number[] {
  if (cache.latest === undefined) return [];
  const from = Math.floor(sinceMs / 60_000) * 60;
  const out = [...cache.pending].filter((m) => m >= from && !cache.minutes.has(m));
  for (let m = Math.max(cache.latest + 60, from); m <= Math.floor(nowMs / 60_000) * 60; m += 60) out.push(m);
  return out;
}

/** Lets go the kept minutes that no window served in the last {@link LiveWindowCache.keepMs} reaches (this call's included). */
function evict(cache: LiveWindowCache, nowMs: number, sinceMs: number): void {
  cache.starts.push({ at: nowMs, since: sinceMs });
  while ((cache.starts[0] as { at: number }).at < nowMs - cache.keepMs) cache.starts.shift();
  const keepFrom = Math.min(...cache.starts.map((s) => s.since)) - 60_000;
  for (const m of [...cache.minutes.keys()]) if (m * 1000 < keepFrom) drop(cache, m, true);
}

/** The window's rows by minute (kept, or `read` now and kept when `settled`: their touched version at or below it), what the cache keeps of each minute, the rows not kept. */
function assemble(
  cache: LiveWindowCache,
  marks: LiveMinuteMark[],
  read: ReadonlyMap<number, MinuteRows>,
  sinceMs: number,
  settled: number,
): {
  rows: (readonly LiveWindowRow[])[];
  minutes: number[];
  scores: MinuteScores[];
  kept: (KeptMinute | null)[];
  unkept: LiveWindowRow[];
} {
  const out = { rows: [], minutes: [], scores: [], kept: [], unkept: [] } as ReturnType<typeof assemble>;
  for (const m of marks.sort((a, b) => a.minute - b.minute)) {
    const fresh = read.get(m.minute);
    if (fresh !== undefined && m.touched <= settled && fresh.rows.some((r) => r.version === m.touched)) keep(cache, m.minute, fresh, m.touched);
    else if (fresh !== undefined) {
      drop(cache, m.minute, false);
      out.unkept.push(...fresh.rows.filter((r) => r.t >= sinceMs));
    }
    const at = fresh ?? (cache.minutes.get(m.minute) as KeptMinute);
    const whole = m.minute * 1000 >= sinceMs;
    out.rows.push(whole ? at.rows : at.rows.filter((r) => r.t >= sinceMs));
    out.scores.push(at.scores);
    out.minutes.push(m.minute);
    out.kept.push(cache.minutes.get(m.minute) ?? null);
  }
  return out;
}

/** Traces with more than one row: among the kept minutes, or a row not kept (`unkept`) and another. */
function severalRows(cache: LiveWindowCache, unkept: readonly LiveWindowRow[]): Set<string> {
  const seen = new Set<string>();
  const several = new Set(cache.multi);
  for (const r of unkept) {
    if (seen.has(r.trace_id) || cache.ids.has(r.trace_id)) several.add(r.trace_id);
    seen.add(r.trace_id);
  }
  return several;
}

/** The window's rows (`rows`) of the traces `several` that a later scoring of their trace (a higher version) superseded: their keys (`trace_id:version`), minutes (s) and questions' hashes. */
function superseded(rows: readonly (readonly LiveWindowRow[])[], several: ReadonlySet<string>): { keys: string[]; minutes: number[]; questions: string[] } {
  const of = new Map<string, LiveWindowRow[]>();
  for (const xs of rows) for (const r of xs) if (several.has(r.trace_id)) entry(of, r.trace_id, () => []).push(r);
  const keys: string[] = [];
  const minutes = new Set<number>();
  const questions = new Set<string>();
  for (const list of of.values()) {
    const latest = Math.max(...list.map((r) => r.version));
    for (const r of list) {
      if (r.version >= latest) continue;
      keys.push(`${r.trace_id}:${r.version}`);
      minutes.add(Math.floor(r.t / 60_000) * 60);
      questions.add(r.question_hash);
    }
  }
  return { keys: keys.sort(), minutes: [...minutes].sort((a, b) => a - b), questions: [...questions].sort() };
}
