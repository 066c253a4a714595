import { createHash, randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../store/src/client.js";
import { forgetStatements, forgetTraces } from "../../store/src/forget.js";
import { selectInteractions } from "../../store/src/interactions.js";
import { clusteredStatements, migrate, migrationStatements } from "../../store/src/migrations.js";
import { saveResults } from "../../store/src/results.js";
import { applyRetention, KEEP_FOREVER, type Retention, retentionStatements, ttlOf } from "../../store/src/retention.js";
import { loadTraces } from "../../store/src/spans.js";
import { UNMEASURED_INTERACTION } from "../helpers/interactionRow.js";
import { contentOf, seed, traceIds } from "../helpers/retentionSeed.js";
import { rows, waitFor } from "../helpers/streaming.js";

let base: Store;
const RET: Retention = { spans: 30, logs: 14, interactions: 90 };
beforeAll(async () => {
  base = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-retention-")), database: "ragmeter" }, { retention: RET });
});
afterAll(async () => {
  await base?.close();
});

/** A fresh database in the shared embedded engine (migrated, no TTL). */
async function fresh(): Promise<Store> {
  const database = `t_${randomUUID().replace(/-/gu, "").slice(0, 12)}`;
  await migrate(base.client, database);
  return { ...base, database, close: async () => {} };
}

async function creates(store: Store): Promise<Map<string, string>> {
  const r = await rows<{ name: string; q: string }>(store, "SELECT name, create_table_query AS q FROM system.tables WHERE database = {db:String}", { db: store.database });
  return new Map(r.map((x) => [x.name, x.q] as const));
}

describe("retention of captured content (RAGMETER_RETENTION_DAYS, design §13)", () => {
  it("opening the store with a retention puts a TTL on exactly the content columns (and the judge cache rows), nothing else; applying it again changes nothing", async () => {
    const c = await creates(base);
    const ttls = (t: string, cols: string[]) => cols.map((col) => ttlOf(c.get(t) ?? "", col));
    expect(ttls("spans", ["attributes", "events", "chunk_hashes", "name", "resource_attributes", "received_at", "service_name"])).toEqual([
      "received_at + toIntervalDay(30)",
      "received_at + toIntervalDay(30)",
      "received_at + toIntervalDay(30)",
      null,
      null,
      null,
      null,
    ]);
    expect(ttls("logs", ["body", "attributes", "event_name"])).toEqual(["received_at + toIntervalDay(14)", "received_at + toIntervalDay(14)", null]);
    expect(ttls("interactions", ["question", "answer", "retrieved", "chunk_hashes", "status", "pipeline_version", "input_tokens"])).toEqual([
      "created_at + toIntervalDay(90)",
      "created_at + toIntervalDay(90)",
      "created_at + toIntervalDay(90)",
      "created_at + toIntervalDay(90)",
      null,
      null,
      null,
    ]);
    expect(ttls("claims", ["claim", "verdict", "chunk_ids"])).toEqual(["created_at + toIntervalDay(90)", null, null]);
    expect(ttlOf(c.get("judge_cache") ?? "", null)).toBe("created_at + toIntervalDay(90)");
    expect(ttlOf(c.get("chunks") ?? "", null)).toBe("last_seen + toIntervalDay(90)");
    for (const t of ["scores", "runs", "golden_items", "ingestion_stats", "comparisons", "forgotten_traces", "spans", "interactions"])
      expect(ttlOf(c.get(t) ?? "", null), t).toBeNull();
    for (const t of ["scores", "runs", "golden_items", "golden_sets", "ingestion_stats", "comparisons", "forgotten_traces", "calibrations"])
      expect(c.get(t), t).not.toContain("TTL");
    // migration 5: the JSON content columns' defaults still parse once a TTL reset them
    expect(c.get("spans")).toContain("`attributes` String DEFAULT '{}' CODEC(ZSTD(9)) TTL received_at + toIntervalDay(30)");
    expect(c.get("spans")).toContain("`events` String DEFAULT '[]' CODEC(ZSTD(3)) TTL");
    expect(c.get("logs")).toContain("`body` String DEFAULT 'null' CODEC(ZSTD(3)) TTL");
    expect(await applyRetention(base.client, "ragmeter", null, RET)).toEqual([]);
  });

  it("a changed setting changes the TTL, an unset one removes it, and only the tables that differ are altered", async () => {
    const store = await fresh();
    const db = store.database;
    const apply = (r: Retention) => applyRetention(store.client, db, null, r);
    expect(await apply({ spans: 30, logs: null, interactions: 90 })).toEqual([
      `ALTER TABLE ${db}.spans MODIFY COLUMN attributes TTL received_at + INTERVAL 30 DAY, MODIFY COLUMN events TTL received_at + INTERVAL 30 DAY, MODIFY COLUMN chunk_hashes TTL received_at + INTERVAL 30 DAY`,
      `ALTER TABLE ${db}.interactions MODIFY COLUMN question TTL created_at + INTERVAL 90 DAY, MODIFY COLUMN answer TTL created_at + INTERVAL 90 DAY, MODIFY COLUMN retrieved TTL created_at + INTERVAL 90 DAY, MODIFY COLUMN chunk_hashes TTL created_at + INTERVAL 90 DAY`,
      `ALTER TABLE ${db}.claims MODIFY COLUMN claim TTL created_at + INTERVAL 90 DAY`,
      `ALTER TABLE ${db}.judge_cache MODIFY TTL created_at + INTERVAL 90 DAY`,
      `ALTER TABLE ${db}.chunks MODIFY TTL last_seen + INTERVAL 90 DAY`,
    ]);
    expect(await apply({ spans: 30, logs: null, interactions: 90 })).toEqual([]);
    expect(await apply({ spans: 7, logs: 7, interactions: null })).toEqual([
      `ALTER TABLE ${db}.spans MODIFY COLUMN attributes TTL received_at + INTERVAL 7 DAY, MODIFY COLUMN events TTL received_at + INTERVAL 7 DAY, MODIFY COLUMN chunk_hashes TTL received_at + INTERVAL 7 DAY`,
      `ALTER TABLE ${db}.logs MODIFY COLUMN body TTL received_at + INTERVAL 7 DAY, MODIFY COLUMN attributes TTL received_at + INTERVAL 7 DAY`,
      `ALTER TABLE ${db}.interactions MODIFY COLUMN question REMOVE TTL, MODIFY COLUMN answer REMOVE TTL, MODIFY COLUMN retrieved REMOVE TTL, MODIFY COLUMN chunk_hashes REMOVE TTL`,
      `ALTER TABLE ${db}.claims MODIFY COLUMN claim REMOVE TTL`,
      `ALTER TABLE ${db}.judge_cache REMOVE TTL`,
      `ALTER TABLE ${db}.chunks REMOVE TTL`,
    ]);
    const c = await creates(store);
    expect([
      ttlOf(c.get("spans") ?? "", "events"),
      ttlOf(c.get("logs") ?? "", "body"),
      ttlOf(c.get("interactions") ?? "", "answer"),
      ttlOf(c.get("judge_cache") ?? "", null),
    ]).toEqual(["received_at + toIntervalDay(7)", "received_at + toIntervalDay(7)", null, null]);
    expect(await apply(KEEP_FOREVER)).toEqual([
      `ALTER TABLE ${db}.spans MODIFY COLUMN attributes REMOVE TTL, MODIFY COLUMN events REMOVE TTL, MODIFY COLUMN chunk_hashes REMOVE TTL`,
      `ALTER TABLE ${db}.logs MODIFY COLUMN body REMOVE TTL, MODIFY COLUMN attributes REMOVE TTL`,
    ]);
    for (const [name, q] of await creates(store)) expect(q, name).not.toContain(" TTL ");
    expect(await apply(KEEP_FOREVER)).toEqual([]);
  });

  it("rows stored before the TTL was set: past the retention their content is emptied (the TTL is materialised on setting it); rows, statuses, scores and verdicts stay", async () => {
    const store = await fresh();
    const now = Date.now();
    await seed(store, now);
    const scoresBefore = await rows(store, "SELECT * FROM DB.scores FINAL ORDER BY trace_id, metric");
    const before = await contentOf(store, traceIds.recent);
    await applyRetention(store.client, store.database, null, { spans: 30, logs: 30, interactions: 30 });
    await waitFor(async () => (await rows(store, "SELECT 1 FROM system.mutations WHERE database = {db:String} AND is_done = 0", { db: store.database })).length === 0);
    // old = 40 days ago (past 30 days): content reset to the column defaults
    for (const id of traceIds.oldA) {
      expect(await contentOf(store, [id])).toEqual({
        spans: [
          { attributes: "{}", events: "[]", name: "chat gen-1", service_name: "svc-a" },
          { attributes: "{}", events: "[]", name: "retrieval kb", service_name: "svc-a" },
        ].slice(0, id === traceIds.oldA[0] ? 2 : 1),
        logs: [{ body: "null", attributes: "{}", event_name: "gen_ai.user.message" }].slice(0, id === traceIds.oldA[0] ? 1 : 0),
        interactions: [{ question: "", answer: null, n_retrieved: "0", status: "ok", pipeline_version: "v1", input_tokens: "12" }],
        claims: [
          { claim: "", verdict: "SUPPORTED" },
          { claim: "", verdict: "UNSUPPORTED" },
        ].slice(0, id === traceIds.oldA[0] ? 2 : 1),
      });
    }
    // recent rows (1 day old) are untouched
    expect(await contentOf(store, traceIds.recent)).toEqual(before);
    expect(before.spans[0]?.attributes).toContain("gen_ai");
    expect(await rows(store, "SELECT * FROM DB.scores FINAL ORDER BY trace_id, metric")).toEqual(scoresBefore);
    // the judge cache is a row TTL: the old entry is gone, the recent one stays
    expect(await rows(store, "SELECT cache_key FROM DB.judge_cache FINAL ORDER BY cache_key")).toEqual([{ cache_key: "recent" }]);
    // a reset span still reads (its JSON columns parse): the scorer sees a span without attributes
    const t = (await loadTraces(store, [traceIds.oldA[0] as string])).get(traceIds.oldA[0] as string);
    expect(t?.spans.map((s) => [s.name, s.attributes, s.events])).toEqual([
      ["retrieval kb", {}, []],
      ["chat gen-1", {}, []],
    ]);
    expect(t?.logs.map((l) => l.body)).toEqual([null]);
  });

  it("rows written after the TTL was set are emptied by the merges (OPTIMIZE … FINAL here)", async () => {
    const store = await fresh();
    await applyRetention(store.client, store.database, null, { spans: 30, logs: 30, interactions: 30 });
    const now = Date.now();
    await seed(store, now);
    for (const t of ["spans", "logs", "interactions", "claims", "judge_cache"]) await store.client.command({ query: `OPTIMIZE TABLE ${store.database}.${t} FINAL` });
    const old = await contentOf(store, traceIds.oldA);
    expect(old.spans.map((s) => s.attributes)).toEqual(["{}", "{}", "{}"]);
    expect(old.interactions.map((i) => [i.question, i.answer, i.n_retrieved, i.status])).toEqual([
      ["", null, "0", "ok"],
      ["", null, "0", "ok"],
    ]);
    expect(old.claims).toEqual([
      { claim: "", verdict: "SUPPORTED" },
      { claim: "", verdict: "UNSUPPORTED" },
      { claim: "", verdict: "SUPPORTED" },
    ]);
    const recent = await contentOf(store, traceIds.recent);
    expect(recent.interactions.map((i) => i.question)).toEqual(["How long is the refund window?"]);
  });

  it("forgetTraces removes exactly what it counted: spans and logs deleted, interaction and claim texts blanked, scores kept, tombstones written", async () => {
    const store = await fresh();
    // tables carrying a (long) TTL, as in production: deletes and updates work on them alike
    await applyRetention(store.client, store.database, null, { spans: 3650, logs: 3650, interactions: 3650 });
    await seed(store, Date.now());
    const scoresBefore = await rows(store, "SELECT * FROM DB.scores FINAL ORDER BY trace_id, metric");
    const recentBefore = await contentOf(store, [...traceIds.recent, ...traceIds.oldB]);
    const counts = await forgetTraces(store, [...traceIds.oldA], { reason: "test", now: Date.parse("2026-12-01T00:00:00Z") });
    // hand count of retention-seed.ts: oldA[0] 2 spans (one written twice), 1 log, 2 claims; oldA[1] 1 span, 1 claim; 2 scores each
    expect(counts).toEqual({ traces: 2, spans: 3, logs: 1, interactions: 2, claims: 3, scores_kept: 4 });
    const gone = await contentOf(store, traceIds.oldA);
    expect(gone.spans).toEqual([]);
    expect(gone.logs).toEqual([]);
    expect(gone.interactions.map((i) => [i.question, i.answer, i.n_retrieved, i.status, i.input_tokens])).toEqual([
      ["", null, "0", "ok", "12"],
      ["", null, "0", "ok", "12"],
    ]);
    expect(gone.claims.map((c) => [c.claim, c.verdict])).toEqual([
      ["", "SUPPORTED"],
      ["", "UNSUPPORTED"],
      ["", "SUPPORTED"],
    ]);
    // no row version of those traces is visible, FINAL or not (the deleted bytes go at the next merge)
    expect(await rows(store, "SELECT count() AS c FROM DB.spans WHERE trace_id IN {ids:Array(String)}", { ids: traceIds.oldA })).toEqual([{ c: "0" }]);
    expect(await rows(store, "SELECT count() AS c FROM DB.interactions WHERE trace_id IN {ids:Array(String)} AND question != ''", { ids: traceIds.oldA })).toEqual([{ c: "0" }]);
    expect(await rows(store, "SELECT * FROM DB.scores FINAL ORDER BY trace_id, metric")).toEqual(scoresBefore);
    expect(await contentOf(store, [...traceIds.recent, ...traceIds.oldB])).toEqual(recentBefore);
    expect(await rows(store, "SELECT trace_id, forgotten_at, reason FROM DB.forgotten_traces FINAL ORDER BY trace_id")).toEqual(
      [...traceIds.oldA].sort().map((trace_id) => ({ trace_id, forgotten_at: "2026-12-01 00:00:00.000", reason: "test" })),
    );
    // forgetting again removes nothing more
    expect(await forgetTraces(store, [...traceIds.oldA], { reason: "again", now: Date.now() })).toEqual({
      traces: 2,
      spans: 0,
      logs: 0,
      interactions: 0,
      claims: 0,
      scores_kept: 4,
    });
  });

  it("chunks are stored once by hash and read back by hash; forgetting a trace removes the chunks only it retrieved, a chunk a kept trace shares stays", async () => {
    const store = await fresh();
    const shared = "Refunds are possible within 30 days of the payment.";
    const onlyForgotten = "Gift cards cannot be refunded.";
    const onlyKept = "Shipping takes five working days.";
    const item = (text: string, rank: number) => ({ id: `kb/${rank}`, document_id: "kb/faq.md", text, score: 1, rank });
    const interaction = (trace_id: string, created_at: number, retrieved: ReturnType<typeof item>[]) => ({
      trace_id,
      created_at,
      run_id: "live",
      golden_id: "",
      source: "live",
      service_name: "svc-a",
      deployment_environment: "",
      pipeline_version: "v1",
      question: `question of ${trace_id}`,
      answer: "an answer",
      retrieved,
      ...UNMEASURED_INTERACTION,
    });
    const kept = "d1".repeat(16);
    const gone = "d2".repeat(16);
    await saveResults(store, { interactions: [interaction(gone, Date.now() - 2000, [item(shared, 1), item(onlyForgotten, 2), item("", 3)])], scores: [], claims: [] });
    await saveResults(store, { interactions: [interaction(kept, Date.now() - 1000, [item(onlyKept, 1), item(shared, 2)])], scores: [], claims: [] });
    // three distinct non-blank texts, each once (the shared one written twice, one row after FINAL), none in interactions
    const hashOf = (t: string) => createHash("sha256").update(t).digest("hex").slice(0, 32);
    expect(await rows(store, "SELECT chunk_hash, text FROM DB.chunks FINAL ORDER BY text")).toEqual(
      [onlyForgotten, onlyKept, shared].sort().map((text) => ({ chunk_hash: hashOf(text), text })),
    );
    expect(await rows(store, "SELECT trace_id, arrayMap(r -> r.text, retrieved) AS texts, chunk_hashes FROM DB.interactions FINAL ORDER BY trace_id")).toEqual([
      { trace_id: kept, texts: ["", ""], chunk_hashes: [hashOf(onlyKept), hashOf(shared)] },
      { trace_id: gone, texts: ["", "", ""], chunk_hashes: [hashOf(shared), hashOf(onlyForgotten), ""] },
    ]);
    // the readers put the text back
    const replay = await selectInteractions(store, { kind: "run", runId: "live" }, null);
    expect(replay.map((i) => [i.trace_id, i.retrieved.map((r) => r.text)])).toEqual([
      [gone, [shared, onlyForgotten, ""]],
      [kept, [onlyKept, shared]],
    ]);
    await forgetTraces(store, [gone], { reason: "test", now: Date.now() });
    expect(await rows(store, "SELECT text FROM DB.chunks FINAL ORDER BY text")).toEqual([{ text: shared }, { text: onlyKept }]);
    expect(await rows(store, "SELECT count() AS c FROM DB.chunks WHERE text = {t:String}", { t: onlyForgotten })).toEqual([{ c: "0" }]);
    const after = await selectInteractions(store, { kind: "run", runId: "live" }, null);
    expect(after.map((i) => [i.trace_id, i.retrieved.map((r) => r.text)])).toEqual([[kept, [onlyKept, shared]]]);
  });

  it("clustered variants (CLICKHOUSE_CLUSTER, design §11): TTLs and forget act on the replicated _local tables ON CLUSTER; the tombstones are Replicated + Distributed; every statement parses", async () => {
    const store = await fresh();
    const plain = await creates(store);
    const local = new Map([...plain].map(([n, q]) => [`${n}_local`, q] as const));
    const ttl = retentionStatements("db", "c", local, { spans: 30, logs: null, interactions: 90 });
    expect(ttl).toEqual([
      "ALTER TABLE db.spans_local ON CLUSTER c MODIFY COLUMN attributes TTL received_at + INTERVAL 30 DAY, MODIFY COLUMN events TTL received_at + INTERVAL 30 DAY, MODIFY COLUMN chunk_hashes TTL received_at + INTERVAL 30 DAY",
      "ALTER TABLE db.interactions_local ON CLUSTER c MODIFY COLUMN question TTL created_at + INTERVAL 90 DAY, MODIFY COLUMN answer TTL created_at + INTERVAL 90 DAY, MODIFY COLUMN retrieved TTL created_at + INTERVAL 90 DAY, MODIFY COLUMN chunk_hashes TTL created_at + INTERVAL 90 DAY",
      "ALTER TABLE db.claims_local ON CLUSTER c MODIFY COLUMN claim TTL created_at + INTERVAL 90 DAY",
      "ALTER TABLE db.judge_cache_local ON CLUSTER c MODIFY TTL created_at + INTERVAL 90 DAY",
      "ALTER TABLE db.chunks_local ON CLUSTER c MODIFY TTL last_seen + INTERVAL 90 DAY",
    ]);
    const id = "0af7651916cd43dd8448eb211c80319c";
    const forget = forgetStatements("db", "c", [id]);
    expect(forget).toEqual([
      `DELETE FROM db.chunks_local ON CLUSTER c WHERE chunk_hash IN (SELECT arrayJoin(chunk_hashes) FROM db.interactions WHERE trace_id IN ('${id}') UNION ALL SELECT arrayJoin(chunk_hashes) FROM db.spans WHERE trace_id IN ('${id}')) AND chunk_hash NOT IN (SELECT arrayJoin(chunk_hashes) FROM db.interactions WHERE NOT trace_id IN ('${id}') UNION ALL SELECT arrayJoin(chunk_hashes) FROM db.spans WHERE NOT trace_id IN ('${id}'))`,
      `DELETE FROM db.spans_local ON CLUSTER c WHERE trace_id IN ('${id}')`,
      `DELETE FROM db.logs_local ON CLUSTER c WHERE trace_id IN ('${id}')`,
      `ALTER TABLE db.interactions_local ON CLUSTER c UPDATE question = '', answer = NULL, retrieved = [], chunk_hashes = [] WHERE trace_id IN ('${id}') AND (question != '' OR answer IS NOT NULL OR notEmpty(retrieved))`,
      `ALTER TABLE db.claims_local ON CLUSTER c UPDATE claim = '', claim_start = 0, claim_length = 0, answer_digest = 0 WHERE trace_id IN ('${id}') AND (claim != '' OR claim_length > 0)`,
    ]);
    const tomb = migrationStatements("db", null).find((s) => s.includes("db.forgotten_traces ("));
    const [localTomb, distTomb] = clusteredStatements(tomb ?? "", "c");
    expect(localTomb).toMatch(/^CREATE TABLE IF NOT EXISTS db\.forgotten_traces_local ON CLUSTER c \(/u);
    expect(localTomb).toContain("ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/db/forgotten_traces', '{replica}', version) ORDER BY trace_id");
    expect(distTomb).toBe(
      "CREATE TABLE IF NOT EXISTS db.forgotten_traces ON CLUSTER c AS db.forgotten_traces_local ENGINE = Distributed(c, db, forgotten_traces_local, cityHash64(trace_id))",
    );
    expect(clusteredStatements("ALTER TABLE db.spans MODIFY COLUMN attributes String DEFAULT '{}'", "c")).toEqual([
      "ALTER TABLE db.spans_local ON CLUSTER c MODIFY COLUMN attributes String DEFAULT '{}'",
      "ALTER TABLE db.spans ON CLUSTER c MODIFY COLUMN attributes String DEFAULT '{}'",
    ]);
    for (const sql of [...ttl, ...forget, ...clusteredStatements(tomb ?? "", "c"), ...retentionStatements("db", "c", local, KEEP_FOREVER)]) {
      const rs = await store.client.query({ query: `EXPLAIN AST ${sql}`, format: "TabSeparated" });
      expect((await rs.text()).length, sql.slice(0, 60)).toBeGreaterThan(0);
    }
    // a long list is cut into statements of 1000 ids (ClickHouse's max_query_size)
    const many = Array.from({ length: 2500 }, (_, i) => i.toString(16).padStart(32, "0"));
    const cut = forgetStatements("db", null, many);
    expect(cut).toHaveLength(15);
    expect(cut.filter((s) => s.startsWith("DELETE FROM db.spans ")).map((s) => s.split("', '").length)).toEqual([1000, 1000, 500]);
    expect(Math.max(...cut.map((s) => s.length))).toBeLessThan(262_144);
  });
});
