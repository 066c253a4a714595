import type { Store } from "./client.js";
import { StoreError } from "./errors.js";
import { type LiveStreamStats, streamStats, streamStatsSql } from "./liveStream.js";
import { type MinuteScores, MinuteScoresBuilder, NO_SCORES, type ScoreKinds } from "./liveWindowScores.js";

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

type MarkRow = [string, number | string, number | string, number | string, number | string, Record<string, number | string>, number | string];

/**
 * The marks of the minutes from the one holding `sinceMs` on and the stream's counters over them
 * (one statement: the counters are its row of kind `s`).
 */
export async function readMarks(store: Store, sinceMs: number): Promise<{ marks: LiveMinuteMark[]; stream: LiveStreamStats }> {
  const db = store.database;
  const rs = await store.client.query({
    query: `SELECT 'm' AS k, toUInt32(toUnixTimestamp(minute)) AS m, maxIf(version, kind = 'touched') AS t, maxIf(covers, kind = 'computed') AS c,
        argMaxIf(traces, covers, kind = 'computed') AS n, CAST(map() AS Map(String, UInt64)) AS e, toUInt64(0) AS b
      FROM ${db}.live_minutes_state WHERE minute >= toStartOfMinute(fromUnixTimestamp64Milli({since:Int64}, 'UTC')) GROUP BY minute
      UNION ALL
      SELECT 's' AS k, toUInt32(0) AS m, toUInt64(0) AS t, toUInt64(0) AS c, toUInt64(0) AS n, x.1 AS e, x.2 AS b FROM (SELECT ${streamStatsSql(db)} AS x)`,
    query_params: { since: sinceMs },
    format: "JSONCompactEachRow",
  });
  const marks: LiveMinuteMark[] = [];
  let stream: LiveStreamStats | undefined;
  for (const r of await rs.json<MarkRow>()) {
    if (!Array.isArray(r) || r.length !== 7) throw new LiveRowError("mark", r);
    // Versions are µs since the epoch: exact as numbers until 2255.
    if (r[0] === "m") marks.push({ minute: Number(r[1]), touched: Number(r[2]), covered: Number(r[3]), traces: Number(r[4]) });
    else stream = streamStats(r[5], Number(r[6]));
  }
  if (stream === undefined) throw new LiveRowError("statement result (no stream row)", null);
  return { marks, stream };
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

/** A minute's rows as read: its `live_traces` rows (time order) and its `live_scores` rows with a status (key order). */
export interface MinuteRows {
  readonly rows: LiveWindowRow[];
  readonly scores: MinuteScores;
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
  private last: LiveWindowRow | undefined;
  private nTraces = 0;
  private nScores = 0;

  constructor(
    private readonly strings: Map<string, string>,
    private readonly kinds: ScoreKinds,
  ) {}

  private one(s: string): string {
    const x = this.strings.get(s);
    if (x !== undefined) return x;
    this.strings.set(s, s);
    return s;
  }

  /** Counts a row; returns false when it is over its limit. */
  add(r: UnionRow, limits: ReadLimits): boolean {
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
    let b = this.scores.get(minute);
    if (b === undefined) {
      b = new MinuteScoresBuilder(this.kinds);
      this.scores.set(minute, b);
    }
    // The trace's row comes just before its scores (same time and id): one copy of the id.
    const trace = this.last !== undefined && this.last.t === r[2] && this.last.trace_id === r[1] ? this.last.trace_id : r[1];
    b.push(
      {
        trace_id: r[1],
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
      },
      trace,
    );
    return ++this.nScores <= limits.scores;
  }

  /** The rows of each of `minutes`. */
  result(minutes: readonly number[]): Map<number, MinuteRows> {
    return new Map(minutes.map((m) => [m, { rows: this.traces.get(m) ?? [], scores: this.scores.get(m)?.build() ?? NO_SCORES }]));
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
  const db = store.database;
  const where = minutesCondition(minutes);
  const rs = await store.client.query({
    query: `SELECT k, trace_id, t, s, p, a, d, x, v, b, y, z, c FROM (
        SELECT * FROM (SELECT toUInt8(0) AS k, trace_id, toFloat64(toUnixTimestamp64Milli(created_at)) AS t, service_name AS s, pipeline_version AS p,
            toString(question_hash) AS a, documents AS d, toFloat64(scored) AS x, toFloat64(version) AS v, toString(view_status) AS b, toFloat64(content_missing) AS y,
            CAST(NULL AS Nullable(Float64)) AS z, '' AS c
          FROM ${db}.live_traces FINAL WHERE ${where} LIMIT {traces:UInt32})
        UNION ALL
        SELECT * FROM (SELECT toUInt8(1) AS k, trace_id, toFloat64(toUnixTimestamp64Milli(created_at)) AS t, toString(service_name) AS s, toString(pipeline_version) AS p,
            toString(metric) AS a, CAST([] AS Array(String)) AS d, toFloat64(input_tokens) AS x, toFloat64(version) AS v, toString(status) AS b, toFloat64(output_tokens) AS y,
            value AS z, toString(judge_model) AS c
          FROM ${db}.live_scores FINAL WHERE (${where}) AND status != '' LIMIT {scores:UInt32}))
      ORDER BY t, trace_id, k, a`,
    query_params: { traces: limits.traces + 1, scores: limits.scores + 1 },
    format: "JSONCompactEachRow",
  });
  for (const r of await rs.json<unknown>()) {
    if (!isUnionRow(r)) throw new LiveRowError("row", r);
    if (!sink.add(r, limits)) return null;
  }
  return sink.result(minutes);
}
