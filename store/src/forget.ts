import { z } from "zod";
import type { Store } from "./client.js";

/** Which traces `ragmeter forget` removes. */
export type ForgetSelection =
  | { readonly kind: "traces"; readonly traceIds: readonly string[] }
  /** Traces with a span of `service` whose last span arrived before `before`, or whose interaction (service `service`) was built before it. */
  | { readonly kind: "service"; readonly service: string; readonly before: Date };

/** What forgetting the selected traces removes (or, dry run, would remove), per table; scores are kept and counted. */
export interface ForgetCounts {
  readonly traces: number;
  /** Span rows deleted. */
  readonly spans: number;
  /** Log records (GenAI content events) deleted. */
  readonly logs: number;
  /** Interactions whose question, answer and retrieved items are blanked (rows kept). */
  readonly interactions: number;
  /** Claims whose text is blanked (verdicts kept). */
  readonly claims: number;
  /** Score rows of those traces, kept untouched. */
  readonly scores_kept: number;
}

/** Trace ids per statement: a literal list stays far below ClickHouse's `max_query_size` (256 KiB). */
const CHUNK = 1000;

const quote = (s: string): string => `'${s.replace(/\\/gu, "\\\\").replace(/'/gu, "\\'")}'`;

function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/**
 * The statements that remove the captured content of `traceIds` (design §13):
 * lightweight `DELETE` of their spans and log records (all content), and `ALTER TABLE … UPDATE`
 * blanking the content columns of their interactions and claims, whose rows carry the statuses,
 * verdicts and times the history keeps (scores are not touched). Clustered (design §11): on the
 * replicated `_local` tables `ON CLUSTER` (a `Distributed` table takes neither).
 * Trace ids are written as quoted literals, `CHUNK` per statement.
 */
export function forgetStatements(database: string, cluster: string | null, traceIds: readonly string[]): string[] {
  const table = (t: string): string => (cluster === null ? `${database}.${t}` : `${database}.${t}_local ON CLUSTER ${cluster}`);
  return chunks(traceIds, CHUNK).flatMap((ids) => {
    const inIds = `trace_id IN (${ids.map(quote).join(", ")})`;
    // Clustered, the Distributed table: every shard's interactions.
    const interactions = `${database}.interactions`;
    const spans = `${database}.spans`;
    return [
      // First, while their interactions and spans still hold the hashes: the chunks only these traces
      // retrieved (a chunk another trace's interaction or span also refers to stays).
      `DELETE FROM ${table("chunks")} WHERE chunk_hash IN (SELECT arrayJoin(chunk_hashes) FROM ${interactions} WHERE ${inIds} UNION ALL SELECT arrayJoin(chunk_hashes) FROM ${spans} WHERE ${inIds}) AND chunk_hash NOT IN (SELECT arrayJoin(chunk_hashes) FROM ${interactions} WHERE NOT ${inIds} UNION ALL SELECT arrayJoin(chunk_hashes) FROM ${spans} WHERE NOT ${inIds})`,
      `DELETE FROM ${table("spans")} WHERE ${inIds}`,
      `DELETE FROM ${table("logs")} WHERE ${inIds}`,
      `ALTER TABLE ${table("interactions")} UPDATE question = '', answer = NULL, retrieved = [], chunk_hashes = [] WHERE ${inIds} AND (question != '' OR answer IS NOT NULL OR notEmpty(retrieved))`,
      `ALTER TABLE ${table("claims")} UPDATE claim = '', claim_start = 0, claim_length = 0, answer_digest = 0 WHERE ${inIds} AND (claim != '' OR claim_length > 0)`,
    ];
  });
}

const idRow = z.object({ trace_id: z.string() });

/** The trace ids `selection` names (sorted, distinct). */
export async function selectForgetTraces(store: Store, selection: ForgetSelection): Promise<string[]> {
  if (selection.kind === "traces") return [...new Set(selection.traceIds)].sort();
  const db = store.database;
  const rs = await store.client.query({
    query: `SELECT DISTINCT trace_id FROM (
        SELECT trace_id FROM ${db}.spans FINAL GROUP BY trace_id
          HAVING countIf(service_name = {service:String}) > 0 AND max(received_at) < {before:DateTime64(3, 'UTC')}
        UNION ALL
        SELECT trace_id FROM ${db}.interactions FINAL WHERE service_name = {service:String} AND created_at < {before:DateTime64(3, 'UTC')}
      ) ORDER BY trace_id`,
    query_params: { service: selection.service, before: selection.before.toISOString().replace("T", " ").replace("Z", "") },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((r) => idRow.parse(r).trace_id);
}

const countRow = z.object({ spans: z.coerce.number(), logs: z.coerce.number(), interactions: z.coerce.number(), claims: z.coerce.number(), scores: z.coerce.number() });

/** What forgetting `traceIds` removes now, per table (the rows as reads see them, FINAL). */
export async function countForgettable(store: Store, traceIds: readonly string[]): Promise<ForgetCounts> {
  const db = store.database;
  const total = { spans: 0, logs: 0, interactions: 0, claims: 0, scores: 0 };
  for (const ids of chunks(traceIds, 10 * CHUNK)) {
    const where = "trace_id IN {ids:Array(String)}";
    const rs = await store.client.query({
      query: `SELECT
          (SELECT count() FROM ${db}.spans FINAL WHERE ${where}) AS spans,
          (SELECT count() FROM ${db}.logs FINAL WHERE ${where}) AS logs,
          (SELECT count() FROM ${db}.interactions FINAL WHERE ${where} AND (question != '' OR answer IS NOT NULL OR notEmpty(retrieved))) AS interactions,
          (SELECT count() FROM ${db}.claims FINAL WHERE ${where} AND (claim != '' OR claim_length > 0)) AS claims,
          (SELECT count() FROM ${db}.scores FINAL WHERE ${where}) AS scores`,
      query_params: { ids },
      format: "JSONEachRow",
    });
    const c = countRow.parse((await rs.json<unknown>())[0]);
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += c[k];
  }
  return { traces: traceIds.length, spans: total.spans, logs: total.logs, interactions: total.interactions, claims: total.claims, scores_kept: total.scores };
}

/**
 * Forgets `traceIds`: first records them in `forgotten_traces` (so a scorer drops their spans from
 * then on, Kafka replays included), then removes their captured content ({@link forgetStatements}),
 * each statement waiting until it is done (on every replica when clustered).
 * Clustered when the store is a server with `CLICKHOUSE_CLUSTER` set.
 * @returns what was removed, counted just before.
 */
export async function forgetTraces(store: Store, traceIds: readonly string[], opts: { reason: string; now: number }): Promise<ForgetCounts> {
  const cluster = store.target.kind === "server" ? (store.target.cluster ?? null) : null;
  const counts = await countForgettable(store, traceIds);
  if (traceIds.length === 0) return counts;
  const version = store.nextVersion();
  // Written below: the handle no longer knows the table empty.
  store.noneForgotten?.delete(store.database);
  for (const ids of chunks(traceIds, 10 * CHUNK)) {
    await store.client.insert({
      table: `${store.database}.forgotten_traces`,
      values: ids.map((trace_id) => ({ trace_id, forgotten_at: opts.now, reason: opts.reason, version })),
      format: "JSONEachRow",
      // Clustered: into the Distributed table, written to the shards before the insert returns, so
      // every scorer sees the tombstones before the content goes.
      ...(cluster !== null ? { clickhouse_settings: { distributed_foreground_insert: 1 } } : {}),
    });
  }
  for (const query of forgetStatements(store.database, cluster, traceIds)) {
    await store.client.command({ query, clickhouse_settings: { mutations_sync: "2", lightweight_deletes_sync: "2" } });
  }
  // Chunks may be gone: this handle writes them again when next retrieved.
  store.recentChunks.clear();
  return counts;
}
