import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { serverSettings } from "../../store/src/client.js";
import { migrationStatements, renderClusterDdl } from "../../store/src/migrations.js";

describe("the clustered schema (design §11, docs/scale-out.md)", () => {
  it("docs/cluster-ddl.sql is the one generated from the migrations (run `npm run docs:cluster-ddl` when this fails)", () => {
    expect(readFileSync(new URL("../../docs/cluster-ddl.sql", import.meta.url), "utf8")).toBe(renderClusterDdl("ragmeter", "ragmeter_cluster"));
  });

  it("shards every table with trace_id in its key by trace_id, the others by their first key column", () => {
    // The sorting keys read from the plain statements, independently of the clustered rewrite.
    const keys = new Map<string, string[]>();
    for (const s of migrationStatements("db", null)) {
      const m = /^CREATE TABLE IF NOT EXISTS db\.(\w+) \([\s\S]*\) ENGINE = ReplacingMergeTree(?:\(\w+\))? ORDER BY (?:\(([^)]*)\)|(\w+))/u.exec(s);
      if (m?.[1] !== undefined)
        keys.set(
          m[1],
          (m[2] ?? m[3] ?? "").split(",").map((k) => k.trim()),
        );
    }
    const shards = new Map<string, string>();
    for (const s of migrationStatements("db", "c")) {
      const m = /^CREATE TABLE IF NOT EXISTS db\.(\w+) ON CLUSTER c AS db\.\w+_local ENGINE = Distributed\(c, db, \w+_local, cityHash64\((\w+)\)\)$/u.exec(s);
      if (m?.[1] !== undefined && m[2] !== undefined) shards.set(m[1], m[2]);
    }
    expect([...shards.keys()].sort()).toEqual([...keys.keys()].filter((t) => t !== "schema_migrations").sort());
    for (const [table, shard] of shards) expect(shard, table).toBe(keys.get(table)?.includes("trace_id") ? "trace_id" : keys.get(table)?.[0]);
    // By hand: live scores and claims (run `live`) spread by trace, not all on one shard by run id.
    expect(shards.get("scores")).toBe("trace_id");
    expect(shards.get("claims")).toBe("trace_id");
    expect(shards.get("live_traces")).toBe("trace_id");
    expect(shards.get("live_scores")).toBe("trace_id");
    expect(shards.get("runs")).toBe("run_id");
    expect(shards.get("ingestion_stats")).toBe("minute");
  });

  it("a clustered server store's inserts wait for the shards (distributed_foreground_insert), a plain server's carry only the session settings", () => {
    expect(serverSettings(undefined)).toEqual({ output_format_json_quote_64bit_integers: 1, date_time_input_format: "best_effort" });
    expect(serverSettings("c")).toEqual({ output_format_json_quote_64bit_integers: 1, date_time_input_format: "best_effort", distributed_foreground_insert: 1 });
  });
});
