import { z } from "zod";
import type { Store } from "./client.js";

/**
 * Queries of `ragmeter live` / `/api/live` (design §3, live view) on `live_traces` (migration 7): the
 * window is a range of its key (`created_at` first), so what a query reads grows with the traces in
 * the window, not with the history. A trace scored more than once (late spans, a new judge prompt
 * version) has a row per scoring: the one of the latest write (highest `version`) counts (`rescore`
 * keeps `created_at`, so its row replaces the one of the same key). As a trace's `created_at` never
 * goes back, the latest row of a trace whose interaction is in the window is in the window too;
 * filters on service and version apply to that latest row.
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
function windowRows(db: string, f: LiveFilter, superseded: readonly string[]): string {
  return `FROM ${db}.live_traces FINAL WHERE created_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')${
    superseded.length > 0 ? " AND concat(trace_id, ':', toString(version)) NOT IN {superseded:Array(String)}" : ""
  }${f.service !== undefined ? " AND service_name = {service:String}" : ""}${f.pipelineVersion !== undefined ? " AND pipeline_version = {pv:String}" : ""}`;
}

const num = z.union([z.number(), z.string()]).transform(Number);
const tuple = <T extends [z.ZodType, ...z.ZodType[]]>(...items: T) => z.tuple(items);

const aggregateRow = tuple(
  z.string(), // service_name
  z.string(), // pipeline_version
  num, // bucket
  z.string(), // status
  z.string(), // grounding_status
  z.string(), // relevance_status
  num, // grounding spent tokens (0/1)
  z.string(), // grounding_judge_model
  num, // relevance spent tokens (0/1)
  z.string(), // relevance_judge_model
  z.array(z.string()), // superseded
  num, // traces
  num, // grounding values
  z.number().nullable(), // their sum
  num, // relevance values
  z.number().nullable(),
  num, // grounding input tokens
  num, // grounding output tokens
  num, // relevance input tokens
  num, // relevance output tokens
).transform((r) => ({
  service_name: r[0],
  pipeline_version: r[1],
  bucket: r[2],
  status: r[3],
  grounding_status: r[4],
  relevance_status: r[5],
  grounding_spent: r[6] === 1,
  grounding_judge_model: r[7],
  relevance_spent: r[8] === 1,
  relevance_judge_model: r[9],
  superseded: r[10],
  traces: r[11],
  grounding_values: r[12],
  grounding_sum: r[13] ?? 0,
  relevance_values: r[14],
  relevance_sum: r[15] ?? 0,
  grounding_input_tokens: r[16],
  grounding_output_tokens: r[17],
  relevance_input_tokens: r[18],
  relevance_output_tokens: r[19],
}));

/**
 * The traces of one service, pipeline version and trend bucket of the window that share the
 * interaction's status, the grounding and relevance scores' statuses (`''`: no such score), whether
 * each score's judge spent tokens and its model: how many, per metric the count and sum of the
 * values (a value is set only with status `ok`), and the judges' tokens.
 */
export type LiveAggregateRow = Omit<z.output<typeof aggregateRow>, "superseded">;

/**
 * The window's aggregates ({@link LiveAggregateRow}); `bounds` are the trend buckets' starts after
 * the first (a trace is in the bucket of the last start at or before its time). The same statement
 * finds the rows a later scoring of their trace superseded; when there are any, the aggregates are
 * computed again without them (their keys, `trace_id:version`, are returned for the other queries).
 */
export async function liveAggregates(store: Store, f: LiveFilter, bounds: readonly number[]): Promise<{ rows: LiveAggregateRow[]; superseded: string[] }> {
  const db = store.database;
  const run = async (superseded: readonly string[]) => {
    const rs = await store.client.query({
      query: `SELECT service_name, pipeline_version, arrayCount(b -> b <= toUnixTimestamp64Milli(created_at), {bounds:Array(Float64)}) AS bucket,
          status, grounding_status, relevance_status,
          grounding_input_tokens + grounding_output_tokens > 0 AS grounding_spent, grounding_judge_model,
          relevance_input_tokens + relevance_output_tokens > 0 AS relevance_spent, relevance_judge_model,
          (SELECT groupArray(concat(trace_id, ':', toString(v))) FROM (
            SELECT trace_id, arrayJoin(arrayFilter(v -> v < max(version), groupArray(version))) AS v
            FROM ${db}.live_traces WHERE created_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC') GROUP BY trace_id HAVING count() > 1)) AS superseded,
          count(), count(grounding_value), sum(grounding_value), count(relevance_value), sum(relevance_value),
          sum(grounding_input_tokens), sum(grounding_output_tokens), sum(relevance_input_tokens), sum(relevance_output_tokens)
        ${windowRows(db, f, superseded)}
        GROUP BY service_name, pipeline_version, bucket, status, grounding_status, relevance_status, grounding_spent, grounding_judge_model, relevance_spent, relevance_judge_model`,
      query_params: { ...params(f), bounds: [...bounds], ...(superseded.length > 0 ? { superseded } : {}) },
      format: "JSONCompactEachRow",
    });
    return (await rs.json<unknown>()).map((r) => aggregateRow.parse(r));
  };
  const first = await run([]);
  const superseded = first[0]?.superseded ?? [];
  const rows = superseded.length === 0 ? first : await run(superseded);
  return { rows: rows.map(({ superseded: _, ...r }) => r), superseded };
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
  compact(r, "ssnssvsv", (x) => ({
    service_name: x[0] as string,
    pipeline_version: x[1] as string,
    t: Number(x[2]),
    trace_id: x[3] as string,
    grounding_status: x[4] as string,
    grounding_value: x[5] as number | null,
    relevance_status: x[6] as string,
    relevance_value: x[7] as number | null,
  }));

/** A trace of the window with an `ok` grounding or relevance value. */
export type LiveRecentRow = ReturnType<typeof recentRow>;

/**
 * The `limit` most recent traces of the window (by time, then trace id, latest first) with an `ok`
 * grounding or relevance value: read from the end of the table's key, so it costs what it returns.
 */
export async function liveRecent(store: Store, f: LiveFilter, limit: number, superseded: readonly string[]): Promise<LiveRecentRow[]> {
  const rs = await store.client.query({
    query: `SELECT service_name, pipeline_version, toUnixTimestamp64Milli(created_at) AS t, trace_id, grounding_status, grounding_value, relevance_status, relevance_value
      ${windowRows(store.database, f, superseded)}
        AND ((grounding_status = 'ok' AND grounding_value IS NOT NULL) OR (relevance_status = 'ok' AND relevance_value IS NOT NULL))
      ORDER BY created_at DESC, trace_id DESC LIMIT {limit:UInt32}`,
    query_params: { ...params(f), limit, ...(superseded.length > 0 ? { superseded } : {}) },
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
  grounding_status: z.string(),
  grounding_value: z.number().nullable(),
  grounding_judge_model: z.string(),
  grounding_input_tokens: num,
  grounding_output_tokens: num,
  relevance_status: z.string(),
  relevance_value: z.number().nullable(),
  relevance_judge_model: z.string(),
  relevance_input_tokens: num,
  relevance_output_tokens: num,
  version: num,
});

/** A row of `live_traces` as written (every scoring of a trace, not reduced to the latest). */
export type LiveTraceRow = z.output<typeof rawSchema>;

/** Every row of `live_traces` created at or after `sinceMs` (every version), oldest first: what the queries above reduce. */
export async function liveTraceRowsSince(store: Store, sinceMs: number): Promise<LiveTraceRow[]> {
  const rs = await store.client.query({
    query: `SELECT trace_id, toUnixTimestamp64Milli(created_at) AS t, service_name, pipeline_version, status, toString(question_hash) AS question_hash, documents,
        grounding_status, grounding_value, grounding_judge_model, grounding_input_tokens, grounding_output_tokens,
        relevance_status, relevance_value, relevance_judge_model, relevance_input_tokens, relevance_output_tokens, version
      FROM ${store.database}.live_traces WHERE created_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC') ORDER BY created_at, trace_id, version`,
    query_params: { since: sinceMs },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((r) => rawSchema.parse(r));
}
