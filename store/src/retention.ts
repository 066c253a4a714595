import type { ClickHouseClient } from "@clickhouse/client";

/**
 * How long captured content is kept, days, per group of tables (`RAGMETER_RETENTION_DAYS` and its
 * per-table overrides, design §13); null = kept forever (no TTL).
 */
export interface Retention {
  /** `spans.attributes`, `spans.events`, `spans.chunk_hashes`; with `interactions`, `chunks` rows (the longer). */
  readonly spans: number | null;
  /** `logs.body`, `logs.attributes` (GenAI content events). */
  readonly logs: number | null;
  /** `interactions.question`, `.answer`, `.retrieved`, `.chunk_hashes`; `claims.claim`; `judge_cache` rows; with `spans`, `chunks` rows. */
  readonly interactions: number | null;
}

/** No TTL anywhere. */
export const KEEP_FOREVER: Retention = { spans: null, logs: null, interactions: null };

/**
 * The captured content of each table and the time its retention counts from. A column TTL resets
 * the column to its default once `time + days` has passed and keeps the row (keys, statuses,
 * service, times); scores, claims' verdicts and run summaries carry no captured text and stay.
 * `columns: null` is a row TTL (the judge cache: a cache entry is content and nothing else).
 * Times are ragmeter's own (`received_at` when the scorer stored the span, `created_at` when the
 * interaction was built), never a client's clock.
 */
const CONTENT_TABLES: readonly { readonly table: string; readonly time: string; readonly columns: readonly string[] | null; readonly setting: keyof Retention | "chunks" }[] = [
  { table: "spans", time: "received_at", columns: ["attributes", "events", "chunk_hashes"], setting: "spans" },
  { table: "logs", time: "received_at", columns: ["body", "attributes"], setting: "logs" },
  { table: "interactions", time: "created_at", columns: ["question", "answer", "retrieved", "chunk_hashes"], setting: "interactions" },
  { table: "claims", time: "created_at", columns: ["claim"], setting: "interactions" },
  { table: "judge_cache", time: "created_at", columns: null, setting: "interactions" },
  // A chunk goes when no trace has retrieved it for as long as spans and interactions keep their
  // content, whichever is longer (both refer to it).
  { table: "chunks", time: "last_seen", columns: null, setting: "chunks" },
];

/** Days a content table's TTL counts (`chunks`: the longer of spans and interactions; null = forever). */
function daysOf(retention: Retention, setting: keyof Retention | "chunks"): number | null {
  if (setting !== "chunks") return retention[setting];
  const { spans, interactions } = retention;
  return spans === null || interactions === null ? null : Math.max(spans, interactions);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");

/** The TTL expression of one column (or, `column` null, of the table) in a `SHOW CREATE TABLE` text; null when none. */
export function ttlOf(createQuery: string, column: string | null): string | null {
  if (column === null) {
    const engine = createQuery.indexOf(") ENGINE = ");
    const m = / TTL (.+?)(?: SETTINGS .*)?$/su.exec(engine < 0 ? "" : createQuery.slice(engine));
    return m?.[1]?.trim() ?? null;
  }
  const def = new RegExp(`\`${escapeRegExp(column)}\` ([^\`]*?)(?:, \`|\\) ENGINE)`, "su").exec(createQuery);
  if (!def) throw new Error(`column ${column} not found in ${createQuery.slice(0, 80)}`);
  const m = / TTL (.+)$/su.exec(def[1] ?? "");
  return m?.[1]?.trim() ?? null;
}

/** The TTL expression ClickHouse shows for `time + INTERVAL days DAY`. */
const shown = (time: string, days: number): string => `${time} + toIntervalDay(${days})`;

/** The ALTER actions that bring one table's TTLs (its columns', or the row TTL) to `days` (null: none), given its `create` text; empty when already so. */
function ttlActions(t: (typeof CONTENT_TABLES)[number], create: string, days: number | null): string[] {
  const want = days === null ? null : shown(t.time, days);
  const set = days === null ? "REMOVE TTL" : `TTL ${t.time} + INTERVAL ${days} DAY`;
  const actions: string[] = [];
  for (const column of t.columns ?? [null]) {
    if (ttlOf(create, column) === want) continue;
    if (column !== null) actions.push(`MODIFY COLUMN ${column} ${set}`);
    else actions.push(days === null ? "REMOVE TTL" : `MODIFY ${set}`);
  }
  return actions;
}

/**
 * The ALTER statements that bring every content table's TTL to `retention`, given the tables'
 * current `create_table_query` (by table name, the `_local` table's when clustered): nothing for a
 * table already as asked (idempotent), `MODIFY COLUMN c TTL …` / `MODIFY COLUMN c REMOVE TTL` (a row
 * TTL: `MODIFY TTL …` / `REMOVE TTL`) otherwise, one ALTER per table. Clustered (design §11): on the
 * replicated `_local` tables `ON CLUSTER` (the `Distributed` tables hold no data).
 * @throws Error when a content table is missing from `current`.
 */
export function retentionStatements(database: string, cluster: string | null, current: ReadonlyMap<string, string>, retention: Retention): string[] {
  const out: string[] = [];
  for (const t of CONTENT_TABLES) {
    const name = cluster === null ? t.table : `${t.table}_local`;
    const create = current.get(name);
    if (create === undefined) throw new Error(`table ${database}.${name} does not exist (run the migrations first)`);
    const actions = ttlActions(t, create, daysOf(retention, t.setting));
    if (actions.length > 0) out.push(`ALTER TABLE ${database}.${name}${cluster === null ? "" : ` ON CLUSTER ${cluster}`} ${actions.join(", ")}`);
  }
  return out;
}

/**
 * Applies `retention` to the content tables (design §13): reads their definitions from
 * `system.tables` and runs only the ALTERs that change something. ClickHouse then materialises a
 * new TTL on the existing parts in the background (`materialize_ttl_after_modify`), and every merge
 * applies it from then on.
 * @returns the statements run (empty when the tables already had this retention).
 */
export async function applyRetention(client: ClickHouseClient, database: string, cluster: string | null, retention: Retention): Promise<string[]> {
  const names = CONTENT_TABLES.map((t) => (cluster === null ? t.table : `${t.table}_local`));
  const rs = await client.query({
    query: "SELECT name, create_table_query FROM system.tables WHERE database = {db:String} AND name IN {names:Array(String)}",
    query_params: { db: database, names },
    format: "JSONEachRow",
  });
  const current = new Map((await rs.json<{ name: string; create_table_query: string }>()).map((r) => [r.name, r.create_table_query] as const));
  const statements = retentionStatements(database, cluster, current, retention);
  for (const query of statements) await client.command({ query });
  return statements;
}
