import type { Store } from "./client.js";
import { StoreError } from "./errors.js";
import { type LiveStreamStats, streamStats, streamStatsSql } from "./liveStream.js";
import { type MinuteScores, MinuteScoresBuilder, NO_SCORES, type ScoreKinds, type ScoreRowIn } from "./liveWindowScores.js";

/**
 * The two statements of a `/api/live` call that reads its window through the reader's cache
 * (./liveWindow.ts, design §3): the minutes' marks with the stream's counters, and the rows of the
 * minutes the cache does not hold at their current mark (`live_traces` and `live_scores`, FINAL).
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

/** A minute of the window (s) with its marks: the version of its latest write and the one its aggregates cover (0: none), and the traces they count. */
export interface LiveMinuteMark {
  readonly minute: number;
  readonly touched: number;
  readonly covered: number;
  readonly traces: number;
}

/** A row the live view's statements returned that is not of the shape they select. */
class LiveRowError extends StoreError {
  override readonly name = "LiveRowError";
  constructor(what: string, row: unknown) {
    super(`live window: unexpected ${what} ${JSON.stringify(row)?.slice(0, 200)}`, false, { code: "internal" });
  }
}

const at = (s: number) => `toDateTime64(${Math.trunc(s)}, 3, 'UTC')`;

/** A condition on `created_at` selecting the given minutes (s), consecutive ones merged into a range; null for none. */
function minutesCondition(minutes: readonly number[]): string | null {
  if (minutes.length === 0) return null;
  const sorted = [...minutes].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const m of sorted) {
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === m) last[1] = m + 60;
    else ranges.push([m, m + 60]);
  }
  return ranges.map(([a, b]) => `(created_at >= ${at(a)} AND created_at < ${at(b)})`).join(" OR ");
}

/** A condition selecting the rows of each minute (s) at or above its version (µs); null for none. */
function deltaCondition(deltas: ReadonlyMap<number, number>): string | null {
  if (deltas.size === 0) return null;
  return [...deltas]
    .sort((a, b) => a[0] - b[0])
    .map(([m, v]) => `(created_at >= ${at(m)} AND created_at < ${at(m + 60)} AND version >= ${Math.max(0, Math.floor(v))})`)
    .join(" OR ");
}

/** A minute's rows as read: its `live_traces` rows (time order) and its `live_scores` rows with a status (key order). */
export interface MinuteRows {
  readonly rows: LiveWindowRow[];
  readonly scores: MinuteScores;
}

/** The rows of a minute at or above a version, in key order: scores with no status (`''`) too (./liveWindowDelta.ts merges them). */
export interface MinuteDelta {
  readonly rows: LiveWindowRow[];
  readonly scores: ScoreRowIn[];
}

/** Limits of {@link readMinutes}: above either, nothing is returned. */
interface ReadLimits {
  readonly traces: number;
  readonly scores: number;
}

/**
 * One row of the union of {@link readMinutes}: kind (0 a trace, 1 a score), trace id, time (ms),
 * service, version; then for a trace its question hash, documents, `scored`, `view_status`,
 * `content_missing`; for a score its metric, input tokens, status, output tokens, value, judge model;
 * the scoring's version (9th) for both.
 */
type UnionRow = [number, string, number, string, string, string, string[], number, number, string, number, number | null, string];

/** Where the rows read go, and the one copy of each string they repeat. */
class MinuteSink {
  private readonly traces = new Map<number, LiveWindowRow[]>();
  private readonly scores = new Map<number, MinuteScoresBuilder>();
  /** The score rows of the minutes read from a version on (`deltas`), no status too. */
  private readonly deltaScores = new Map<number, ScoreRowIn[]>();
  private last: LiveWindowRow | undefined;
  private nTraces = 0;
  private nScores = 0;

  constructor(
    private readonly strings: Map<string, string>,
    private readonly kinds: ScoreKinds,
    private readonly deltas: ReadonlySet<number> = new Set(),
  ) {}

  private one(s: string): string {
    const x = this.strings.get(s);
    if (x !== undefined) return x;
    this.strings.set(s, s);
    return s;
  }

  /** The minutes' marks and the stream's counters read (rows of kinds 2 and 3). */
  readonly marks: LiveMinuteMark[] = [];
  stream: LiveStreamStats | undefined;

  /** Counts a row; returns false when it is over its limit. */
  add(r: UnionRow, limits: ReadLimits): boolean {
    if (r[0] >= 2) {
      this.mark(r);
      return true;
    }
    const minute = Math.floor(r[2] / 60_000) * 60;
    if (r[0] === 0) {
      const row: LiveWindowRow = {
        trace_id: r[1],
        t: r[2],
        service_name: this.one(r[3]),
        pipeline_version: this.one(r[4]),
        question_hash: r[5],
        documents: r[6].map((d) => this.one(d)),
        scored: r[7],
        view_status: this.one(r[9]),
        content_missing: r[10],
        version: r[8],
      };
      this.last = row;
      const xs = this.traces.get(minute);
      if (xs === undefined) this.traces.set(minute, [row]);
      else xs.push(row);
      return ++this.nTraces <= limits.traces;
    }
    // The trace's row comes just before its scores (same time and id): one copy of the id.
    const trace = this.last !== undefined && this.last.t === r[2] && this.last.trace_id === r[1] ? this.last.trace_id : r[1];
    const row: ScoreRowIn = {
      trace_id: trace,
      t: r[2],
      version: r[8],
      service_name: r[3],
      pipeline_version: r[4],
      metric: r[5],
      status: r[9],
      value: r[11],
      judge_model: r[12],
      input: r[7],
      output: r[10],
    };
    if (this.deltas.has(minute)) {
      const xs = this.deltaScores.get(minute);
      if (xs === undefined) this.deltaScores.set(minute, [row]);
      else xs.push(row);
    } else {
      let b = this.scores.get(minute);
      if (b === undefined) {
        b = new MinuteScoresBuilder(this.kinds);
        this.scores.set(minute, b);
      }
      b.push(row, trace);
    }
    return ++this.nScores <= limits.scores;
  }

  /** A mark (kind 2: the minute, s, its touched version, covered version and traces) or the stream's counters (kind 3: failures as name, count pairs, budget skips). */
  private mark(r: UnionRow): void {
    if (r[0] === 2) {
      // Versions are µs since the epoch: exact as doubles until 2255.
      this.marks.push({ minute: r[2], touched: r[7], covered: r[8], traces: r[10] });
      return;
    }
    const errors: Record<string, string> = {};
    for (let i = 0; i + 1 < r[6].length; i += 2) errors[r[6][i] as string] = r[6][i + 1] as string;
    this.stream = streamStats(errors, r[7]);
  }

  /** The rows of each of `minutes`. */
  result(minutes: readonly number[]): Map<number, MinuteRows> {
    return new Map(minutes.map((m) => [m, { rows: this.traces.get(m) ?? [], scores: this.scores.get(m)?.build() ?? NO_SCORES }]));
  }

  /** The rows read of each minute of `deltas` from its version on. */
  deltaResult(): Map<number, MinuteDelta> {
    return new Map([...this.deltas].map((m) => [m, { rows: this.traces.get(m) ?? [], scores: this.deltaScores.get(m) ?? [] }]));
  }
}

/** Whether a row of the union has its columns' types. */
const isUnionRow = (r: unknown): r is UnionRow =>
  Array.isArray(r) &&
  r.length === 13 &&
  typeof r[1] === "string" &&
  typeof r[2] === "number" &&
  typeof r[3] === "string" &&
  typeof r[4] === "string" &&
  typeof r[5] === "string" &&
  Array.isArray(r[6]) &&
  typeof r[7] === "number" &&
  typeof r[8] === "number" &&
  typeof r[9] === "string" &&
  typeof r[10] === "number" &&
  (r[11] === null || typeof r[11] === "number") &&
  typeof r[12] === "string";

/**
 * The union's parts reading the `live_traces` (kind 0: FINAL) and `live_scores` (kind 1: FINAL) rows
 * that `whole` (scores with a status) or `delta` (every score) selects, each at most its limit
 * (`{traces:UInt32}`, `{scores:UInt32}`); none when neither selects.
 */
function rowsSql(db: string, whole: string | null, delta: string | null = null): string[] {
  if (whole === null && delta === null) return [];
  const where = [whole, delta].filter((x) => x !== null).join(" OR ");
  const scored = [whole === null ? null : `((${whole}) AND status != '')`, delta].filter((x) => x !== null).join(" OR ");
  return [
    `SELECT * FROM (SELECT toUInt8(0) AS k, trace_id, toFloat64(toUnixTimestamp64Milli(created_at)) AS t, service_name AS s, pipeline_version AS p,
        toString(question_hash) AS a, documents AS d, toFloat64(scored) AS x, toFloat64(version) AS v, toString(view_status) AS b, toFloat64(content_missing) AS y,
        CAST(NULL AS Nullable(Float64)) AS z, '' AS c
      FROM ${db}.live_traces FINAL WHERE ${where} LIMIT {traces:UInt32})`,
    `SELECT * FROM (SELECT toUInt8(1) AS k, trace_id, toFloat64(toUnixTimestamp64Milli(created_at)) AS t, toString(service_name) AS s, toString(pipeline_version) AS p,
        toString(metric) AS a, CAST([] AS Array(String)) AS d, toFloat64(input_tokens) AS x, toFloat64(version) AS v, toString(status) AS b, toFloat64(output_tokens) AS y,
        value AS z, toString(judge_model) AS c
      FROM ${db}.live_scores FINAL WHERE ${scored} LIMIT {scores:UInt32})`,
  ];
}

/**
 * The union's parts reading the marks of the minutes from the one holding `{since:Int64}` on (kind 2:
 * the minute, s, in `t`; its touched version in `x`, covered version in `v`, the traces those
 * aggregates count in `y`) and the stream's counters over them (kind 3: the failures as name, count
 * pairs in `d`, the budget skips in `x`).
 */
function marksSql(db: string): string[] {
  return [
    `SELECT toUInt8(2) AS k, '' AS trace_id, toFloat64(toUnixTimestamp(minute)) AS t, '' AS s, '' AS p, '' AS a, CAST([] AS Array(String)) AS d,
        toFloat64(maxIf(version, kind = 'touched')) AS x, toFloat64(maxIf(covers, kind = 'computed')) AS v, '' AS b, toFloat64(argMaxIf(traces, covers, kind = 'computed')) AS y,
        CAST(NULL AS Nullable(Float64)) AS z, '' AS c
      FROM ${db}.live_minutes_state WHERE minute >= toStartOfMinute(fromUnixTimestamp64Milli({since:Int64}, 'UTC')) GROUP BY minute`,
    `SELECT toUInt8(3) AS k, '' AS trace_id, toFloat64(0) AS t, '' AS s, '' AS p, '' AS a, arrayFlatten(arrayMap((n, c) -> [n, toString(c)], mapKeys(e.1), mapValues(e.1))) AS d,
        toFloat64(e.2) AS x, toFloat64(0) AS v, '' AS b, toFloat64(0) AS y, CAST(NULL AS Nullable(Float64)) AS z, '' AS c
      FROM (SELECT ${streamStatsSql(db)} AS e)`,
  ];
}

/** Runs the union of `parts` (rows in time, trace id, kind, metric order) into `sink`; false when its rows are more than the limits. */
async function union(store: Store, parts: readonly string[], params: Record<string, unknown>, sink: MinuteSink, limits: ReadLimits): Promise<boolean> {
  const rs = await store.client.query({
    query: `SELECT k, trace_id, t, s, p, a, d, x, v, b, y, z, c FROM (${parts.join("\n      UNION ALL\n      ")}) ORDER BY t, trace_id, k, a`,
    query_params: { ...params, traces: limits.traces + 1, scores: limits.scores + 1 },
    format: "JSONCompactEachRow",
  });
  for (const r of await rs.json<unknown>()) {
    if (!isUnionRow(r)) throw new LiveRowError("row", r);
    if (!sink.add(r, limits)) return false;
  }
  return true;
}

/** What {@link readWindow} reads: the marks, the stream's counters, the rows of the minutes asked for (null: more than the limits) and those of the minutes asked for from a version on. */
export interface WindowRead {
  readonly marks: LiveMinuteMark[];
  readonly stream: LiveStreamStats;
  readonly read: Map<number, MinuteRows> | null;
  readonly deltas: Map<number, MinuteDelta>;
}

/**
 * In one statement: the marks of the minutes from the one holding `sinceMs` on, the stream's counters
 * over them, the rows of the minutes `minutes` (s; none: the marks and counters only), as
 * {@link readMinutes} reads them, and the rows of the minutes of `deltas` (s) at or above their
 * version (µs; scores with no status too: ./liveWindowDelta.ts merges them).
 */
export async function readWindow(
  store: Store,
  sinceMs: number,
  minutes: readonly number[],
  strings: Map<string, string>,
  kinds: ScoreKinds,
  limits: ReadLimits,
  deltas: ReadonlyMap<number, number> = new Map(),
): Promise<WindowRead> {
  const whole = minutes.filter((m) => !deltas.has(m));
  const sink = new MinuteSink(strings, kinds, new Set(deltas.keys()));
  const db = store.database;
  const parts = [...marksSql(db), ...rowsSql(db, minutesCondition(whole), deltaCondition(deltas))];
  const within = await union(store, parts, { since: sinceMs }, sink, limits);
  if (sink.stream === undefined) throw new LiveRowError("statement result (no stream row)", null);
  return { marks: sink.marks, stream: sink.stream, read: within ? sink.result(whole) : null, deltas: sink.deltaResult() };
}

/**
 * The rows of the given minutes (s): `live_traces` (FINAL, time order) and `live_scores` (FINAL, a
 * status set, key order), in one statement; null when they are more than the limits. Numbers are
 * read as doubles (times in ms, versions in µs: exact), strings once each (`strings`), score kinds
 * numbered in `kinds`.
 */
export async function readMinutes(
  store: Store,
  minutes: readonly number[],
  strings: Map<string, string>,
  kinds: ScoreKinds,
  limits: ReadLimits,
): Promise<Map<number, MinuteRows> | null> {
  const sink = new MinuteSink(strings, kinds);
  if (minutes.length === 0) return sink.result(minutes);
  return (await union(store, rowsSql(store.database, minutesCondition(minutes)), {}, sink, limits)) ? sink.result(minutes) : null;
}
