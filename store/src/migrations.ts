import type { ClickHouseClient } from "@clickhouse/client";
import { loadMigrations, type Migration } from "./migrationFiles.js";

/**
 * Applying the schema migrations (store/migrations/NNN_short_name.sql, read by {@link loadMigrations}):
 * in order, each recorded in `schema_migrations`. Every table is a ReplacingMergeTree with a `version`
 * column and the key of design §6, so a retried or replayed write never double counts; reads use FINAL.
 */

/** The statements that create the bookkeeping table of migrations. */
function bookkeeping(database: string): string[] {
  return [
    `CREATE DATABASE IF NOT EXISTS ${database}`,
    `CREATE TABLE IF NOT EXISTS ${database}.schema_migrations (id UInt32, name String, applied_at DateTime64(3, 'UTC')) ENGINE = ReplacingMergeTree ORDER BY id`,
  ];
}

const CREATE = /^CREATE TABLE IF NOT EXISTS (\w+)\.(\w+) \(([\s\S]*)\) ENGINE = ReplacingMergeTree(?:\((\w+)\))? ORDER BY (\(?)(\w+)([\s\S]*)$/u;
const ALTER = /^ALTER TABLE (\w+)\.(\w+) ([\s\S]*)$/u;

/**
 * The clustered variant of one migration statement (design §11), for a ClickHouse cluster named
 * `cluster`:
 * - `CREATE TABLE db.t (…) ENGINE = ReplacingMergeTree(version) ORDER BY (k, …)` becomes a replicated
 *   local table `db.t_local` (`ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/db/t', '{replica}',
 *   version)`) plus a `Distributed` table `db.t` over it, sharded by `cityHash64(trace_id)` when
 *   `trace_id` is a key column, else by the first key column, so every row of one key lands on one
 *   shard and FINAL deduplicates there, and one trace's spans, scores, claims and interaction meet on
 *   one shard (sharding `scores` by its first column, `run_id`, would put all live traffic, run
 *   `live`, on one shard);
 *   the repositories keep reading and writing `db.t`;
 * - `ALTER TABLE db.t …` applies to both tables; `CREATE DATABASE` gets `ON CLUSTER`;
 * - the migrations' own table is replicated on every node (no `{shard}` in its path).
 * Every statement carries `ON CLUSTER`.
 * @throws Error for a statement of another shape (a new migration must be written so it converts).
 */
export function clusteredStatements(sql: string, cluster: string): string[] {
  const q = sql.trim();
  if (/^CREATE DATABASE IF NOT EXISTS \w+$/u.test(q)) return [`${q} ON CLUSTER ${cluster}`];
  const c = CREATE.exec(q);
  if (c) {
    const [, db, table, columns, versionColumn, paren, firstKey, rest] = c as unknown as string[];
    const bookkeeping = table === "schema_migrations";
    const path = bookkeeping ? `/clickhouse/tables/${db}/${table}` : `/clickhouse/tables/{shard}/${db}/${table}`;
    const engine = `ReplicatedReplacingMergeTree('${path}', '{replica}'${versionColumn ? `, ${versionColumn}` : ""})`;
    const local = `CREATE TABLE IF NOT EXISTS ${db}.${bookkeeping ? table : `${table}_local`} ON CLUSTER ${cluster} (${columns}) ENGINE = ${engine} ORDER BY ${paren}${firstKey}${rest}`;
    if (bookkeeping) return [local];
    const keys =
      paren === "("
        ? `${firstKey}${rest}`
            .slice(0, `${firstKey}${rest}`.indexOf(")"))
            .split(",")
            .map((k) => k.trim())
        : [firstKey];
    const shardKey = keys.includes("trace_id") ? "trace_id" : firstKey;
    return [
      local,
      `CREATE TABLE IF NOT EXISTS ${db}.${table} ON CLUSTER ${cluster} AS ${db}.${table}_local ENGINE = Distributed(${cluster}, ${db}, ${table}_local, cityHash64(${shardKey}))`,
    ];
  }
  const a = ALTER.exec(q);
  if (a) {
    const [, db, table, action] = a as unknown as string[];
    return [`ALTER TABLE ${db}.${table}_local ON CLUSTER ${cluster} ${action}`, `ALTER TABLE ${db}.${table} ON CLUSTER ${cluster} ${action}`];
  }
  throw new Error(`migration statement has no clustered form: ${q.slice(0, 80)}`);
}

/** Every statement of every migration (bookkeeping first), plain or clustered. */
export function migrationStatements(database: string, cluster: string | null, migrations: readonly Migration[] = loadMigrations()): string[] {
  const plain = [...bookkeeping(database), ...migrations.flatMap((m) => m.sql(database))];
  return cluster === null ? plain : plain.flatMap((s) => clusteredStatements(s, cluster));
}

/**
 * The clustered schema as one SQL text (docs/cluster-ddl.sql, `npm run docs:cluster-ddl`): every
 * statement of {@link migrationStatements} for `cluster`, each ended by `;`, under a header.
 */
export function renderClusterDdl(database: string, cluster: string): string {
  const header = [
    `-- ragmeter's schema in its clustered form (CLICKHOUSE_CLUSTER=${cluster}, CLICKHOUSE_DATABASE=${database}), design §11.`,
    "-- Generated from the migrations (store/src/migrations.ts, clusteredStatements) by `npm run docs:cluster-ddl`;",
    "-- tests/unit/cluster-ddl.unit.test.ts fails when this file is stale, and tests/integration/migrations.integration.test.ts",
    "-- parses every statement in the ClickHouse engine. `ragmeter scorer` (or serve) runs them itself on its first start",
    "-- with CLICKHOUSE_URL and CLICKHOUSE_CLUSTER set, recording each migration in schema_migrations, and then the data",
    "-- statements of migrations 7, 10 and 12 (filling live_traces, live_scores, marking live_minutes_state) as they are; this file is for review. {shard} and {replica} are",
    "-- the macros of each server's configuration.",
  ];
  return `${header.join("\n")}\n\n${migrationStatements(database, cluster)
    .map((s) => `${s};`)
    .join("\n\n")}\n`;
}

/**
 * Creates the database and applies the migrations not yet recorded; with `cluster`, their
 * clustered variants ({@link clusteredStatements}).
 * @throws MigrationFileError when the migration files are missing or malformed (before any statement runs)
 * @throws the client's error when a statement fails (nothing is recorded for that migration).
 */
export async function migrate(client: ClickHouseClient, database: string, cluster: string | null = null, migrations: readonly Migration[] = loadMigrations()): Promise<void> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/u.test(database)) throw new Error(`CLICKHOUSE_DATABASE "${database}" is not a valid database name`);
  const run = async (sql: string): Promise<void> => {
    for (const q of cluster === null ? [sql] : clusteredStatements(sql, cluster)) await client.command({ query: q });
  };
  for (const sql of bookkeeping(database)) await run(sql);
  const rs = await client.query({ query: `SELECT id FROM ${database}.schema_migrations FINAL`, format: "JSONEachRow" });
  const done = new Set((await rs.json<{ id: number | string }>()).map((r) => Number(r.id)));
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    for (const sql of m.sql(database)) await run(sql);
    for (const sql of m.data(database)) await client.command({ query: sql });
    await client.insert({
      table: `${database}.schema_migrations`,
      values: [{ id: m.id, name: m.name, applied_at: Date.now() }],
      format: "JSONEachRow",
    });
  }
}
