import { z } from "zod";
import type { Store } from "./client.js";

/**
 * Queries of `ragmeter live` / `/api/live` (design §3, live view) on `live_traces` (migration 7: a
 * row per scoring of a live trace, its trace-level facts) and `live_scores` (migration 10: beside it,
 * a row per live metric, by name): the window is a range of their keys (`created_at` first), so what
 * a query reads grows with the traces in the window, not with the history. A trace scored more than
 * once (late spans, a new judge prompt version) has a row per scoring: the one of the latest write
 * (highest `version`) counts (`rescore` keeps `created_at`, so its row replaces the one of the same
 * key). As a trace's `created_at` never goes back, the latest row of a trace whose interaction is in
 * the window is in the window too; filters on service and version apply to that latest row.
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
function windowRows(db: string, f: LiveFilter, superseded: readonly string[], table = "live_traces"): string {
  return `FROM ${db}.${table} FINAL WHERE created_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')${
    superseded.length > 0 ? " AND concat(trace_id, ':', toString(version)) NOT IN {superseded:Array(String)}" : ""
  }${f.service !== undefined ? " AND service_name = {service:String}" : ""}${f.pipelineVersion !== undefined ? " AND pipeline_version = {pv:String}" : ""}`;
}

const num = z.union([z.number(), z.string()]).transform(Number);
const tuple = <T extends [z.ZodType, ...z.ZodType[]]>(...items: T) => z.tuple(items);

const traceRow = tuple(
  z.string(), // service_name
  z.string(), // pipeline_version
  num, // bucket
  z.string(), // view_status
  num, // scored (0/1)
  num, // content_missing (0/1)
  z.array(z.string()), // superseded
  num, // traces
).transform((r) => ({
  service_name: r[0],
  pipeline_version: r[1],
  bucket: r[2],
  view_status: r[3],
  scored: r[4] === 1,
  content_missing: r[5] === 1,
  superseded: r[6],
  traces: r[7],
}));

/**
 * The traces of one service, pipeline version and trend bucket of the window that the view counts
 * alike (`live_traces`' `view_status`, `scored`, `content_missing`): how many.
 */
export type LiveTraceAggregate = Omit<z.output<typeof traceRow>, "superseded">;

const metricRow = tuple(
  z.string(), // service_name
  z.string(), // pipeline_version
  num, // bucket
  z.string(), // metric
  z.string(), // status
  num, // spent tokens (0/1)
  z.string(), // judge_model
  num, // scores
  num, // values
  z.number().nullable(), // their sum
  num, // input tokens
  num, // output tokens
).transform((r) => ({
  service_name: r[0],
  pipeline_version: r[1],
  bucket: r[2],
  metric: r[3],
  status: r[4],
  spent: r[5] === 1,
  judge_model: r[6],
  scores: r[7],
  values: r[8],
  sum: r[9] ?? 0,
  input_tokens: r[10],
  output_tokens: r[11],
}));

/**
 * The scores of one live metric of the traces of one service, pipeline version and trend bucket of
 * the window that share their status (never `''`: no score), whether the judge spent tokens and its
 * model: how many, the count and sum of their values (a value is set only with status `ok`) and the
 * judge's tokens.
 */
export type LiveMetricAggregate = z.output<typeof metricRow>;

const bucketSql = "arrayCount(b -> b <= toUnixTimestamp64Milli(created_at), {bounds:Array(Float64)}) AS bucket";

/**
 * The window's aggregates of its traces ({@link LiveTraceAggregate}, `live_traces`) and of the live
 * metrics `metrics` (names; {@link LiveMetricAggregate}, `live_scores`: a scoring's rows share its
 * trace's key and version); `bounds` are the trend buckets' starts after the first (a trace is in the
 * bucket of the last start at or before its time). The traces' statement also finds the rows a later
 * scoring of their trace superseded; when there are any, it runs again without them, and so does
 * the metrics' one (their keys, `trace_id:version`, are returned for the other queries).
 */
export async function liveAggregates(
  store: Store,
  f: LiveFilter,
  bounds: readonly number[],
  metrics: readonly string[],
): Promise<{ traces: LiveTraceAggregate[]; metrics: LiveMetricAggregate[]; superseded: string[] }> {
  const db = store.database;
  const traces = async (superseded: readonly string[]) => {
    const rs = await store.client.query({
      query: `SELECT service_name, pipeline_version, ${bucketSql}, view_status, scored, content_missing,
          (SELECT groupArray(concat(trace_id, ':', toString(v))) FROM (
            SELECT trace_id, arrayJoin(arrayFilter(v -> v < max(version), groupArray(version))) AS v
            FROM ${db}.live_traces WHERE created_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC') GROUP BY trace_id HAVING count() > 1)) AS superseded,
          count()
        ${windowRows(db, f, superseded)}
        GROUP BY service_name, pipeline_version, bucket, view_status, scored, content_missing`,
      query_params: { ...params(f), bounds: [...bounds], ...(superseded.length > 0 ? { superseded } : {}) },
      format: "JSONCompactEachRow",
    });
    return (await rs.json<unknown>()).map((r) => traceRow.parse(r));
  };
  const first = await traces([]);
  const superseded = first[0]?.superseded ?? [];
  const traceRows = superseded.length === 0 ? first : await traces(superseded);
  const rs = await store.client.query({
    query: `SELECT service_name, pipeline_version, ${bucketSql}, metric, status, input_tokens + output_tokens > 0 AS spent, judge_model,
        count(), count(value), sum(value), sum(input_tokens), sum(output_tokens)
      ${windowRows(db, f, superseded, "live_scores")} AND metric IN {metrics:Array(String)} AND status != ''
      GROUP BY service_name, pipeline_version, bucket, metric, status, spent, judge_model`,
    query_params: { ...params(f), bounds: [...bounds], metrics: [...metrics], ...(superseded.length > 0 ? { superseded } : {}) },
    format: "JSONCompactEachRow",
  });
  const metricRows = (await rs.json<unknown>()).map((r) => metricRow.parse(r));
  return { traces: traceRows.map(({ superseded: _, ...r }) => r), metrics: metricRows, superseded };
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

const questionRow = (r: unknown) =>
  compact(r, "sssa", (x) => ({ service_name: x[0] as string, pipeline_version: x[1] as string, question_hash: x[2] as string, documents: x[3] as string[] }));

/** The documents the latest trace of a question retrieved, per service and version. */
export type LiveQuestionRow = ReturnType<typeof questionRow>;

/**
 * For the window's traces of `services` that have a question, per service, pipeline version and
 * question (its hash) asked of more than one version of the service, the distinct document ids the
 * latest trace (by time, then trace id) retrieved.
 */
export async function liveQuestions(store: Store, f: LiveFilter, services: readonly string[], superseded: readonly string[]): Promise<LiveQuestionRow[]> {
  if (services.length === 0) return [];
  const rs = await store.client.query({
    // Only the questions asked of several versions leave the engine (the rows are most of the cost).
    query: `SELECT service_name, pipeline_version, question, documents FROM (
        SELECT service_name, pipeline_version, toString(question_hash) AS question, arrayDistinct(argMax(documents, (created_at, trace_id))) AS documents,
          count() OVER (PARTITION BY service_name, question_hash) AS versions
        ${windowRows(store.database, f, superseded)} AND question_hash != 0 AND service_name IN {services:Array(String)}
        GROUP BY service_name, pipeline_version, question_hash)
      WHERE versions > 1`,
    query_params: { ...params(f), services: [...services], ...(superseded.length > 0 ? { superseded } : {}) },
    format: "JSONCompactEachRow",
  });
  return (await rs.json<unknown>()).map(questionRow);
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

/** The stream's judge failures by kind and calls skipped for the judge budget, over the minutes from the one holding `sinceMs`. */
export interface LiveStreamStats {
  readonly judge_errors: Readonly<Record<string, number>>;
  readonly judge_skipped_budget_exhausted: number;
}

/** {@link LiveStreamStats} from `ingestion_stats` (migration 9; every scorer of the store). */
export async function liveStreamStats(store: Store, sinceMs: number): Promise<LiveStreamStats> {
  const rs = await store.client.query({
    query: `SELECT sumMap(judge_errors) AS errors, sum(judge_skipped_budget_exhausted) AS budget
      FROM ${store.database}.ingestion_stats FINAL WHERE minute >= toStartOfMinute(fromUnixTimestamp64Milli({since:Int64}, 'UTC'))`,
    query_params: { since: sinceMs },
    format: "JSONEachRow",
  });
  const row = z.object({ errors: z.record(z.string(), num), budget: num }).parse((await rs.json<unknown>())[0]);
  const judge_errors: Record<string, number> = {};
  for (const k of Object.keys(row.errors).sort()) if ((row.errors[k] as number) > 0) judge_errors[k] = row.errors[k] as number;
  return { judge_errors, judge_skipped_budget_exhausted: row.budget };
}
