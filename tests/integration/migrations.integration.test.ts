import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../store/src/client.js";
import { clusteredStatements, migrate, migrationStatements } from "../../store/src/migrations.js";

let store: Store;
beforeAll(async () => {
  store = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-mig-")), database: "ragmeter" });
});
afterAll(async () => {
  await store?.close();
});

describe("schema migrations (design §6, §11)", () => {
  it("create every table of design §6 with its key, and are idempotent", async () => {
    await migrate(store.client, "ragmeter");
    const rs = await store.client.query({ query: "SELECT name, sorting_key, engine FROM system.tables WHERE database = 'ragmeter' ORDER BY name", format: "JSONEachRow" });
    const tables = Object.fromEntries(((await rs.json()) as { name: string; sorting_key: string; engine: string }[]).map((t) => [t.name, t.sorting_key]));
    expect(tables).toMatchObject({
      spans: "trace_id, span_id",
      interactions: "trace_id",
      scores: "run_id, trace_id, metric, judge_prompt_version, repeat_index",
      claims: "run_id, trace_id, judge_prompt_version, repeat_index, claim_index",
      runs: "run_id",
      golden_items: "golden_set_hash, golden_id",
      judge_cache: "cache_key",
    });
  });

  it("every statement's clustered variant (ON CLUSTER, Replicated*, Distributed) parses in the ClickHouse engine", async () => {
    const statements = migrationStatements("ragmeter", "ragmeter_cluster");
    expect(statements.length).toBeGreaterThan(20);
    for (const sql of statements) {
      expect(sql).toContain("ON CLUSTER ragmeter_cluster");
      const rs = await store.client.query({ query: `EXPLAIN AST ${sql}`, format: "TabSeparated" });
      expect((await rs.text()).length, sql.slice(0, 60)).toBeGreaterThan(0);
    }
    const spans = clusteredStatements(migrationStatements("db", null).find((s) => s.includes("db.spans ("))!, "c");
    expect(spans[0]).toMatch(/^CREATE TABLE IF NOT EXISTS db\.spans_local ON CLUSTER c \(/u);
    expect(spans[0]).toContain("ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/db/spans', '{replica}', version) ORDER BY (trace_id, span_id)");
    expect(spans[1]).toBe("CREATE TABLE IF NOT EXISTS db.spans ON CLUSTER c AS db.spans_local ENGINE = Distributed(c, db, spans_local, cityHash64(trace_id))");
    expect(clusteredStatements("ALTER TABLE db.interactions ADD COLUMN IF NOT EXISTS x String", "c")).toEqual([
      "ALTER TABLE db.interactions_local ON CLUSTER c ADD COLUMN IF NOT EXISTS x String",
      "ALTER TABLE db.interactions ON CLUSTER c ADD COLUMN IF NOT EXISTS x String",
    ]);
    expect(() => clusteredStatements("DROP TABLE db.x", "c")).toThrow(/no clustered form/u);
  });
});
