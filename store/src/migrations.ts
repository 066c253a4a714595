import type { ClickHouseClient } from "@clickhouse/client";
import { LIVE_SCORE_COLUMNS, LIVE_TRACE_COLUMNS, liveMetrics, questionHashSql } from "./liveTraces.js";

/**
 * Schema migrations, applied in order and recorded in `schema_migrations`. Every table is a
 * ReplacingMergeTree with a `version` column and the key of design §6, so a retried or replayed
 * write never double counts; reads use FINAL.
 */
export const MIGRATIONS: readonly {
  readonly id: number;
  readonly name: string;
  /** Schema statements (each has a clustered form, {@link clusteredStatements}). */
  readonly sql: (db: string) => string[];
  /** Data statements run once after `sql` (as they are, also on a cluster: they write through the `Distributed` tables). */
  readonly data?: (db: string) => string[];
}[] = [
  {
    id: 1,
    name: "runs, golden sets, interactions, scores, claims, judge cache, comparisons",
    sql: (db) => [
      `CREATE TABLE IF NOT EXISTS ${db}.runs (
        run_id String,
        started_at DateTime64(3, 'UTC'),
        finished_at Nullable(DateTime64(3, 'UTC')),
        status LowCardinality(String),
        source LowCardinality(String),
        pipeline_version String,
        golden_set_hash String,
        golden_set_path String,
        judge_kind LowCardinality(String),
        judge_model String,
        judge_prompt_version String,
        ks Array(UInt16),
        target String,
        summary String,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY run_id`,
      `CREATE TABLE IF NOT EXISTS ${db}.golden_sets (
        golden_set_hash String,
        path String,
        item_count UInt32,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY golden_set_hash`,
      `CREATE TABLE IF NOT EXISTS ${db}.golden_items (
        golden_set_hash String,
        golden_id String,
        position UInt32,
        question String,
        expected_source Nullable(String),
        expected_substring Nullable(String),
        reference_answer Nullable(String),
        key_facts Array(String),
        has_key_facts UInt8,
        tags Array(String),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (golden_set_hash, golden_id)`,
      `CREATE TABLE IF NOT EXISTS ${db}.interactions (
        trace_id String,
        run_id String,
        golden_id String,
        source LowCardinality(String),
        service_name String,
        deployment_environment String,
        pipeline_version String,
        question String,
        answer Nullable(String),
        retrieved Array(Tuple(id String, document_id String, text String, score Nullable(Float64), rank UInt32)),
        generator_model Nullable(String),
        input_tokens Nullable(UInt64),
        output_tokens Nullable(UInt64),
        abstained Nullable(UInt8),
        status LowCardinality(String),
        reason String,
        latency_ms Nullable(Float64),
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY trace_id`,
      `CREATE TABLE IF NOT EXISTS ${db}.scores (
        run_id String,
        trace_id String,
        metric LowCardinality(String),
        judge_prompt_version String,
        repeat_index UInt16,
        golden_id String,
        value Nullable(Float64),
        status LowCardinality(String),
        reason String,
        judge_kind LowCardinality(String),
        judge_model String,
        pipeline_version String,
        source LowCardinality(String),
        created_at DateTime64(3, 'UTC'),
        judge_input_tokens UInt64,
        judge_output_tokens UInt64,
        latency_ms Float64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (run_id, trace_id, metric, judge_prompt_version, repeat_index)`,
      `CREATE TABLE IF NOT EXISTS ${db}.claims (
        run_id String,
        trace_id String,
        judge_prompt_version String,
        repeat_index UInt16,
        claim_index UInt32,
        golden_id String,
        claim String,
        verdict LowCardinality(String),
        chunk_ids Array(String),
        judge_model String,
        pipeline_version String,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (run_id, trace_id, judge_prompt_version, repeat_index, claim_index)`,
      `CREATE TABLE IF NOT EXISTS ${db}.judge_cache (
        cache_key String,
        judge_model String,
        judge_prompt_version String,
        result String,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY cache_key`,
      `CREATE TABLE IF NOT EXISTS ${db}.comparisons (
        comparison_id String,
        run_a String,
        run_b String,
        metric LowCardinality(String),
        n UInt32,
        mean_a Nullable(Float64),
        mean_b Nullable(Float64),
        delta Nullable(Float64),
        ci_lower Nullable(Float64),
        ci_upper Nullable(Float64),
        seed UInt64,
        resamples UInt32,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (comparison_id, metric)`,
    ],
  },
  {
    id: 2,
    name: "spans, logs, ingestion stats, calibrations",
    sql: (db) => [
      // One row per OTLP span (design §6: key (trace_id, span_id)); attributes as JSON text with
      // 64-bit integers kept exact as strings.
      `CREATE TABLE IF NOT EXISTS ${db}.spans (
        trace_id String,
        span_id String,
        parent_span_id String,
        name String,
        kind UInt8,
        start_time_unix_nano UInt64,
        end_time_unix_nano UInt64,
        status_code UInt8,
        attributes String,
        resource_attributes String,
        scope_name String,
        events String,
        service_name String,
        received_at DateTime64(3, 'UTC'),
        kafka_partition Int32,
        kafka_offset Int64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (trace_id, span_id)`,
      // OTLP log records of GenAI content events, linked to their span (record_id = content hash).
      `CREATE TABLE IF NOT EXISTS ${db}.logs (
        trace_id String,
        span_id String,
        record_id String,
        event_name String,
        time_unix_nano UInt64,
        body String,
        attributes String,
        received_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (trace_id, span_id, record_id)`,
      // Per-minute counters of each scorer instance (cumulative within the minute; the latest write wins).
      `CREATE TABLE IF NOT EXISTS ${db}.ingestion_stats (
        minute DateTime('UTC'),
        scorer_id String,
        spans_received UInt64,
        traces_scored UInt64,
        consumer_lag Int64,
        dlq_count UInt64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (minute, scorer_id)`,
      // The judge prompt version an interaction was scored under (the scoring loop's "already scored" test).
      `ALTER TABLE ${db}.interactions ADD COLUMN IF NOT EXISTS judge_prompt_version String DEFAULT ''`,
      // Judge agreement with human labels (ragmeter calibrate score).
      `CREATE TABLE IF NOT EXISTS ${db}.calibrations (
        calibration_id String,
        created_at DateTime64(3, 'UTC'),
        judge_kind LowCardinality(String),
        judge_model String,
        judge_prompt_version String,
        source_run_id String,
        file String,
        n_claims UInt32,
        claim_agreement Nullable(Float64),
        claim_kappa Nullable(Float64),
        n_relevance UInt32,
        relevance_agreement Nullable(Float64),
        relevance_qwk Nullable(Float64),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY calibration_id`,
    ],
  },
  {
    id: 3,
    name: "ingestion stats: judge calls skipped by reason",
    sql: (db) => [
      // Judge calls not made because the metric was decided before judging (design §5), by status.
      ...["not_applicable", "content_missing", "context_incomplete", "not_sampled"].map(
        (r) => `ALTER TABLE ${db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_skipped_${r} UInt64 DEFAULT 0`,
      ),
    ],
  },
  {
    id: 4,
    name: "golden_items.expected_chunk_id (match by exact chunk id)",
    sql: (db) => [`ALTER TABLE ${db}.golden_items ADD COLUMN IF NOT EXISTS expected_chunk_id Nullable(String)`],
  },
  {
    id: 5,
    name: "retention: forgotten_traces tombstones, content column defaults, ingestion_stats.spans_dropped_forgotten",
    sql: (db) => [
      // Traces removed by `ragmeter forget`: the scorer drops their spans and log records arriving
      // later (Kafka replays) and never scores them again (design §13).
      `CREATE TABLE IF NOT EXISTS ${db}.forgotten_traces (
        trace_id String,
        forgotten_at DateTime64(3, 'UTC'),
        reason String,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY trace_id`,
      // A content column's TTL resets it to its default: give the JSON columns a default that still
      // parses, so a span or record past its retention reads as "no attributes", never an error.
      `ALTER TABLE ${db}.spans MODIFY COLUMN attributes String DEFAULT '{}'`,
      `ALTER TABLE ${db}.spans MODIFY COLUMN events String DEFAULT '[]'`,
      `ALTER TABLE ${db}.logs MODIFY COLUMN body String DEFAULT 'null'`,
      `ALTER TABLE ${db}.logs MODIFY COLUMN attributes String DEFAULT '{}'`,
      `ALTER TABLE ${db}.ingestion_stats ADD COLUMN IF NOT EXISTS spans_dropped_forgotten UInt64 DEFAULT 0`,
    ],
  },
  {
    id: 6,
    name: "ingestion_stats.judge_skipped_uncertain_reading (traces read from a fallback)",
    sql: (db) => [`ALTER TABLE ${db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_skipped_uncertain_reading UInt64 DEFAULT 0`],
  },
  {
    id: 7,
    name: "live_traces: one narrow row per scoring of a live trace, in time order (the live view reads a window of it)",
    sql: (db) => [
      // What `ragmeter live` / `/api/live` read (design §3, live view): per scoring of a live trace its
      // interaction's time, group, status, the question's hash, the retrieved document ids and its grounding
      // and relevance score, ordered by time so a window is a range of the key whatever the history.
      `CREATE TABLE IF NOT EXISTS ${db}.live_traces (
        created_at DateTime64(3, 'UTC'),
        trace_id String,
        service_name String,
        pipeline_version String,
        status LowCardinality(String),
        question_hash UInt64,
        documents Array(String),
        grounding_status LowCardinality(String),
        grounding_value Nullable(Float64),
        grounding_judge_model String,
        grounding_input_tokens UInt64,
        grounding_output_tokens UInt64,
        relevance_status LowCardinality(String),
        relevance_value Nullable(Float64),
        relevance_judge_model String,
        relevance_input_tokens UInt64,
        relevance_output_tokens UInt64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (created_at, trace_id)`,
    ],
    // The live traces stored before this migration, from their interactions and scores (once).
    data: (db) => [liveTracesBackfill(db)],
  },
  {
    id: 8,
    name: "chunks: retrieved chunks' text stored once, by hash; interactions.chunk_hashes",
    sql: (db) => [
      // Content-addressed chunk table (design §6, issue 31): one row per distinct chunk text, keyed by
      // its hash (chunkHash: SHA-256 of the text, first 32 hex digits); an interaction keeps the hash
      // of each retrieved item (same order as `retrieved`, whose text is then '') and readers look the
      // text up here. first_seen is carried over by the writer; last_seen (when a trace last retrieved
      // it) is what its retention counts from.
      `CREATE TABLE IF NOT EXISTS ${db}.chunks (
        chunk_hash String,
        text String,
        document_id String,
        first_seen DateTime64(3, 'UTC'),
        last_seen DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY chunk_hash`,
      `ALTER TABLE ${db}.interactions ADD COLUMN IF NOT EXISTS chunk_hashes Array(String) DEFAULT []`,
    ],
  },
  {
    id: 9,
    name: "ingestion_stats: judge budget, judge failures by kind, the judge's own traces, spans with dropped attributes by service",
    sql: (db) => [
      // Online-evaluation controls (issue 38, design §5–§6): per minute and scorer.
      `ALTER TABLE ${db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_skipped_budget_exhausted UInt64 DEFAULT 0`,
      `ALTER TABLE ${db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_errors Map(LowCardinality(String), UInt64)`,
      `ALTER TABLE ${db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_own_traces UInt64 DEFAULT 0`,
      `ALTER TABLE ${db}.ingestion_stats ADD COLUMN IF NOT EXISTS spans_attributes_dropped Map(String, UInt64)`,
    ],
  },
  {
    id: 10,
    name: "live_scores: one row per live metric of a scoring of a live trace (the live view reads metrics by name); live_traces keeps the trace-level facts",
    sql: (db) => [
      // What `ragmeter live` / `/api/live` read per metric (design §3, live view): beside each row of
      // live_traces (same created_at, trace_id and version), a row per live metric of the table.
      `CREATE TABLE IF NOT EXISTS ${db}.live_scores (
        created_at DateTime64(3, 'UTC'),
        trace_id String,
        service_name LowCardinality(String),
        pipeline_version LowCardinality(String),
        metric LowCardinality(String),
        status LowCardinality(String),
        value Nullable(Float64),
        judge_model LowCardinality(String),
        input_tokens UInt64,
        output_tokens UInt64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (created_at, trace_id, metric)`,
      // The per-metric column groups of migration 7 now live in live_scores; live_traces keeps what
      // the view counts each trace as (traceView: from its status and its live metrics' statuses).
      ...MIGRATION_7_METRIC_COLUMNS.map((c) => `ALTER TABLE ${db}.live_traces DROP COLUMN IF EXISTS ${c}`),
      `ALTER TABLE ${db}.live_traces ADD COLUMN IF NOT EXISTS view_status LowCardinality(String) DEFAULT ''`,
      `ALTER TABLE ${db}.live_traces ADD COLUMN IF NOT EXISTS scored UInt8 DEFAULT 0`,
      `ALTER TABLE ${db}.live_traces ADD COLUMN IF NOT EXISTS content_missing UInt8 DEFAULT 0`,
    ],
    // The live traces stored before this migration: their live metrics' scores, then their view (once).
    data: (db) => [liveScoresBackfill(db), liveViewBackfill(db)],
  },
  {
    id: 11,
    name: "ingestion_stats: judge calls and tokens spent on live traces, by service (the judge budget of the whole scorer group)",
    sql: (db) => [
      // What each scorer's LLM judges spent per minute on live traces, by service.name (design §5: every
      // scorer adds the group's rows of the last 60 minutes to its own judge budget).
      `ALTER TABLE ${db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_calls_by_service Map(String, UInt64)`,
      `ALTER TABLE ${db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_tokens_by_service Map(String, UInt64)`,
    ],
  },
  {
    id: 12,
    name: "live_minutes, live_minutes_state: the live view's aggregates per minute (marked by saveResults, computed by the scorers)",
    sql: (db) => [
      // Per minute of created_at (design §3, §6; store/src/liveMinutes.ts): `touched` (kind) rows carry the
      // version of the latest write of a live row of the minute, `computed` rows the touched version
      // (`covers`) the minute's aggregates were computed at and the traces they count.
      `CREATE TABLE IF NOT EXISTS ${db}.live_minutes_state (
        minute DateTime('UTC'),
        kind LowCardinality(String),
        covers UInt64,
        traces UInt64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (minute, kind)`,
      // A minute's live_traces (kind t) and live_scores (kind m) rows as the live view groups them,
      // per touched version covered: a reader takes the rows of the minute's latest `computed` mark.
      `CREATE TABLE IF NOT EXISTS ${db}.live_minutes (
        minute DateTime('UTC'),
        covers UInt64,
        kind LowCardinality(String),
        service_name LowCardinality(String),
        pipeline_version LowCardinality(String),
        status LowCardinality(String),
        metric LowCardinality(String),
        flag UInt8,
        content_missing UInt8,
        judge_model LowCardinality(String),
        n UInt64,
        n_values UInt64,
        value_sum Float64,
        input_tokens UInt64,
        output_tokens UInt64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (minute, covers, kind, service_name, pipeline_version, status, metric, flag, content_missing, judge_model)`,
    ],
    // The minutes already stored, marked as written now: the scorers' next refreshes compute them.
    data: (db) => [
      `INSERT INTO ${db}.live_minutes_state (minute, kind, covers, traces, version)
        SELECT DISTINCT toDateTime(toStartOfMinute(created_at), 'UTC'), 'touched', toUInt64(0), toUInt64(0), toUInt64(toUnixTimestamp64Micro(now64(6)))
        FROM ${db}.live_traces`,
    ],
  },
];

/** The per-metric columns of `live_traces` as migration 7 created them (migration 10 drops them). */
const MIGRATION_7_METRIC_COLUMNS = ["grounding", "relevance"].flatMap((m) => ["status", "value", "judge_model", "input_tokens", "output_tokens"].map((c) => `${m}_${c}`));

/** The columns of `live_traces` as migration 7 created them, in the order its backfill writes them. */
const MIGRATION_7_COLUMNS = ["created_at", "trace_id", "service_name", "pipeline_version", "status", "question_hash", "documents", ...MIGRATION_7_METRIC_COLUMNS, "version"];

/**
 * The rows of `live_scores` for the live interactions already stored: for each interaction (FINAL)
 * and each live metric of the table, its score of run `live` written with it (same version: the same
 * scoring; the lowest repeat), at the interaction's time and version (those of its `live_traces` row).
 */
function liveScoresBackfill(db: string): string {
  const metrics = liveMetrics().map((m) => `'${m.name.replace(/[\\']/gu, "")}'`);
  return `INSERT INTO ${db}.live_scores (${LIVE_SCORE_COLUMNS.join(", ")})
    SELECT i.created_at, i.trace_id, i.service_name, i.pipeline_version, s.metric,
      tupleElement(s.x, 1), tupleElement(s.x, 2), tupleElement(s.x, 3), tupleElement(s.x, 4), tupleElement(s.x, 5), i.version
    FROM (SELECT * FROM ${db}.interactions FINAL WHERE source = 'live') AS i
    INNER JOIN (SELECT trace_id, metric, version, argMin(tuple(status, value, judge_model, judge_input_tokens, judge_output_tokens), repeat_index) AS x
      FROM ${db}.scores FINAL WHERE run_id = 'live' AND metric IN (${metrics.join(", ")}) GROUP BY trace_id, metric, version) AS s
    ON s.trace_id = i.trace_id AND s.version = i.version`;
}

/**
 * Every row of `live_traces` written again with what the view counts it as (as `traceView`, from its
 * `live_scores` of the same version), at the same key and version: the row written last wins.
 */
function liveViewBackfill(db: string): string {
  const metrics = liveMetrics().map((m) => `'${m.name.replace(/[\\']/gu, "")}'`);
  return `INSERT INTO ${db}.live_traces (${LIVE_TRACE_COLUMNS.join(", ")})
    SELECT t.created_at, t.trace_id, t.service_name, t.pipeline_version, t.status, t.question_hash, t.documents,
      if(t.status != 'ok' OR ifNull(s.first, '') = '', t.status, s.first), ifNull(s.ok, 0), if(t.status = 'content_missing', 1, ifNull(s.cm, 0)), t.version
    FROM (SELECT * FROM ${db}.live_traces FINAL) AS t
    LEFT JOIN (SELECT trace_id, version, max(status = 'ok') AS ok, max(status = 'content_missing') AS cm, argMin(status, indexOf([${metrics.join(", ")}], metric)) AS first
      FROM ${db}.live_scores FINAL WHERE status != '' AND metric IN (${metrics.join(", ")}) GROUP BY trace_id, version) AS s
    ON s.trace_id = t.trace_id AND s.version = t.version`;
}

/**
 * The rows of `live_traces` for the live interactions already stored: each interaction (FINAL) with
 * its latest grounding and relevance score of run `live` (the lowest repeat of the latest version),
 * the question's hash as {@link questionHashSql}.
 */
function liveTracesBackfill(db: string): string {
  const metric = (m: string) => `argMaxIf(tuple(status, value, judge_model, judge_input_tokens, judge_output_tokens), (version, -toInt32(repeat_index)), metric = '${m}') AS ${m}`;
  const cols = (m: string) => [1, 2, 3, 4, 5].map((k) => `tupleElement(s.${m}, ${k})`).join(", ");
  return `INSERT INTO ${db}.live_traces (${MIGRATION_7_COLUMNS.join(", ")})
    SELECT i.created_at, i.trace_id, i.service_name, i.pipeline_version, i.status, ${questionHashSql("i.question")}, arrayMap(r -> r.document_id, i.retrieved),
      ${cols("grounding")}, ${cols("relevance")}, i.version
    FROM (SELECT * FROM ${db}.interactions FINAL WHERE source = 'live') AS i
    LEFT JOIN (SELECT trace_id, ${metric("grounding")}, ${metric("relevance")}
      FROM ${db}.scores FINAL WHERE run_id = 'live' AND metric IN ('grounding', 'relevance') GROUP BY trace_id) AS s ON s.trace_id = i.trace_id`;
}

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
export function migrationStatements(database: string, cluster: string | null): string[] {
  const plain = [...bookkeeping(database), ...MIGRATIONS.flatMap((m) => m.sql(database))];
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
 * @throws the client's error when a statement fails (nothing is recorded for that migration).
 */
export async function migrate(client: ClickHouseClient, database: string, cluster: string | null = null): Promise<void> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/u.test(database)) throw new Error(`CLICKHOUSE_DATABASE "${database}" is not a valid database name`);
  const run = async (sql: string): Promise<void> => {
    for (const q of cluster === null ? [sql] : clusteredStatements(sql, cluster)) await client.command({ query: q });
  };
  for (const sql of bookkeeping(database)) await run(sql);
  const rs = await client.query({ query: `SELECT id FROM ${database}.schema_migrations FINAL`, format: "JSONEachRow" });
  const done = new Set((await rs.json<{ id: number | string }>()).map((r) => Number(r.id)));
  for (const m of MIGRATIONS) {
    if (done.has(m.id)) continue;
    for (const sql of m.sql(database)) await run(sql);
    for (const sql of m.data?.(database) ?? []) await client.command({ query: sql });
    await client.insert({
      table: `${database}.schema_migrations`,
      values: [{ id: m.id, name: m.name, applied_at: Date.now() }],
      format: "JSONEachRow",
    });
  }
}
