import type { Store } from "./client.js";

/**
 * What `/api/live` reads of a window before its aggregates (design §3, live view): the minutes' marks
 * (`live_minutes_state`, migration 12: which minutes `live_minutes` covers) and, through a
 * {@link LiveWindowCache} kept by the reading process, the window's `live_traces` rows (a few
 * columns): they give the rows later scorings superseded, the retrieval overlap of versions and where
 * the intervals' sample starts without a statement reading every id or document list of the window.
 * A minute's rows are kept while its `touched` mark (the version of its latest write) stays the same:
 * a write to the minute raises it, so a kept minute is never stale; the rows of a minute still being
 * written are read again on every call.
 */

/** A row of `live_traces` as the window cache keeps it (FINAL: one per key). */
export interface LiveWindowRow {
  readonly trace_id: string;
  /** `created_at`, ms since the epoch. */
  readonly t: number;
  readonly service_name: string;
  readonly pipeline_version: string;
  /** `question_hash` as a decimal string ("0": no question). */
  readonly question_hash: string;
  readonly documents: readonly string[];
  /** 1 when a live metric's score is `ok`. */
  readonly scored: number;
  /** What the view counts the trace as (`live_traces`' `view_status`, `content_missing`). */
  readonly view_status: string;
  readonly content_missing: number;
  readonly version: number;
}

/** The traces of a kept minute of one service and version that the view counts alike: how many. */
interface LiveTraceCount {
  readonly service_name: string;
  readonly pipeline_version: string;
  readonly view_status: string;
  readonly scored: number;
  readonly content_missing: number;
  traces: number;
}

/** A minute of the window (s) with its marks: the version of its latest write and the one its aggregates cover (0: none), and the traces they count. */
export interface LiveMinuteMark {
  readonly minute: number;
  readonly touched: number;
  readonly covered: number;
  readonly traces: number;
}

/** The minutes the cache holds: their rows (time order) at the `touched` version they were read at, and their scored rows by service and version ({@link groupKey}). */
export interface KeptMinute {
  readonly touched: number;
  readonly rows: readonly LiveWindowRow[];
  readonly scored: ReadonlyMap<string, number>;
  /** Its rows counted by what the view counts them as. */
  readonly views: readonly LiveTraceCount[];
}

/** A service's question (its hash) in the kept minutes: the latest row (by time, then trace id) of each version, and the Jaccard indexes of pairs of them computed so far. */
export interface KeptQuestion {
  readonly versions: Map<string, LiveWindowRow>;
  readonly jaccard: Map<string, { readonly a: LiveWindowRow; readonly b: LiveWindowRow; readonly j: number }>;
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
  stale: boolean;
  /** Strings seen in rows (service names, versions, document ids), one copy each. */
  readonly strings: Map<string, string>;
  /** Window starts of recent calls (ms) by the time of the call (ms): minutes before the earliest are let go. */
  readonly starts: { at: number; since: number }[];
  /** A minute's rows are kept once its latest write is this old (ms): those rows have landed. */
  readonly settleMs: number;
  /** Above this many rows in a window, the cache is not used (the window's statements read them). */
  readonly maxRows: number;
  /** Minutes of the windows of calls this recent (ms) are kept. */
  readonly keepMs: number;
  /** The time now, ms since the epoch (the store's versions are µs of the same clock). */
  readonly clock: () => number;
}

/** Above this many traces in a window the live view reads the window's ids and documents with statements instead (bounds the cache's memory: about 300 bytes a row). */
const LIVE_WINDOW_CACHE_ROWS = 300_000;
/** A minute is kept once its latest write is this old (ms; as the minutes' aggregates, ./liveMinutes.ts). */
const LIVE_WINDOW_SETTLE_MS = 5_000;
/** Minutes of the windows served over this long (ms) are kept: a page showing the last day beside one showing the last hour keeps the day. */
const LIVE_WINDOW_KEEP_MS = 600_000;

/** A cache of the live view's window rows (one per process and store; the read API's reader holds it). */
export function liveWindowCache(o: { settleMs?: number; maxRows?: number; keepMs?: number; clock?: () => number } = {}): LiveWindowCache {
  return {
    minutes: new Map(),
    ids: new Map(),
    multi: new Set(),
    questions: new Map(),
    stale: false,
    strings: new Map(),
    starts: [],
    settleMs: o.settleMs ?? LIVE_WINDOW_SETTLE_MS,
    maxRows: o.maxRows ?? LIVE_WINDOW_CACHE_ROWS,
    keepMs: o.keepMs ?? LIVE_WINDOW_KEEP_MS,
    clock: o.clock ?? Date.now,
  };
}

/** Keeps a minute's rows (replacing those kept of it). */
function keep(cache: LiveWindowCache, minute: number, rows: readonly LiveWindowRow[], touched: number): void {
  drop(cache, minute, false);
  const scored = new Map<string, number>();
  for (const r of rows) {
    const n = (cache.ids.get(r.trace_id) ?? 0) + 1;
    cache.ids.set(r.trace_id, n);
    if (n > 1) cache.multi.add(r.trace_id);
    if (r.scored === 1) scored.set(groupKey(r.service_name, r.pipeline_version), (scored.get(groupKey(r.service_name, r.pipeline_version)) ?? 0) + 1);
    if (!cache.stale) question(cache, r);
  }
  const views = new Map<string, LiveTraceCount>();
  for (const r of rows) {
    const k = `${r.service_name}\u0000${r.pipeline_version}\u0000${r.view_status}\u0000${r.scored}\u0000${r.content_missing}`;
    entry(views, k, () => ({
      service_name: r.service_name,
      pipeline_version: r.pipeline_version,
      view_status: r.view_status,
      scored: r.scored,
      content_missing: r.content_missing,
      traces: 0,
    })).traces++;
  }
  cache.minutes.set(minute, { touched, rows, scored, views: [...views.values()] });
}

/** Counts a kept row in the latest rows of its question, by version. */
export function question(cache: LiveWindowCache, r: LiveWindowRow): void {
  if (r.question_hash === "0") return;
  const q = entry(
    entry(cache.questions, r.service_name, () => new Map<string, KeptQuestion>()),
    r.question_hash,
    () => ({ versions: new Map(), jaccard: new Map() }),
  );
  const prev = q.versions.get(r.pipeline_version);
  if (prev === undefined || later(r, prev)) q.versions.set(r.pipeline_version, r);
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
    if (evicted && !cache.stale && r.question_hash !== "0") {
      const q = cache.questions.get(r.service_name)?.get(r.question_hash);
      if (q?.versions.get(r.pipeline_version) === r) q.versions.delete(r.pipeline_version);
      if (q !== undefined && q.versions.size === 0) cache.questions.get(r.service_name)?.delete(r.question_hash);
    }
  }
}

/** The marks of the minutes from the one holding `sinceMs` on (one statement). */
async function minuteMarks(store: Store, sinceMs: number): Promise<LiveMinuteMark[]> {
  const rs = await store.client.query({
    query: `SELECT toUInt32(toUnixTimestamp(minute)), maxIf(version, kind = 'touched'), maxIf(covers, kind = 'computed'), argMaxIf(traces, covers, kind = 'computed')
      FROM ${store.database}.live_minutes_state WHERE minute >= toStartOfMinute(fromUnixTimestamp64Milli({since:Int64}, 'UTC')) GROUP BY minute`,
    query_params: { since: sinceMs },
    format: "JSONCompactEachRow",
  });
  // Versions are µs since the epoch: exact as numbers until 2255.
  return (await rs.json<[number | string, number | string, number | string, number | string]>()).map(([m, t, c, n]) => ({
    minute: Number(m),
    touched: Number(t),
    covered: Number(c),
    traces: Number(n),
  }));
}

/** A condition on `created_at` selecting the given minutes (s), consecutive ones merged into a range. */
function minutesCondition(minutes: readonly number[]): string {
  const sorted = [...minutes].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const m of sorted) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === m) last[1] = m + 60;
    else ranges.push([m, m + 60]);
  }
  const at = (s: number) => `toDateTime64(${Math.trunc(s)}, 3, 'UTC')`;
  return ranges.map(([a, b]) => `(created_at >= ${at(a)} AND created_at < ${at(b)})`).join(" OR ");
}

type RawRow = [string, number | string, string, string, string, string[], number | string, number | string, string, number | string];

/** The rows of the given minutes (s), FINAL, in time order (one statement); null when they are more than `limit`. */
async function readMinutes(store: Store, minutes: readonly number[], strings: Map<string, string>, limit: number): Promise<Map<number, LiveWindowRow[]> | null> {
  const byMinute = new Map<number, LiveWindowRow[]>(minutes.map((m) => [m, []]));
  if (minutes.length === 0) return byMinute;
  const rs = await store.client.query({
    query: `SELECT trace_id, toUnixTimestamp64Milli(created_at), service_name, pipeline_version, toString(question_hash), documents, scored, version, toString(view_status), content_missing
      FROM ${store.database}.live_traces FINAL WHERE ${minutesCondition(minutes)} ORDER BY created_at, trace_id LIMIT {limit:UInt32}`,
    query_params: { limit: limit + 1 },
    format: "JSONCompactEachRow",
  });
  const raw = await rs.json<RawRow>();
  if (raw.length > limit) return null;
  const one = (s: string): string => {
    const x = strings.get(s);
    if (x !== undefined) return x;
    strings.set(s, s);
    return s;
  };
  for (const r of raw) {
    if (!Array.isArray(r) || r.length !== 10 || typeof r[0] !== "string" || !Array.isArray(r[5]) || typeof r[8] !== "string") {
      throw new Error(`live window: unexpected row ${JSON.stringify(r).slice(0, 200)}`);
    }
    const t = Number(r[1]);
    const row: LiveWindowRow = {
      trace_id: r[0],
      t,
      service_name: one(r[2]),
      pipeline_version: one(r[3]),
      question_hash: r[4],
      documents: r[5].map(one),
      scored: Number(r[6]),
      view_status: one(r[8]),
      content_missing: Number(r[9]),
      version: Number(r[7]),
    };
    byMinute.get(Math.floor(t / 60_000) * 60)?.push(row);
  }
  return byMinute;
}

/** What {@link readLiveWindow} returns. */
export interface LiveWindow {
  /** The marks of the window's minutes (from the one holding its start). */
  readonly marks: readonly LiveMinuteMark[];
  /**
   * The window's `live_traces` rows (every scoring's row: superseded ones too; FINAL), by minute in
   * time order, the first minute's rows before the window's start left out; null when no cache was
   * given or the window holds more than the cache's `maxRows`.
   */
  readonly rows: readonly (readonly LiveWindowRow[])[] | null;
  /** With `rows`: the keys (`trace_id:version`) of the window's rows a later scoring of their trace superseded, and their minutes (s). */
  readonly superseded?: { readonly keys: readonly string[]; readonly minutes: readonly number[] };
  /** With `rows`, beside each minute: its scored rows by service and version ({@link groupKey}) when it is kept and wholly in the window, else null (count its rows). */
  readonly scored?: readonly (ReadonlyMap<string, number> | null)[];
  /** With `rows`, beside each minute: its start (s), and its rows counted by what the view counts them as when it is kept and wholly in the window, else null (count its rows). */
  readonly minutes?: readonly number[];
  readonly views?: readonly (readonly LiveTraceCount[] | null)[];
  /** With `rows`: those of minutes not kept (still being written). */
  readonly unkept?: readonly LiveWindowRow[];
}

/**
 * The window's minute marks and, with a cache, its rows: the rows of minutes the cache holds at their
 * current `touched` mark come from it, the others are read (one statement) and kept once settled
 * (their latest write {@link LiveWindowCache.settleMs} old by the store's version clock and its rows
 * landed: a row of that version read).
 */
export async function readLiveWindow(store: Store, cache: LiveWindowCache | undefined, sinceMs: number): Promise<LiveWindow> {
  const marks = await minuteMarks(store, sinceMs);
  if (cache === undefined) return { marks, rows: null };
  const nowMs = cache.clock();
  evict(cache, nowMs, sinceMs);
  if (marks.reduce((a, m) => a + m.traces, 0) > cache.maxRows) return { marks, rows: null };
  const stale = marks.filter((m) => cache.minutes.get(m.minute)?.touched !== m.touched).map((m) => m.minute);
  const read = await readMinutes(store, stale, cache.strings, cache.maxRows);
  if (read === null) return { marks, rows: null };
  const window = assemble(cache, marks, read, sinceMs, (nowMs - cache.settleMs) * 1000);
  if (window.rows.reduce((a, xs) => a + xs.length, 0) > cache.maxRows) {
    for (const m of [...cache.minutes.keys()]) drop(cache, m, false);
    return { marks, rows: null };
  }
  const several = severalRows(cache, window.unkept);
  return { marks, ...window, superseded: several.size === 0 ? { keys: [], minutes: [] } : superseded(window.rows, several) };
}

/** Lets go the kept minutes that no window served in the last {@link LiveWindowCache.keepMs} reaches (this call's included). */
function evict(cache: LiveWindowCache, nowMs: number, sinceMs: number): void {
  cache.starts.push({ at: nowMs, since: sinceMs });
  while ((cache.starts[0] as { at: number }).at < nowMs - cache.keepMs) cache.starts.shift();
  const keepFrom = Math.min(...cache.starts.map((s) => s.since)) - 60_000;
  for (const m of [...cache.minutes.keys()]) if (m * 1000 < keepFrom) drop(cache, m, true);
}

/** The window's rows by minute (kept, or `read` now and kept when `settled`: their touched version at or below it), each kept minute's scored counts, the rows not kept. */
function assemble(
  cache: LiveWindowCache,
  marks: LiveMinuteMark[],
  read: ReadonlyMap<number, LiveWindowRow[]>,
  sinceMs: number,
  settled: number,
): {
  rows: (readonly LiveWindowRow[])[];
  scored: (ReadonlyMap<string, number> | null)[];
  minutes: number[];
  views: (readonly LiveTraceCount[] | null)[];
  unkept: LiveWindowRow[];
} {
  const rows: (readonly LiveWindowRow[])[] = [];
  const scored: (ReadonlyMap<string, number> | null)[] = [];
  const views: (readonly LiveTraceCount[] | null)[] = [];
  const unkept: LiveWindowRow[] = [];
  for (const m of marks.sort((a, b) => a.minute - b.minute)) {
    const fresh = read.get(m.minute);
    if (fresh !== undefined && m.touched <= settled && fresh.some((r) => r.version === m.touched)) keep(cache, m.minute, fresh, m.touched);
    else if (fresh !== undefined) {
      drop(cache, m.minute, false);
      unkept.push(...fresh.filter((r) => r.t >= sinceMs));
    }
    const xs = fresh ?? (cache.minutes.get(m.minute) as KeptMinute).rows;
    const whole = m.minute * 1000 >= sinceMs;
    rows.push(whole ? xs : xs.filter((r) => r.t >= sinceMs));
    const kept = whole ? cache.minutes.get(m.minute) : undefined;
    scored.push(kept?.scored ?? null);
    views.push(kept?.views ?? null);
  }
  return { rows, scored, minutes: marks.map((m) => m.minute), views, unkept };
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

/** The window's rows (`rows`) of the traces `several` that a later scoring of their trace (a higher version) superseded: their keys (`trace_id:version`) and minutes (s). */
function superseded(rows: readonly (readonly LiveWindowRow[])[], several: ReadonlySet<string>): { keys: string[]; minutes: number[] } {
  const of = new Map<string, LiveWindowRow[]>();
  for (const xs of rows) for (const r of xs) if (several.has(r.trace_id)) entry(of, r.trace_id, () => []).push(r);
  const keys: string[] = [];
  const minutes = new Set<number>();
  for (const list of of.values()) {
    const latest = Math.max(...list.map((r) => r.version));
    for (const r of list) {
      if (r.version >= latest) continue;
      keys.push(`${r.trace_id}:${r.version}`);
      minutes.add(Math.floor(r.t / 60_000) * 60);
    }
  }
  return { keys: keys.sort(), minutes: [...minutes].sort((a, b) => a - b) };
}
