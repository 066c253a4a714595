import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, type Store } from "../../store/src/client.js";
import { loadMigrations } from "../../store/src/migrationFiles.js";

const DB = "rm_parts";
const SETTINGS = ["min_bytes_for_wide_part = 1073741824", "merge_selector_base = 20"];

async function rows<T>(store: Store, query: string): Promise<T[]> {
  return (await store.client.query({ query, format: "JSONEachRow" })).json<T>();
}

/** 6,000 rows of 2,000-character results: about 12 MB uncompressed, over the engine's default Wide threshold (10 MiB). */
function cacheRows(prefix: string): object[] {
  return Array.from({ length: 6000 }, (_, i) => ({
    cache_key: `${prefix}-${i}`,
    judge_model: "m",
    judge_prompt_version: "p",
    result: `${i} `.repeat(2000).slice(0, 2000),
    created_at: Date.UTC(2026, 0, 1),
    version: 1,
  }));
}

describe("embedded store: MergeTree parts stay Compact up to 1 GiB and merge less often (issues 12 and 15)", () => {
  it("every table of the store carries each setting once, also after reopening; a 12 MB part is Compact where the default makes it Wide", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-parts-"));
    let store = await openStore({ kind: "embedded", home, database: DB });
    await store.close();
    store = await openStore({ kind: "embedded", home, database: DB });
    try {
      const tables = await rows<{ name: string; create_table_query: string }>(
        store,
        `SELECT name, create_table_query FROM system.tables WHERE database = '${DB}' AND engine LIKE '%MergeTree' ORDER BY name`,
      );
      // every table the migrations create, plus schema_migrations
      const created = new Set(
        loadMigrations()
          .flatMap((m) => m.sql(DB))
          .flatMap((q) => /^CREATE TABLE IF NOT EXISTS \w+\.(\w+)/u.exec(q)?.[1] ?? []),
      );
      expect(tables.map((t) => t.name).sort()).toEqual([...created, "schema_migrations"].sort());
      for (const t of tables) for (const setting of SETTINGS) expect(t.create_table_query.split(setting).length - 1, `${t.name}: ${setting}`).toBe(1);

      // The engine's default for comparison: a table without the setting writes the same rows as a Wide part.
      await store.client.command({ query: `CREATE TABLE ${DB}.plain AS ${DB}.judge_cache ENGINE = ReplacingMergeTree(version) ORDER BY cache_key` });
      await store.client.insert({ table: `${DB}.judge_cache`, values: cacheRows("a"), format: "JSONEachRow" });
      await store.client.insert({ table: `${DB}.plain`, values: cacheRows("a"), format: "JSONEachRow" });
      const parts = await rows<{ table: string; part_type: string; big: number }>(
        store,
        `SELECT table, part_type, data_uncompressed_bytes > 10485760 AS big FROM system.parts WHERE database = '${DB}' AND table IN ('judge_cache', 'plain') AND active ORDER BY table`,
      );
      expect(parts).toEqual([
        { table: "judge_cache", part_type: "Compact", big: 1 },
        { table: "plain", part_type: "Wide", big: 1 },
      ]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
