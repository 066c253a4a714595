import { z } from "zod";
import type { Store } from "./client.js";

/** Queries of `ragmeter live` (live traffic over a time window; every table read with FINAL). */

const num = z.union([z.number(), z.string()]).transform(Number);
const interactionSchema = z.object({
  trace_id: z.string(),
  service_name: z.string(),
  pipeline_version: z.string(),
  status: z.string(),
  question: z.string(),
  documents: z.array(z.string()),
  t: num,
});
const scoreSchema = z.object({
  trace_id: z.string(),
  metric: z.string(),
  value: z.number().nullable(),
  status: z.string(),
  judge_kind: z.string(),
  judge_model: z.string(),
  judge_input_tokens: num,
  judge_output_tokens: num,
});

/** A live interaction in the window: retrieved document ids in rank order, `t` = ms since the epoch. */
export type LiveInteractionRow = z.infer<typeof interactionSchema>;
/** A grounding or relevance score of a live trace. */
export type LiveScoreRow = z.infer<typeof scoreSchema>;

/** Filter of the live queries. */
export interface LiveFilter {
  /** Interactions created at or after this instant, ms since the epoch. */
  readonly sinceMs: number;
  readonly service?: string;
  readonly pipelineVersion?: string;
}

const where = (f: LiveFilter): string =>
  `source = 'live' AND created_at >= fromUnixTimestamp64Milli({since:Int64}, 'UTC')${f.service !== undefined ? " AND service_name = {service:String}" : ""}${f.pipelineVersion !== undefined ? " AND pipeline_version = {pv:String}" : ""}`;
const params = (f: LiveFilter) => ({
  since: f.sinceMs,
  ...(f.service !== undefined ? { service: f.service } : {}),
  ...(f.pipelineVersion !== undefined ? { pv: f.pipelineVersion } : {}),
});

/** Live interactions created in the window, oldest first. */
export async function liveInteractions(store: Store, f: LiveFilter): Promise<LiveInteractionRow[]> {
  const rs = await store.client.query({
    query: `SELECT trace_id, service_name, pipeline_version, status, question, arrayMap(r -> r.document_id, retrieved) AS documents, toUnixTimestamp64Milli(created_at) AS t
      FROM ${store.database}.interactions FINAL WHERE ${where(f)} ORDER BY created_at, trace_id`,
    query_params: params(f),
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((x) => interactionSchema.parse(x));
}

/** Grounding and relevance scores (run `live`) of the live interactions in the window. */
export async function liveScores(store: Store, f: LiveFilter): Promise<LiveScoreRow[]> {
  const db = store.database;
  const rs = await store.client.query({
    query: `SELECT trace_id, metric, value, status, judge_kind, judge_model, judge_input_tokens, judge_output_tokens
      FROM ${db}.scores FINAL
      WHERE run_id = 'live' AND metric IN ('grounding', 'relevance') AND trace_id IN (SELECT trace_id FROM ${db}.interactions FINAL WHERE ${where(f)})
      ORDER BY trace_id, metric, repeat_index`,
    query_params: params(f),
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((x) => scoreSchema.parse(x));
}
