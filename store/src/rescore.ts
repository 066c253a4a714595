import { z } from "zod";
import { withChunkTexts } from "./chunks.js";
import type { Store } from "./client.js";

/** An interaction as stored: what the readers of its time read from the trace (design §4). */
export interface StoredReading {
  readonly trace_id: string;
  readonly question: string;
  readonly answer: string | null;
  readonly retrieved: readonly { id: string; document_id: string; text: string; score: number | null }[];
  readonly generator_model: string | null;
  readonly input_tokens: string | null;
  readonly output_tokens: string | null;
  /** When it was scored, ms since the epoch (kept when it is re-scored). */
  readonly created_at: number;
}

const readingRow = z.object({
  trace_id: z.string(),
  question: z.string(),
  answer: z.string().nullable(),
  retrieved: z.array(z.object({ id: z.string(), document_id: z.string(), text: z.string(), score: z.number().nullable() })),
  generator_model: z.string().nullable(),
  input_tokens: z.string().nullable(),
  output_tokens: z.string().nullable(),
  created_at: z.coerce.number(),
});

/**
 * The stored interactions of a service's traces whose last span arrived at or after `since` and
 * that were not forgotten, by trace id.
 */
export async function storedReadings(store: Store, service: string, since: Date): Promise<StoredReading[]> {
  const db = store.database;
  const rs = await store.client.query({
    query: `SELECT trace_id, question, answer, arrayMap(r -> tuple(r.id, r.document_id, r.text, r.score), retrieved) AS retrieved, chunk_hashes, generator_model,
        toString(input_tokens) AS input_tokens, toString(output_tokens) AS output_tokens, toUnixTimestamp64Milli(created_at) AS created_at
      FROM ${db}.interactions FINAL
      WHERE service_name = {service:String}
        AND trace_id IN (SELECT trace_id FROM ${db}.spans FINAL GROUP BY trace_id HAVING max(received_at) >= {since:DateTime64(3, 'UTC')})
        AND trace_id NOT IN (SELECT trace_id FROM ${db}.forgotten_traces)
      ORDER BY trace_id`,
    query_params: { service, since: since.toISOString().replace("T", " ").replace("Z", "") },
    format: "JSONEachRow",
  });
  const rows = (await rs.json<Record<string, unknown>>()).map((r) => {
    const retrieved = (r["retrieved"] as unknown[][]).map(([id, document_id, text, score]) => ({ id, document_id, text, score }));
    return readingRow.extend({ chunk_hashes: z.array(z.string()) }).parse({ ...r, retrieved });
  });
  return (await withChunkTexts(store, rows)).map(({ chunk_hashes: _, ...x }) => x);
}

/** One stored score of a trace. */
export interface TraceScore {
  readonly trace_id: string;
  readonly run_id: string;
  readonly metric: string;
  readonly judge_prompt_version: string;
  readonly value: number | null;
  readonly status: string;
}
const scoreRow = z.object({
  trace_id: z.string(),
  run_id: z.string(),
  metric: z.string(),
  judge_prompt_version: z.string(),
  value: z.number().nullable(),
  status: z.string(),
});

/** The stored scores of the traces (every run, metric and prompt version; repeat 0). */
export async function traceScores(store: Store, traceIds: readonly string[]): Promise<TraceScore[]> {
  if (traceIds.length === 0) return [];
  const rs = await store.client.query({
    query: `SELECT trace_id, run_id, metric, judge_prompt_version, value, status FROM ${store.database}.scores FINAL
      WHERE trace_id IN {ids:Array(String)} AND repeat_index = 0 ORDER BY trace_id, metric, judge_prompt_version`,
    query_params: { ids: traceIds },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((r) => scoreRow.parse(r));
}

/**
 * Removes the scores and claims of the traces, in the runs they are filed under, made under another
 * judge prompt version than `promptVersion`: once a trace is re-scored under it there, its older rows
 * would count it twice. Other runs' rows are kept. Lightweight deletes, waited for (on every replica
 * when clustered, like `forget`).
 */
export async function dropOtherVersions(store: Store, traces: readonly { run_id: string; trace_id: string }[], promptVersion: string): Promise<void> {
  if (traces.length === 0) return;
  const cluster = store.target.kind === "server" ? (store.target.cluster ?? null) : null;
  const table = (t: string): string => (cluster === null ? `${store.database}.${t}` : `${store.database}.${t}_local ON CLUSTER ${cluster}`);
  const byRun = new Map<string, string[]>();
  for (const x of traces) {
    const ids = byRun.get(x.run_id) ?? [];
    ids.push(x.trace_id);
    byRun.set(x.run_id, ids);
  }
  for (const [run, ids] of byRun) {
    for (const t of ["scores", "claims"]) {
      await store.client.command({
        query: `DELETE FROM ${table(t)} WHERE run_id = {run:String} AND trace_id IN {ids:Array(String)} AND judge_prompt_version != {pv:String}`,
        query_params: { run, ids, pv: promptVersion },
        clickhouse_settings: { mutations_sync: "2", lightweight_deletes_sync: "2" },
      });
    }
  }
}
