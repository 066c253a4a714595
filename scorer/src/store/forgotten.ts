import type { Store } from "./client.js";

/**
 * The trace ids among `traceIds` that `ragmeter forget` removed (table `forgotten_traces`, key
 * `trace_id`): one query for the whole batch, a primary-key lookup.
 */
export async function forgottenAmong(store: Store, traceIds: readonly string[]): Promise<Set<string>> {
  if (traceIds.length === 0) return new Set();
  const rs = await store.client.query({
    query: `SELECT DISTINCT trace_id FROM ${store.database}.forgotten_traces WHERE trace_id IN {ids:Array(String)}`,
    query_params: { ids: traceIds },
    format: "JSONEachRow",
  });
  return new Set((await rs.json<{ trace_id: string }>()).map((r) => r.trace_id));
}
