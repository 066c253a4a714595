import type { Store } from "./client.js";

/**
 * The trace ids among `traceIds` that `ragmeter forget` removed (table `forgotten_traces`, key
 * `trace_id`): one query for the whole batch, a primary-key lookup. The table is almost always
 * empty, and the lookup's cost is in binding the batch's ids (≈ 29 ms of engine time for 1,300
 * ids in `bench:scorer`, a sixth of the scorer's engine time), so its row count is read first,
 * from the parts' metadata, and an empty table answers without the lookup. An embedded store's
 * handle, the only writer of its files (its lock), remembers an empty table (`Store.noneForgotten`)
 * until its own `forgetTraces`: a span write then costs one statement less (a
 * count was 4.9 ms of a 40 ms write in bench:phoenix, issue 38).
 */
export async function forgottenAmong(store: Store, traceIds: readonly string[]): Promise<Set<string>> {
  if (traceIds.length === 0) return new Set();
  const db = store.database;
  if (store.noneForgotten?.has(db) === true) return new Set();
  const counted = await store.client.query({ query: `SELECT count() AS n FROM ${db}.forgotten_traces`, format: "JSONEachRow" });
  const [{ n } = { n: "0" }] = await counted.json<{ n: string | number }>();
  if (Number(n) === 0) {
    store.noneForgotten?.add(db);
    return new Set();
  }
  const rs = await store.client.query({
    query: `SELECT DISTINCT trace_id FROM ${db}.forgotten_traces WHERE trace_id IN {ids:Array(String)}`,
    query_params: { ids: traceIds },
    format: "JSONEachRow",
  });
  return new Set((await rs.json<{ trace_id: string }>()).map((r) => r.trace_id));
}
