import type { GoldenItem, GoldenSet } from "@ragmeter/golden";
import { z } from "zod";
import type { Store } from "./client.js";

/** Golden items per insert: a 20,000-item set as one insert was a 22 MB body held twice (issue 12). */
export const GOLDEN_INSERT_ROWS = 2000;

/**
 * Stores a golden set's items under its hash (`golden_sets`, `golden_items`, design §2), so the
 * streaming scorer can compute recall for a golden id without the file. Idempotent. The items go
 * in inserts of {@link GOLDEN_INSERT_ROWS}, then the set's row.
 */
export async function saveGoldenSet(store: Store, set: GoldenSet): Promise<void> {
  const version = store.nextVersion();
  for (let start = 0; start < set.items.length; start += GOLDEN_INSERT_ROWS) {
    await store.client.insert({
      table: `${store.database}.golden_items`,
      values: set.items.slice(start, start + GOLDEN_INSERT_ROWS).map((it, i) => ({
        golden_set_hash: set.sha256,
        golden_id: it.id,
        position: start + i,
        question: it.question,
        expected_source: it.expected_source,
        expected_substring: it.expected_substring,
        expected_chunk_id: it.expected_chunk_id ?? null,
        reference_answer: it.reference_answer,
        key_facts: it.key_facts ?? [],
        has_key_facts: it.key_facts === null ? 0 : 1,
        tags: it.tags,
        version,
      })),
      format: "JSONEachRow",
    });
  }
  await store.client.insert({
    table: `${store.database}.golden_sets`,
    values: [{ golden_set_hash: set.sha256, path: set.path, item_count: set.items.length, created_at: Date.now(), version }],
    format: "JSONEachRow",
  });
}

const itemRow = z.object({
  run_id: z.string(),
  golden_id: z.string(),
  question: z.string(),
  expected_source: z.string().nullable(),
  expected_substring: z.string().nullable(),
  expected_chunk_id: z.string().nullable(),
  reference_answer: z.string().nullable(),
  key_facts: z.array(z.string()),
  has_key_facts: z.union([z.number(), z.string()]).transform(Number),
  tags: z.array(z.string()),
});

/**
 * The golden items named by (run id, golden id) pairs, resolved through each run's golden-set hash
 * (design §2: the streaming scorer computes recall without the file). Pairs whose run or item is
 * unknown are absent from the result. Key: `${run_id}\u0000${golden_id}`.
 */
export async function goldenItemsFor(store: Store, pairs: readonly { run_id: string; golden_id: string }[]): Promise<Map<string, GoldenItem>> {
  const out = new Map<string, GoldenItem>();
  if (pairs.length === 0) return out;
  const db = store.database;
  const rs = await store.client.query({
    query: `SELECT r.run_id AS run_id, g.golden_id AS golden_id, g.question AS question, g.expected_source AS expected_source,
        g.expected_substring AS expected_substring, g.expected_chunk_id AS expected_chunk_id, g.reference_answer AS reference_answer, g.key_facts AS key_facts,
        g.has_key_facts AS has_key_facts, g.tags AS tags
      FROM (SELECT run_id, golden_set_hash FROM ${db}.runs FINAL WHERE run_id IN {runs:Array(String)}) AS r
      INNER JOIN (SELECT * FROM ${db}.golden_items FINAL WHERE golden_id IN {ids:Array(String)}) AS g
      ON g.golden_set_hash = r.golden_set_hash`,
    query_params: { runs: [...new Set(pairs.map((p) => p.run_id))], ids: [...new Set(pairs.map((p) => p.golden_id))] },
    format: "JSONEachRow",
  });
  for (const raw of await rs.json<unknown>()) {
    const r = itemRow.parse(raw);
    out.set(`${r.run_id}\u0000${r.golden_id}`, goldenItemOf(r));
  }
  return out;
}

const setItemRow = itemRow.omit({ run_id: true });

/** The items of a stored golden set, in file order. */
export async function goldenItemsOfSet(store: Store, goldenSetHash: string): Promise<GoldenItem[]> {
  const rs = await store.client.query({
    query: `SELECT golden_id, question, expected_source, expected_substring, expected_chunk_id, reference_answer, key_facts, has_key_facts, tags
      FROM ${store.database}.golden_items FINAL WHERE golden_set_hash = {hash:String} ORDER BY position`,
    query_params: { hash: goldenSetHash },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((raw) => goldenItemOf(setItemRow.parse(raw)));
}

/** A stored `golden_items` row as the item it was loaded from (its key facts null unless the item had them). */
function goldenItemOf(r: z.infer<typeof setItemRow>): GoldenItem {
  return {
    id: r.golden_id,
    question: r.question,
    expected_source: r.expected_source,
    expected_substring: r.expected_substring,
    expected_chunk_id: r.expected_chunk_id,
    reference_answer: r.reference_answer,
    key_facts: r.has_key_facts ? r.key_facts : null,
    tags: r.tags,
  };
}
