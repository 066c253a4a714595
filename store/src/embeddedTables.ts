import type { ClickHouseClient } from "@clickhouse/client";

/**
 * MergeTree settings ragmeter gives every table of the embedded store (not a server's: a server's
 * tables are its operator's to tune).
 *
 * `min_bytes_for_wide_part` 1 GiB (the engine's default 10 MiB): parts up to 1 GiB uncompressed stay
 * Compact (all columns in one file). Merging Wide parts holds read buffers for every column stream of
 * every source part and write buffers for every stream of the new part: in `ragmeter eval` (20,000
 * questions) a merge of 7–8 `interactions` parts (12–45 MiB) took 130–190 MiB of the engine's memory
 * (`system.merges.memory_usage`), Compact 30–80 MiB; the engine's own peak (`MemoryTracking`)
 * 214 → 101 MiB, the merges 2–3× faster; in the streaming scorer (100,000 traces) the same. Rows and
 * results are unchanged (part format only). Measured in bench/README.md (issues 12 and 15).
 *
 * `merge_selector_base` 20 (the engine's default 5): the merge selector waits for more parts of a
 * like size before merging them, so each row is rewritten by fewer merges (less write
 * amplification) at the price of more active parts. The streaming scorer writes a part per fetch
 * and per scoring pass; with the default its merges took 72–107 µs of engine CPU per trace
 * (`MergeMutate` threads), a sixth of all its CPU on this 2-core box; with 20, 0–40 (bench:scorer,
 * 50,000 traces, three alternated pairs: 0.65–0.75 ms of CPU per trace against 0.75–0.80). Reads are
 * unchanged (`FINAL` collapses versions across parts as before).
 */
const EMBEDDED_TABLE_SETTINGS: Readonly<Record<string, number>> = { min_bytes_for_wide_part: 1_073_741_824, merge_selector_base: 20 };

/**
 * Brings every MergeTree table of `database` to {@link EMBEDDED_TABLE_SETTINGS} (`ALTER TABLE …
 * MODIFY SETTING`, only for tables whose definition does not carry them yet, so reopening a store
 * costs one query). Parts written before keep their format until merged.
 */
export async function applyEmbeddedTableSettings(client: ClickHouseClient, database: string): Promise<void> {
  const wanted = Object.entries(EMBEDDED_TABLE_SETTINGS).map(([k, v]) => `${k} = ${v}`);
  const rs = await client.query({
    query: `SELECT name, create_table_query FROM system.tables WHERE database = {db:String} AND engine LIKE '%MergeTree'`,
    query_params: { db: database },
    format: "JSONEachRow",
  });
  for (const t of await rs.json<{ name: string; create_table_query: string }>()) {
    if (wanted.every((w) => new RegExp(`\\b${w}(?!\\d)`, "u").test(t.create_table_query))) continue;
    await client.command({ query: `ALTER TABLE ${database}.\`${t.name}\` MODIFY SETTING ${wanted.join(", ")}` });
  }
}
