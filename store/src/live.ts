import { TupleParam } from "@clickhouse/client";
import { z } from "zod";
import type { Store } from "./client.js";
import type { LiveMinuteMark } from "./liveWindowRead.js";

/**
 * Queries of `ragmeter live` / `/api/live` (design §3, live view) on `live_traces` (migration 7: a
 * row per scoring of a live trace, its trace-level facts) and `live_scores` (migration 10: beside it,
 * a row per live metric, by name): the window is a range of their keys (`created_at` first), so what
 * a query reads grows with the traces in the window, not with the history. A trace scored more than
 * once (late spans, a new judge prompt version) has a row per scoring: the one of the latest write
 * (highest `version`) counts (`rescore` keeps `created_at`, so its row replaces the one of the same
 * key). As a trace's `created_at` never goes back, the latest row of a trace whose interaction is in
 * the window is in the window too; filters on service and version apply to that latest row. The
 * aggregates of whole minutes kept at write time (`live_minutes`, migration 12, ./liveMinutes.ts)
 * stand in for the rows of the minutes they cover.
 */

/** Filter of the live queries. */
export interface LiveFilter {
  /** Interactions created at or after this instant, ms since the epoch. */
  readonly sinceMs: number;
  readonly service?: string;
  readonly pipelineVersion?: string;
}

const params = (f: LiveFilter) => ({
  since: f.sinceMs,
  ...(f.service !== undefined ? { service: f.service } : {}),
  ...(f.pipelineVersion !== undefined ? { pv: f.pipelineVersion } : {}),
});

/**
 * The window's rows, one per trace (its latest): FINAL collapses the rows of one key, and the rows a
 * later scoring of the same trace superseded (`superseded`, from {@link liveAggregates}) are left out.
 */
function windowRows(db: string, f: LiveFilter, superseded: readonly string[], table = "live_traces", sinceParam = "since"): string {
  return `FROM ${db}.${table} FINAL WHERE created_at >= fromUnixTimestamp64Milli({${sinceParam}:Int64}, 'UTC')${
    superseded.length > 0 ? " AND concat(trace_id, ':', toString(version)) NOT IN {superseded:Array(String)}" : ""
  }${f.service !== undefined ? " AND service_name = {service:String}" : ""}${f.pipelineVersion !== undefined ? " AND pipeline_version = {pv:String}" : ""}`;
}

const num = z.union([z.number(), z.string()]).transform(Number);

/**
 * A row of {@link liveAggregates}' statement: `kind` `t` (traces), `m` (a live metric's scores) or
 * `w` (the window's one row: the superseded rows' keys); columns a kind has not are empty.
 */
const aggregateRow = (r: unknown) =>
  compact(r, "sssnssnnsnnnnnaona", (x) => ({
    kind: x[0] as string,
    service_name: x[1] as string,
    pipeline_version: x[2] as string,
    bucket: Number(x[3]),
    status: x[4] as string, // t: view_status; m: the score's status
    metric: x[5] as string, // m
    flag: Number(x[6]), // t: scored; m: the judge spent tokens (0/1)
    content_missing: Number(x[7]), // t (0/1)
    judge_model: x[8] as string, // m
    count: Number(x[9]), // t: traces; m: scores
    values: Number(x[10]), // m
    sum: Number(x[11]), // m: the values' sum
    input_tokens: Number(x[12]), // m
    output_tokens: Number(x[13]), // m
    superseded: x[14] as string[], // w
    supersededMinutes: (x[17] as string[]).map(Number), // w: the minutes (s) of the superseded rows
  }));
type AggregateRow = ReturnType<typeof aggregateRow>;

const traceRow = (r: AggregateRow) => ({
  service_name: r.service_name,
  pipeline_version: r.pipeline_version,
  bucket: r.bucket,
  view_status: r.status,
  scored: r.flag === 1,
  content_missing: r.content_missing === 1,
  traces: r.count,
});

/**
 * The traces of one service, pipeline version and trend bucket of the window that the view counts
 * alike (`live_traces`' `view_status`, `scored`, `content_missing`): how many.
 */
export type LiveTraceAggregate = ReturnType<typeof traceRow>;

const metricRow = (r: AggregateRow) => ({
  service_name: r.service_name,
  pipeline_version: r.pipeline_version,
  bucket: r.bucket,
  status: r.status,
  metric: r.metric,
  spent: r.flag === 1,
  judge_model: r.judge_model,
  scores: r.count,
  values: r.values,
  sum: r.sum,
  input_tokens: r.input_tokens,
  output_tokens: r.output_tokens,
});

/**
 * The scores of one live metric of the traces of one service, pipeline version and trend bucket of
 * the window that share their status (never `''`: no score), whether the judge spent tokens and its
 * model: how many, the count and sum of their values (a value is set only with status `ok`) and the
 * judge's tokens.
 */
export type LiveMetricAggregate = ReturnType<typeof metricRow>;

/** What {@link liveAggregates} returns. */
export interface LiveAggregates {
  readonly traces: LiveTraceAggregate[];
  readonly metrics: LiveMetricAggregate[];
  /** Keys (`trace_id:version`) of the window's rows a later scoring of their trace superseded. */
  readonly superseded: string[];
}

/** The empty columns of the metric-level and window-level parts of {@link aggregateRow}. */
const NONE_M = "toUInt64(0) AS c10, toFloat64(0) AS c11, toUInt64(0) AS c12, toUInt64(0) AS c13";
const NONE_W = "CAST([] AS Array(String)) AS c14, CAST(map() AS Map(String, UInt64)) AS c15, toUInt64(0) AS c16, CAST([] AS Array(String)) AS c17";

const bucketSql = "arrayCount(b -> b <= toUnixTimestamp64Milli(created_at), {bounds:Array(Float64)}) AS bucket";
/** The trend bucket of a whole minute of `live_minutes` (one that no bucket start cuts: {@link coveredMinutes}). */
const minuteBucketSql = "arrayCount(b -> b <= toUnixTimestamp(minute) * 1000, {bounds:Array(Float64)}) AS bucket";

/**
 * Traces the covered minutes of a window must count before the live view reads their aggregates
 * instead of their rows: each read of a statement costs the embedded engine 3–10 ms whatever its rows,
 * and a row of the window about 1 µs (bench:live: 4,200 traces in the window, +11 ms with the minutes;
 * 100,000, −23 to −31 %).
 */
const LIVE_MINUTE_TRACES = 20_000;

/**
 * The window's minutes whose aggregates `live_minutes` holds for their latest write (./liveMinutes.ts:
 * their `computed` mark covers their `touched` one), wholly in the window and cut by no trend bucket
 * start: each minute (s) and the `covered` version whose rows count, from the marks read before the
 * aggregates' statement (./liveWindow.ts), so both of its parts (rows of the other minutes, aggregates
 * of these) see one set.
 */
function coveredMinutes(marks: readonly LiveMinuteMark[], since: number, bounds: readonly number[]): { minutes: number[]; covers: number[]; traces: number } {
  const minutes: number[] = [];
  const covers: number[] = [];
  let traces = 0;
  for (const m of marks) {
    const ms = m.minute * 1000;
    if (!(m.covered > 0 && m.covered >= m.touched && ms >= since) || bounds.some((b) => b > ms && b < ms + 60_000)) continue;
    minutes.push(m.minute);
    covers.push(m.covered);
    traces += m.traces;
  }
  return { minutes, covers, traces };
}

/**
 * Rows of `live_minutes` of the covered minutes (`covered`: each minute, s, at its covered version),
 * with the filter's service and version: kind `t` (traces) and kind `m` of
 * the live metrics `{metrics}`. The pairs are a parameter (numbers of the store's own), not a subquery.
 */
function minuteRows(db: string, f: LiveFilter): string {
  return `FROM ${db}.live_minutes FINAL WHERE (kind = 't' OR metric IN {metrics:Array(String)}) AND minute >= toStartOfMinute(fromUnixTimestamp64Milli({since:Int64}, 'UTC'))
      AND (toUInt32(toUnixTimestamp(minute)), covers) IN {covered:Array(Tuple(UInt32, UInt64))}${f.service !== undefined ? " AND service_name = {service:String}" : ""}${
        f.pipelineVersion !== undefined ? " AND pipeline_version = {pv:String}" : ""
      }`;
}

/**
 * The window's rows outside the covered minutes (`minutes`, s), read one by one: a condition on
 * `created_at` of the ranges between them (merged), so the key leaves the covered minutes unread.
 */
function uncovered(sinceMs: number, minutes: readonly number[]): string {
  if (minutes.length === 0) return "";
  const ranges: [number, number | null][] = [];
  let from = sinceMs;
  for (const m of [...minutes].sort((a, b) => a - b)) {
    if (m * 1000 > from) ranges.push([from, m * 1000]);
    from = Math.max(from, m * 1000 + 60_000);
  }
  ranges.push([from, null]);
  const at = (ms: number) => `fromUnixTimestamp64Milli(toInt64(${Math.floor(ms)}), 'UTC')`;
  return ` AND (${ranges.map(([a, b]) => (b === null ? `created_at >= ${at(a)}` : `(created_at >= ${at(a)} AND created_at < ${at(b)})`)).join(" OR ")})`;
}

/** What {@link liveAggregates} takes besides the filter: read before its statement. */
export interface LiveAggregateInputs {
  /** The marks of the window's minutes (./liveWindowRead.ts). */
  readonly marks: readonly LiveMinuteMark[];
}

/**
 * The window's aggregates, in one statement: of its traces ({@link LiveTraceAggregate},
 * `live_traces`), of the live metrics `metrics` (names; {@link LiveMetricAggregate}, `live_scores`:
 * a scoring's rows share its trace's key and version); `bounds` are the trend buckets' starts after
 * the first (a trace is in the bucket of the last start at or before its time). The keys of the rows
 * a later scoring of their trace superseded come from the statement (traces with more than one row in
 * the window: found by the hash of their id first, then exactly), which then runs again without
 * those rows. (The stream's counters are read with the minutes' marks, ./liveWindowRead.ts; with the
 * reader's cache the view does without this statement, ./liveWindow.ts.) The window's covered minutes ({@link coveredMinutes})
 * count from `live_minutes` (migration 12) once they hold `minuteTraces` traces, the rest of the
 * window from its rows; the minutes of superseded rows from their rows.
 */
export async function liveAggregates(
  store: Store,
  f: LiveFilter,
  bounds: readonly number[],
  metrics: readonly string[],
  inputs: LiveAggregateInputs,
  minuteTraces = LIVE_MINUTE_TRACES,
): Promise<LiveAggregates> {
  const db = store.database;
  const since = "created_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')";
  const found = coveredMinutes(inputs.marks, f.sinceMs, bounds);
  // Below `minuteTraces` the rows cost less than the minutes' read (the engine's cost per read).
  const all = found.traces >= minuteTraces ? found : { minutes: [], covers: [], traces: 0 };
  const run = async (superseded: readonly string[], gone: ReadonlySet<number>) => {
    // The minutes of superseded rows are read row by row (their aggregates count those rows).
    const keep = all.minutes.map((m) => !gone.has(m));
    const covered = { minutes: all.minutes.filter((_, k) => keep[k]), covers: all.covers.filter((_, k) => keep[k]) };
    // The superseded rows, found by the statement.
    const search = `(SELECT (groupArray(concat(trace_id, ':', toString(v.1))), groupArray(toString(toUnixTimestamp(toStartOfMinute(v.2))))) FROM (
            SELECT trace_id, arrayJoin(arrayFilter(v -> v.1 < max(version), groupArray((version, created_at)))) AS v FROM ${db}.live_traces
            WHERE ${since} AND cityHash64(trace_id) IN (SELECT cityHash64(trace_id) AS h FROM ${db}.live_traces WHERE ${since} GROUP BY h HAVING count() > 1)
            GROUP BY trace_id HAVING count() > 1))`;
    const rs = await store.client.query({
      query: `SELECT 't' AS c0, service_name, pipeline_version, ${bucketSql}, toString(view_status) AS c4, '' AS c5, scored AS c6, content_missing AS c7, '' AS c8, count() AS c9,
            ${NONE_M}, ${NONE_W}
          ${windowRows(db, f, superseded)}${uncovered(f.sinceMs, covered.minutes)}
          GROUP BY service_name, pipeline_version, bucket, view_status, scored, content_missing
        UNION ALL
        SELECT 'm' AS c0, service_name, pipeline_version, ${bucketSql}, toString(status) AS c4, toString(metric) AS c5, toUInt8(input_tokens + output_tokens > 0) AS spent,
            toUInt8(0) AS c7, toString(judge_model) AS c8, count() AS c9, toUInt64(count(value)) AS c10, toFloat64(ifNull(sum(value), 0)) AS c11, toUInt64(sum(input_tokens)) AS c12,
            toUInt64(sum(output_tokens)) AS c13, ${NONE_W}
          ${windowRows(db, f, superseded, "live_scores")} AND metric IN {metrics:Array(String)} AND status != ''${uncovered(f.sinceMs, covered.minutes)}
          GROUP BY service_name, pipeline_version, bucket, metric, status, spent, judge_model
${
  covered.minutes.length === 0
    ? ""
    : `
        UNION ALL
        SELECT toString(kind) AS c0, service_name, pipeline_version, ${minuteBucketSql}, toString(status) AS c4, toString(metric) AS c5, flag AS spent,
            content_missing AS c7, toString(judge_model) AS c8, sum(n) AS c9, sum(n_values) AS c10, sum(value_sum) AS c11, sum(input_tokens) AS c12, sum(output_tokens) AS c13, ${NONE_W}
          ${minuteRows(db, f)}
          GROUP BY kind, service_name, pipeline_version, bucket, metric, status, spent, content_missing, judge_model`
}
        UNION ALL
        SELECT 'w' AS c0, '' AS service_name, '' AS pipeline_version, toUInt64(0) AS bucket, '' AS c4, '' AS c5, toUInt8(0) AS spent, toUInt8(0) AS c7, '' AS c8,
          toUInt64(0) AS c9, ${NONE_M}, s.1 AS c14, CAST(map() AS Map(String, UInt64)) AS c15, toUInt64(0) AS c16, s.2 AS c17
        FROM (SELECT ${search} AS s)`,
      query_params: {
        ...params(f),
        bounds: [...bounds],
        metrics: [...metrics],
        ...(superseded.length > 0 ? { superseded } : {}),
        ...(covered.minutes.length > 0 ? { covered: covered.minutes.map((m, k) => new TupleParam([Math.trunc(m), Math.trunc(covered.covers[k] as number)])) } : {}),
      },
      format: "JSONCompactEachRow",
    });
    const traces: LiveTraceAggregate[] = [];
    const scores: LiveMetricAggregate[] = [];
    let w: AggregateRow | undefined;
    for (const x of await rs.json<unknown>()) {
      const r = aggregateRow(x);
      if (r.kind === "t") traces.push(traceRow(r));
      else if (r.kind === "m") scores.push(metricRow(r));
      else w = r;
    }
    if (w === undefined) throw new Error("live query: no window row");
    return {
      traces,
      metrics: scores,
      superseded: w.superseded,
      supersededMinutes: w.supersededMinutes,
    };
  };
  const { supersededMinutes, ...first } = await run([], new Set());
  if (first.superseded.length === 0) return first;
  const { supersededMinutes: _, ...again } = await run(first.superseded, new Set(supersededMinutes));
  return { ...again, superseded: first.superseded };
}

/** A row of JSONCompactEachRow as the given column types, checked without zod (these queries return thousands of rows). */
function compact<T>(r: unknown, kinds: string, make: (x: unknown[]) => T): T {
  if (!Array.isArray(r) || r.length !== kinds.length) throw new Error(`live query: unexpected row ${JSON.stringify(r).slice(0, 200)}`);
  for (let i = 0; i < kinds.length; i++) {
    const v = r[i];
    const ok =
      kinds[i] === "s"
        ? typeof v === "string"
        : kinds[i] === "n"
          ? typeof v === "number" || (typeof v === "string" && v !== "" && Number.isFinite(Number(v)))
          : kinds[i] === "v"
            ? v === null || typeof v === "number"
            : kinds[i] === "o"
              ? typeof v === "object" &&
                v !== null &&
                !Array.isArray(v) &&
                Object.values(v).every((x) => typeof x === "number" || (typeof x === "string" && Number.isFinite(Number(x))))
              : Array.isArray(v) && v.every((x) => typeof x === "string");
    if (!ok) throw new Error(`live query: column ${i} of ${JSON.stringify(r).slice(0, 200)} is not of kind ${kinds[i]}`);
  }
  return make(r);
}

const recentRow = (r: unknown) =>
  compact(r, "ssnssn", (x) => ({
    service_name: x[0] as string,
    pipeline_version: x[1] as string,
    t: Number(x[2]),
    trace_id: x[3] as string,
    metric: x[4] as string,
    value: Number(x[5]),
  }));

/** An `ok` value of a live metric of a trace of the window. */
export type LiveRecentRow = ReturnType<typeof recentRow>;

/**
 * The `limit` most recent `ok` values of the live metrics `metrics` in the window (by time, then
 * trace id, latest first): read from the end of `live_scores`' key, so it costs what it returns.
 */
export async function liveRecent(store: Store, f: LiveFilter, limit: number, superseded: readonly string[], metrics: readonly string[]): Promise<LiveRecentRow[]> {
  const rs = await store.client.query({
    query: `SELECT service_name, pipeline_version, toUnixTimestamp64Milli(created_at) AS t, trace_id, metric, value
      ${windowRows(store.database, f, superseded, "live_scores")}
        AND metric IN {metrics:Array(String)} AND status = 'ok' AND value IS NOT NULL
      ORDER BY created_at DESC, trace_id DESC LIMIT {limit:UInt32}`,
    query_params: { ...params(f), limit, metrics: [...metrics], ...(superseded.length > 0 ? { superseded } : {}) },
    format: "JSONCompactEachRow",
  });
  return (await rs.json<unknown>()).map(recentRow);
}

const overlapRow = (r: unknown) =>
  compact(r, "sssnn", (x) => ({
    service_name: x[0] as string,
    version_a: x[1] as string,
    version_b: x[2] as string,
    questions: Number(x[3]),
    jaccard_sum: Number(x[4]),
  }));

/** Two versions of a service: the questions both answered in the window and the sum of their Jaccard indexes. */
export type LiveOverlapRow = ReturnType<typeof overlapRow>;

/**
 * For the window's traces of `services` that have a question, per service and pair of its pipeline
 * versions (`version_a` < `version_b`), the questions (their hash) both answered and the sum over them
 * of the Jaccard index of the distinct document ids the latest trace (by time, then trace id) of each
 * version retrieved (1 when both retrieved none), computed in the engine: the latest trace of a
 * question is the first of its service, version and question read from the end of the key.
 */
export async function liveOverlap(store: Store, f: LiveFilter, services: readonly string[], superseded: readonly string[]): Promise<LiveOverlapRow[]> {
  if (services.length === 0) return [];
  const inter = "length(arrayIntersect(a.2, b.2))";
  const rs = await store.client.query({
    query: `SELECT service_name, a.1 AS va, b.1 AS vb, count(), sum(if(length(a.2) = 0 AND length(b.2) = 0, 1, ${inter} / (length(a.2) + length(b.2) - ${inter})))
      FROM (
        SELECT service_name, groupArray((pipeline_version, arrayDistinct(documents))) AS vs FROM (
          SELECT service_name, pipeline_version, question_hash, documents
          ${windowRows(store.database, f, superseded)} AND question_hash != 0 AND service_name IN {services:Array(String)}
          ORDER BY created_at DESC, trace_id DESC LIMIT 1 BY service_name, pipeline_version, question_hash)
        GROUP BY service_name, question_hash HAVING length(vs) > 1)
      ARRAY JOIN vs AS a ARRAY JOIN vs AS b
      WHERE a.1 < b.1
      GROUP BY service_name, va, vb`,
    query_params: { ...params(f), services: [...services], ...(superseded.length > 0 ? { superseded } : {}) },
    format: "JSONCompactEachRow",
  });
  return (await rs.json<unknown>()).map(overlapRow);
}

const rawSchema = z.object({
  trace_id: z.string(),
  t: num,
  service_name: z.string(),
  pipeline_version: z.string(),
  status: z.string(),
  question_hash: z.string(),
  documents: z.array(z.string()),
  view_status: z.string(),
  scored: num,
  content_missing: num,
  version: num,
});

/** A row of `live_traces` as written (every scoring of a trace, not reduced to the latest). */
export type LiveTraceRow = z.output<typeof rawSchema>;

/** Every row of `live_traces` created at or after `sinceMs` (every version), oldest first: what the queries above reduce. */
export async function liveTraceRowsSince(store: Store, sinceMs: number): Promise<LiveTraceRow[]> {
  const rs = await store.client.query({
    query: `SELECT trace_id, toUnixTimestamp64Milli(created_at) AS t, service_name, pipeline_version, status, toString(question_hash) AS question_hash, documents,
        view_status, scored, content_missing, version
      FROM ${store.database}.live_traces WHERE created_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC') ORDER BY created_at, trace_id, version`,
    query_params: { since: sinceMs },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((r) => rawSchema.parse(r));
}

const rawScoreSchema = z.object({
  trace_id: z.string(),
  t: num,
  service_name: z.string(),
  pipeline_version: z.string(),
  metric: z.string(),
  status: z.string(),
  value: z.number().nullable(),
  judge_model: z.string(),
  input_tokens: num,
  output_tokens: num,
  version: num,
});

/** A row of `live_scores` as written. */
export type LiveScoreStoredRow = z.output<typeof rawScoreSchema>;

/** Every row of `live_scores` created at or after `sinceMs` (every version), oldest first. */
export async function liveScoreRowsSince(store: Store, sinceMs: number): Promise<LiveScoreStoredRow[]> {
  const rs = await store.client.query({
    query: `SELECT trace_id, toUnixTimestamp64Milli(created_at) AS t, service_name, pipeline_version, metric, status, value, judge_model, input_tokens, output_tokens, version
      FROM ${store.database}.live_scores WHERE created_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC') ORDER BY created_at, trace_id, metric, version`,
    query_params: { since: sinceMs },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((r) => rawScoreSchema.parse(r));
}
