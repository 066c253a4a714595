import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InteractionInsert, ScoreInsert } from "../../core/src/domain/rows.js";
import { storeReader } from "../../scorer/src/cli/api/reader.js";
import { startReadApi } from "../../scorer/src/cli/api/server.js";
import { bootstrapMeanInterval } from "../../scorer/src/runs/bootstrap.js";
import { type LiveInteractionRow, type LiveOptions, type LiveScoreRow, type LiveSummary, liveCaches, loadLiveSummary, summariseLive } from "../../scorer/src/runs/live.js";
import { openStore, type Store } from "../../store/src/client.js";
import { type LiveScoreStoredRow, type LiveTraceRow, liveScoreRowsSince, liveTraceRowsSince } from "../../store/src/live.js";
import { refreshLiveMinutes } from "../../store/src/liveMinutes.js";
import { LIVE_TRACE_COLUMNS, liveMetrics, questionHash } from "../../store/src/liveTraces.js";
import { liveWindowCache, readLiveWindow } from "../../store/src/liveWindow.js";
import { loadMigrations } from "../../store/src/migrationFiles.js";
import { migrate } from "../../store/src/migrations.js";
import { saveResults } from "../../store/src/results.js";

// The live view from the store's own aggregation (live_traces, migration 7, and live_scores,
// migration 10) against the summary computed in JS over the same rows, reduced to the latest row per
// trace by the test itself.

const HOUR = 3_600_000;
const now = Date.parse("2026-12-04T12:00:00Z");
const rng = xoroshiro128plus(3107);
const int = (lo: number, hi: number) => uniformInt(rng, lo, hi);
const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)] as T;

let store: Store;
/** Every live trace the test wrote: its latest interaction and scores (what FINAL on interactions and scores shows). */
const latest = new Map<string, { i: InteractionInsert; s: ScoreInsert[] }>();

function liveTrace(traceId: string, createdAt: number): { i: InteractionInsert; s: ScoreInsert[] } {
  const service = pick(["shop", "shop", "shop", "dark", "kb"]);
  const version = service === "shop" ? pick(["v1", "v2", "v3"]) : service === "kb" ? pick(["a", "b"]) : "v1";
  const missing = service === "dark" && int(0, 2) > 0;
  const q = int(0, 40);
  const i: InteractionInsert = {
    trace_id: traceId,
    run_id: "live",
    golden_id: "",
    source: "live",
    service_name: service,
    deployment_environment: "",
    pipeline_version: version,
    question: missing || int(0, 9) === 0 ? "" : `question ${q}`,
    answer: missing ? null : "answer",
    retrieved: Array.from({ length: missing ? 0 : int(0, 4) }, (_, r) => ({ id: `c${r}`, document_id: `d${(q + r * int(1, 3)) % 9}`, text: "t", score: null, rank: r + 1 })),
    generator_model: null,
    input_tokens: null,
    output_tokens: null,
    abstained: null,
    status: missing ? "content_missing" : pick(["ok", "ok", "ok", "ok", "uncertain_reading"]),
    reason: "",
    latency_ms: null,
    created_at: createdAt,
  };
  const llm = service === "kb";
  const score = (metric: string): ScoreInsert => {
    const status = missing ? "content_missing" : pick(["ok", "ok", "ok", "ok", "no_claims", "judge_error", "not_sampled"]);
    const value = status !== "ok" ? null : metric === "grounding" ? int(0, 6) / 6 : int(0, 4);
    const spent = llm && status !== "not_sampled";
    return {
      run_id: "live",
      trace_id: traceId,
      golden_id: "",
      metric,
      value,
      status,
      reason: "",
      judge_kind: llm ? "llm" : "heuristic",
      judge_model: llm ? pick(["judge-a", "judge-b"]) : "heuristic",
      judge_prompt_version: "p1",
      repeat_index: 0,
      pipeline_version: version,
      source: "live",
      judge_input_tokens: spent ? int(100, 900) : 0,
      judge_output_tokens: spent ? int(5, 90) : 0,
      latency_ms: 0,
    };
  };
  // Some traces lack a relevance score (the row of the reading is the grounding's only).
  const s = int(0, 19) === 0 ? [score("grounding")] : [score("grounding"), score("relevance")];
  return { i, s };
}

const hex = (n: number) => n.toString(16).padStart(32, "0");

async function write(batch: { i: InteractionInsert; s: ScoreInsert[] }[]): Promise<void> {
  await saveResults(store, { interactions: batch.map((x) => x.i), scores: batch.flatMap((x) => x.s), claims: [] });
  for (const x of batch) latest.set(x.i.trace_id, x);
}

beforeAll(async () => {
  store = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-live-store-")), database: "ragmeter" });
  // 600 live traces over the last 3 hours (some at the same ms), in batches as the scoring loop writes them.
  const traces = Array.from({ length: 600 }, (_, k) => liveTrace(hex(k + 1), now - 3 * HOUR + Math.floor(k / 2) * 18_000 + (k % 2)));
  for (let b = 0; b < traces.length; b += 100) await write(traces.slice(b, b + 100));
  // Re-scorings: 40 traces scored again later (late spans: new values, a later created_at), 20 rescored
  // in place (rescore keeps created_at), 5 scored again twice.
  const again = (id: string, createdAt: number) => {
    const x = liveTrace(id, createdAt);
    return { i: { ...x.i, service_name: latest.get(id)?.i.service_name ?? "shop" }, s: x.s };
  };
  await write(Array.from({ length: 40 }, (_, k) => again(hex(1 + k * 13), now - 20 * 60_000 + k * 1000)));
  await write(Array.from({ length: 20 }, (_, k) => again(hex(3 + k * 17), latest.get(hex(3 + k * 17))?.i.created_at as number)));
  for (const round of [0, 1]) await write(Array.from({ length: 5 }, (_, k) => again(hex(7 + k * 29), now - (10 - round) * 60_000)));
  // Traces of a golden run: never in the live view.
  const golden = liveTrace(hex(9999), now - 60_000);
  await saveResults(store, {
    interactions: [{ ...golden.i, source: "golden", run_id: "r1", golden_id: "g1" }],
    scores: golden.s.map((s) => ({ ...s, run_id: "r1", source: "golden" })),
    claims: [],
  });
}, 120_000);

afterAll(async () => {
  await store?.close();
});

/** The window's rows, reduced by the test to the latest version of each trace, as the JS summary takes them. */
function reference(rows: readonly LiveTraceRow[], scoreRows: readonly LiveScoreStoredRow[], o: LiveOptions): LiveSummary {
  const last = new Map<string, LiveTraceRow>();
  for (const r of rows) if ((last.get(r.trace_id)?.version ?? -1) < r.version) last.set(r.trace_id, r);
  const kept = [...last.values()].filter(
    (r) => r.t >= o.now - o.windowMs && (o.service === undefined || r.service_name === o.service) && (o.pipelineVersion === undefined || r.pipeline_version === o.pipelineVersion),
  );
  const interactions: LiveInteractionRow[] = kept.map((r) => ({
    trace_id: r.trace_id,
    service_name: r.service_name,
    pipeline_version: r.pipeline_version,
    status: r.status,
    question: r.question_hash === "0" ? "" : r.question_hash,
    documents: r.documents,
    t: r.t,
  }));
  // Each kept trace's live metrics of the same scoring (version); the latest write of a key wins.
  const of = new Map<string, LiveScoreStoredRow>();
  for (const r of scoreRows) {
    const k = `${r.trace_id}:${r.version}:${r.metric}`;
    of.set(k, r);
  }
  const scores: LiveScoreRow[] = kept.flatMap((r) =>
    liveMetrics()
      .map((m) => of.get(`${r.trace_id}:${r.version}:${m.name}`))
      .filter((x): x is LiveScoreStoredRow => x !== undefined && x.status !== "")
      .map((x) => ({
        trace_id: x.trace_id,
        metric: x.metric,
        value: x.value,
        status: x.status,
        judge_kind: "",
        judge_model: x.judge_model,
        judge_input_tokens: x.input_tokens,
        judge_output_tokens: x.output_tokens,
      })),
  );
  return summariseLive(interactions, scores, o);
}

/** The two summaries equal: counts and intervals exactly, sums of floating values to 12 digits. */
function expectSame(sql: LiveSummary, js: LiveSummary): void {
  const close = (a: number | null, b: number | null) => {
    if (a === null || b === null) expect(a).toBe(b);
    else expect(a).toBeCloseTo(b, 12);
  };
  expect({ ...sql, groups: [], overlap: [] }).toEqual({ ...js, groups: [], overlap: [] });
  expect(sql.groups.map((g) => [g.service, g.pipeline_version])).toEqual(js.groups.map((g) => [g.service, g.pipeline_version]));
  sql.groups.forEach((g, k) => {
    const j = js.groups[k] as LiveSummary["groups"][number];
    expect({ ...g, metrics: null, buckets: null, judge: null }).toEqual({ ...j, metrics: null, buckets: null, judge: null });
    expect(Object.keys(g.metrics)).toEqual(sql.metrics.map((m) => m.name));
    for (const m of sql.metrics.map((x) => x.name)) {
      expect({ ...g.metrics[m], mean: null }).toEqual({ ...j.metrics[m], mean: null });
      close(g.metrics[m]?.mean ?? null, j.metrics[m]?.mean ?? null);
    }
    expect({ ...g.judge, cost_usd: null }).toEqual({ ...j.judge, cost_usd: null });
    close(g.judge.cost_usd, j.judge.cost_usd);
    expect(g.buckets.map((b) => [b.start, b.traces])).toEqual(j.buckets.map((b) => [b.start, b.traces]));
    g.buckets.forEach((b, i) => {
      for (const m of sql.metrics.map((x) => x.name)) close(b.metrics[m] ?? null, j.buckets[i]?.metrics[m] ?? null);
    });
  });
  expect(sql.overlap.map((x) => [x.service, x.version_a, x.version_b, x.questions])).toEqual(js.overlap.map((x) => [x.service, x.version_a, x.version_b, x.questions]));
  sql.overlap.forEach((x, k) => {
    close(x.mean_jaccard, js.overlap[k]?.mean_jaccard ?? null);
  });
}

const prices = { "judge-a": { input_per_1m: 1, output_per_1m: 10 }, "judge-b": { input_per_1m: 2, output_per_1m: 4 } };
const cases: [string, Omit<LiveOptions, "now">][] = [
  ["1 h, 12 buckets", { windowMs: HOUR, prices }],
  ["2.5 h, 7 buckets, samples of 5", { windowMs: 2.5 * HOUR, buckets: 7, ciSample: 5, prices }],
  ["4 h (every trace), samples of 3", { windowMs: 4 * HOUR, ciSample: 3, seed: 11, resamples: 200 }],
  ["service shop", { windowMs: 4 * HOUR, service: "shop", ciSample: 7 }],
  ["service kb, version b", { windowMs: 2 * HOUR, service: "kb", pipelineVersion: "b", prices }],
  ["an empty window", { windowMs: 1000 }],
];

describe("live view from live_traces and live_scores (design §3)", () => {
  for (const [name, c] of cases) {
    it(`equals the JS summary over the window's rows: ${name}`, async () => {
      const o: LiveOptions = { ...c, now };
      const sql = await loadLiveSummary(store, o);
      const js = reference(await liveTraceRowsSince(store, now - o.windowMs), await liveScoreRowsSince(store, now - o.windowMs), o);
      expectSame(sql, js);
      expect(sql.traces_seen).toBeGreaterThan(name === "an empty window" ? -1 : 10);
    });
  }

  it("counts each trace once, at its latest scoring, as the test wrote them; golden traffic is not live", async () => {
    const o: LiveOptions = { windowMs: 4 * HOUR, now, ciSample: 4 };
    const s = await loadLiveSummary(store, o);
    const written = [...latest.values()].map((x) => x.i);
    expect(s.traces_seen).toBe(600);
    expect(written.filter((i) => i.source === "live")).toHaveLength(600);
    for (const g of s.groups) {
      const mine = [...latest.values()].filter((x) => x.i.service_name === g.service && x.i.pipeline_version === g.pipeline_version);
      expect(g.traces_seen).toBe(mine.length);
      const ok = mine.flatMap((x) => x.s.filter((r) => r.metric === "grounding" && r.status === "ok").map((r) => r.value as number));
      const grounding = g.metrics["grounding"];
      expect(grounding?.n).toBe(ok.length);
      if (ok.length > 0) expect(grounding?.mean).toBeCloseTo(ok.reduce((a, b) => a + b, 0) / ok.length, 12);
      // The interval: the bootstrap of the group's 4 most recent ok values (by time, then trace id), oldest first.
      const recent = mine
        .flatMap((x) => x.s.filter((r) => r.metric === "grounding" && r.status === "ok").map((r) => ({ t: x.i.created_at as number, id: x.i.trace_id, v: r.value as number })))
        .sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1))
        .slice(0, 4)
        .reverse()
        .map((x) => x.v);
      expect(grounding?.ci_n).toBe(recent.length);
      const ci = recent.length >= 2 ? bootstrapMeanInterval(recent, { seed: s.seed, resamples: s.resamples }) : null;
      expect(grounding?.ci).toEqual(ci ? [ci.lower, ci.upper] : null);
      expect(g.judge.input_tokens).toBe(mine.flatMap((x) => x.s).reduce((a, r) => a + r.judge_input_tokens, 0));
    }
  });

  it("a store written by the code before migration 10 (live_traces with a column group per metric), then migrated, shows the same live figures", async () => {
    // A second database in the same engine (one data directory per process), at migration 9.
    const db = "rm_old";
    await store.client.command({ query: `CREATE DATABASE ${db}` });
    await store.client.command({
      query: `CREATE TABLE ${db}.schema_migrations (id UInt32, name String, applied_at DateTime64(3, 'UTC')) ENGINE = ReplacingMergeTree ORDER BY id`,
    });
    for (const m of loadMigrations().filter((x) => x.id <= 9)) {
      for (const sql of m.sql(db)) await store.client.command({ query: sql });
      await store.client.insert({ table: `${db}.schema_migrations`, values: [{ id: m.id, name: m.name, applied_at: Date.now() }], format: "JSONEachRow" });
    }
    // The interactions and scores as written, and live_traces as the code before migration 10 wrote
    // it: every scoring's row with its grounding and relevance columns ('' / null / 0: no such score).
    for (const t of ["interactions", "scores"]) await store.client.command({ query: `INSERT INTO ${db}.${t} SELECT * FROM ragmeter.${t}` });
    const group = (m: string) => `${m}.status, ${m}.value, ${m}.judge_model, ${m}.input_tokens, ${m}.output_tokens`;
    const join = (m: string) =>
      `LEFT JOIN (SELECT * FROM ragmeter.live_scores WHERE metric = '${m}' AND status != '') AS ${m} ON ${m}.trace_id = t.trace_id AND ${m}.version = t.version`;
    await store.client.command({
      query: `INSERT INTO ${db}.live_traces SELECT t.created_at, t.trace_id, t.service_name, t.pipeline_version, t.status, t.question_hash, t.documents,
        ${group("grounding")}, ${group("relevance")}, t.version FROM ragmeter.live_traces AS t ${join("grounding")} ${join("relevance")}`,
      clickhouse_settings: { join_use_nulls: 0 },
    });
    const old: Store = { ...store, database: db };
    const [before] = (await (
      await store.client.query({ query: `SELECT count() AS n, countIf(grounding_status = 'ok') AS ok FROM ${db}.live_traces`, format: "JSONEachRow" })
    ).json<{
      n: string;
      ok: string;
    }>()) as [{ n: string; ok: string }];
    // 670 rows written; the 20 rescored in place may have merged with their first rows already.
    expect(Number(before.n)).toBeGreaterThanOrEqual(650);
    expect(Number(before.n)).toBeLessThanOrEqual(670);
    expect(Number(before.ok)).toBeGreaterThan(300);
    await migrate(store.client, db);
    // live_traces keeps the trace-level facts only; live_scores holds each live trace's latest scores.
    const columns = await (
      await store.client.query({ query: `SELECT name FROM system.columns WHERE database = '${db}' AND table = 'live_traces' ORDER BY position`, format: "JSONEachRow" })
    ).json<{
      name: string;
    }>();
    expect(columns.map((c) => c.name).sort()).toEqual([...LIVE_TRACE_COLUMNS].sort());
    expect(LIVE_TRACE_COLUMNS).toHaveLength(11);
    for (const [, c] of cases) {
      const o: LiveOptions = { ...c, now };
      const migrated = await loadLiveSummary(old, o);
      const written = await loadLiveSummary(store, o);
      expectSame(migrated, written);
      expect(migrated.traces_seen).toBe(written.traces_seen);
    }
  });

  it("migration 7 fills live_traces from the interactions stored before it, as the write path writes them", async () => {
    const db = "rm_backfill";
    await migrate(store.client, db);
    const s2: Store = { ...store, database: db };
    const batch = [...latest.values()].slice(0, 150);
    await saveResults(s2, { interactions: batch.map((x) => x.i), scores: batch.flatMap((x) => x.s), claims: [] });
    const written = await liveTraceRowsSince(s2, 0);
    const scores = await liveScoreRowsSince(s2, 0);
    // Migration 7's statement writes the column groups migration 10 dropped: put them back for it.
    await s2.client.command({ query: `TRUNCATE TABLE ${db}.live_traces` });
    await s2.client.command({ query: `TRUNCATE TABLE ${db}.live_scores` });
    for (const m of ["grounding", "relevance"]) {
      await s2.client.command({
        query: `ALTER TABLE ${db}.live_traces ADD COLUMN ${m}_status LowCardinality(String), ADD COLUMN ${m}_value Nullable(Float64), ADD COLUMN ${m}_judge_model String, ADD COLUMN ${m}_input_tokens UInt64, ADD COLUMN ${m}_output_tokens UInt64`,
      });
    }
    for (const sql of loadMigrations()
      .find((m) => m.id === 7)
      ?.data(db) ?? [])
      await s2.client.command({ query: sql });
    const filled = await liveTraceRowsSince(s2, 0);
    // Migration 7's columns: the view's are migration 10's.
    const strip = (rs: LiveTraceRow[]) => rs.map(({ version: _, view_status: _s, scored: _o, content_missing: _c, ...r }) => r);
    expect(strip(filled)).toEqual(strip(written));
    expect(filled).toHaveLength(150);
    // The question's hash: the same in JS and in the engine.
    const q = batch.find((x) => x.i.question !== "")?.i;
    expect(filled.find((r) => r.trace_id === q?.trace_id)?.question_hash).toBe(questionHash(q?.question ?? ""));
    // And migration 10's fills live_scores with what the write path wrote (bar the rows of no score).
    // and live_traces' view of each trace as the write path wrote it (the rows written last win).
    for (const sql of loadMigrations()
      .find((m) => m.id === 10)
      ?.data(db) ?? [])
      await s2.client.command({ query: sql });
    expect(await liveScoreRowsSince(s2, 0)).toEqual(scores.filter((r) => r.status !== ""));
    expect(scores.filter((r) => r.status === "").length).toBeGreaterThan(0);
    await s2.client.command({ query: `OPTIMIZE TABLE ${db}.live_traces FINAL` });
    expect(await liveTraceRowsSince(s2, 0)).toEqual(written);
    expect(written.filter((r) => r.view_status === "not_sampled" && r.status === "ok").length).toBeGreaterThan(0);
  });
});

describe("live view from the aggregates per minute (live_minutes, migration 12)", () => {
  /** Computes every minute written (their writes settled: `now` 10 s ahead), as many refreshes as it takes. */
  const refreshAll = async (): Promise<number> => {
    let total = 0;
    for (let n = -1; n !== 0; total += n) n = await refreshLiveMinutes(store, Date.now() + 10_000, Number.POSITIVE_INFINITY);
    return total;
  };
  /** Minutes of the window the store holds aggregates for that cover their latest write. */
  const coveredCount = async (sinceMs: number): Promise<number> => {
    const rs = await store.client.query({
      query: `SELECT count() AS n FROM (SELECT minute, maxIf(version, kind = 'touched') AS t, maxIf(covers, kind = 'computed') AS c FROM ragmeter.live_minutes_state
        WHERE minute >= fromUnixTimestamp64Milli({since:Int64}, 'UTC') GROUP BY minute) WHERE c > 0 AND c >= t`,
      query_params: { since: sinceMs },
      format: "JSONEachRow",
    });
    return Number(((await rs.json<{ n: string }>())[0] as { n: string }).n);
  };
  const check = async (label: string): Promise<void> => {
    for (const [name, c] of cases) {
      // Read from the minutes' aggregates whatever the traces they count (the default waits for 20,000).
      const o: LiveOptions = { ...c, now, minuteTraces: 0 };
      const fromMinutes = await loadLiveSummary(store, o);
      const js = reference(await liveTraceRowsSince(store, now - o.windowMs), await liveScoreRowsSince(store, now - o.windowMs), o);
      expect(`${label}: ${name}`).toBeTruthy();
      expectSame(fromMinutes, js);
    }
  };

  it("the minutes computed, every window shows what its rows and the JS summary over them show", async () => {
    const fromRows = await Promise.all(cases.map(([, c]) => loadLiveSummary(store, { ...c, now })));
    const computed = await refreshAll();
    // 600 traces from 3 h ago, 2 per 18 s (90 minutes), and the later scorings: every minute (some computed by the writes' own refreshes).
    expect(computed).toBeGreaterThan(0);
    expect(await coveredCount(now - 4 * HOUR)).toBeGreaterThanOrEqual(91);
    for (const [k, [, c]] of cases.entries()) {
      const fromMinutes = await loadLiveSummary(store, { ...c, now, minuteTraces: 0 });
      expectSame(fromMinutes, fromRows[k] as LiveSummary);
      expect(fromMinutes.traces_seen).toBe((fromRows[k] as LiveSummary).traces_seen);
    }
    await check("computed");
  });

  it("a later write to a computed minute sends the reader back to its rows until it is computed again", async () => {
    await refreshAll();
    const before = await coveredCount(now - 4 * HOUR);
    // Rescored in place (same created_at: the minute's aggregates no longer cover it), and late spans
    // of traces of the last hour (a later created_at: their earlier rows are superseded).
    const again = (id: string, createdAt: number) => {
      const x = liveTrace(id, createdAt);
      return { i: { ...x.i, service_name: latest.get(id)?.i.service_name ?? "shop" }, s: x.s };
    };
    const inPlace = [...latest.values()].filter((x) => x.i.service_name === "shop").slice(100, 110);
    await write(inPlace.map((x) => again(x.i.trace_id, x.i.created_at as number)));
    const late = [...latest.values()].filter((x) => (x.i.created_at as number) > now - 50 * 60_000).slice(0, 6);
    await write(late.map((x) => again(x.i.trace_id, now - 3 * 60_000 + 7)));
    expect(await coveredCount(now - 4 * HOUR)).toBeLessThan(before);
    await check("stale");
    /** Minutes with more than one computation in live_minutes. */
    const computations = async (): Promise<number> => {
      const rs = await store.client.query({
        query: "SELECT count() AS n FROM (SELECT minute, uniqExact(covers) AS c FROM ragmeter.live_minutes GROUP BY minute HAVING c > 1)",
        format: "JSONEachRow",
      });
      return Number(((await rs.json<{ n: string }>())[0] as { n: string }).n);
    };
    expect(await refreshAll()).toBeGreaterThan(0);
    expect(await coveredCount(now - 4 * HOUR)).toBeGreaterThanOrEqual(before);
    // Computed again, the minutes hold their latest computation only (the earlier ones deleted).
    expect(await computations()).toBe(0);
    await check("computed again");
  });
});

describe("/api/live from the window rows its reader keeps between calls (store/liveWindow.ts)", () => {
  /** Computes every minute written, as many refreshes as it takes. */
  const refreshAll = async (): Promise<void> => {
    for (let n = -1; n !== 0; ) n = await refreshLiveMinutes(store, Date.now() + 10_000, Number.POSITIVE_INFINITY);
  };
  /** The rows of a minute are kept once its latest write is 5 s old: this clock is 10 s ahead. */
  const ahead = () => Date.now() + 10_000;

  it("every window and filter of the cases, one cache across them, the minutes' aggregates read or not: what the JS summary over the rows shows", async () => {
    for (const minuteTraces of [undefined, 0]) {
      const cache = liveCaches(liveWindowCache({ clock: ahead }));
      for (const round of [0, 1]) {
        for (const [name, c] of cases) {
          const o: LiveOptions = { ...c, now, cache, ...(minuteTraces !== undefined ? { minuteTraces } : {}) };
          const kept = await loadLiveSummary(store, o);
          expect(`${name}, round ${round}, minuteTraces ${minuteTraces}`).toBeTruthy();
          expectSame(kept, reference(await liveTraceRowsSince(store, now - o.windowMs), await liveScoreRowsSince(store, now - o.windowMs), o));
        }
      }
      expect(cache.window.minutes.size).toBeGreaterThan(90);
    }
  });

  it("answers as the JS summary over the window's rows call after call during a two-version rollout, with late spans and rescorings, in 1 statement when nothing was written", async () => {
    let statements = 0;
    const client = Object.create(store.client) as Store["client"];
    client.query = ((p: Parameters<Store["client"]["query"]>[0]) => {
      statements++;
      return store.client.query(p);
    }) as Store["client"]["query"];
    // Minutes written less than 5 s before are read on each call (until the clock moves ahead).
    let shift = 10_000;
    const cache = liveCaches(liveWindowCache({ clock: () => Date.now() + shift }));
    const api = await startReadApi(
      storeReader({ ...store, client }, prices, () => now, cache),
      { host: "127.0.0.1", port: 0 },
    );
    try {
      const windows: [number, { service?: string; pipelineVersion?: string }][] = [
        [HOUR, {}],
        [4 * HOUR, {}],
        [2 * HOUR, { service: "kb" }],
        [4 * HOUR, { service: "shop", pipelineVersion: "v2" }],
        // No superseded row in it: the overlap from the latest rows per question kept.
        [8 * 60_000, { service: "kb" }],
      ];
      /** Each window through the API against the JS summary of the store's rows; the statements of each call. */
      const calls = async (label: string): Promise<number[]> => {
        const counts: number[] = [];
        for (const [windowMs, filter] of windows) {
          const query = new URLSearchParams({
            window_ms: String(windowMs),
            ...(filter.service !== undefined ? { service: filter.service } : {}),
            ...(filter.pipelineVersion !== undefined ? { pipeline_version: filter.pipelineVersion } : {}),
          });
          statements = 0;
          const res = await fetch(`${api.url}/api/live?${query}`);
          counts.push(statements);
          expect(`${label}: ${query}`).toBeTruthy();
          expect(res.status).toBe(200);
          const o: LiveOptions = { windowMs, now, prices, ...filter };
          expectSame((await res.json()) as LiveSummary, reference(await liveTraceRowsSince(store, now - windowMs), await liveScoreRowsSince(store, now - windowMs), o));
        }
        return counts;
      };
      await calls("first");
      // Nothing written since: the minutes' marks (and the stream's counters) only: the rows are kept.
      expect(await calls("again")).toEqual(windows.map(() => 1));
      // A rollout of a new version c of kb over the last 8 minutes: its share grows from 0 to 1 (the
      // first rows, all of version a, kept before the next are written; those read on each call).
      const rollout = Array.from({ length: 80 }, (_, k) => {
        const x = liveTrace(hex(20_000 + k), now - 8 * 60_000 + k * 6000);
        const v = k >= 20 && k / 80 > int(0, 99) / 100 ? "c" : "a";
        // Five questions, asked of both versions.
        return { i: { ...x.i, service_name: "kb", pipeline_version: v, question: `rollout question ${k % 5}` }, s: x.s.map((r) => ({ ...r, pipeline_version: v })) };
      });
      for (let b = 0; b < rollout.length; b += 20) {
        await write(rollout.slice(b, b + 20));
        await calls(`rollout ${b}`);
        shift = 0;
      }
      // Versions a and c answered the five questions in the last 8 minutes.
      const kb = (await (await fetch(`${api.url}/api/live?window_ms=${8 * 60_000}&service=kb`)).json()) as LiveSummary;
      expect(kb.overlap.find((x) => x.version_a === "a" && x.version_b === "c")?.questions).toBe(5);
      expect(cache.window.minutes.size).toBeGreaterThanOrEqual(90);
      shift = 10_000;
      await calls("rollout kept");
      // Late spans of rollout traces (a later time: their rows are superseded) and rescorings in place of older traces (kept minutes change).
      const again = (id: string, createdAt: number) => {
        const x = liveTrace(id, createdAt);
        const was = latest.get(id)?.i as InteractionInsert;
        return { i: { ...x.i, service_name: was.service_name, pipeline_version: was.pipeline_version }, s: x.s.map((r) => ({ ...r, pipeline_version: was.pipeline_version })) };
      };
      await write(Array.from({ length: 6 }, (_, k) => again(hex(20_000 + k * 7), now - 2 * 60_000 + k)));
      await calls("late spans");
      const old = [...latest.values()].filter((x) => (x.i.created_at as number) < now - 2 * HOUR).slice(0, 8);
      await write(old.map((x) => again(x.i.trace_id, x.i.created_at as number)));
      await calls("rescored in place");
      await refreshAll();
      await calls("minutes computed");
    } finally {
      await api.close();
    }
  });

  it("a reader that kept the window's rows across writes answers exactly as a new reader and as the statements: a rescoring superseding a row, a new minute, a rollout", async () => {
    const windows: { windowMs: number; service?: string; pipelineVersion?: string }[] = [
      { windowMs: HOUR },
      { windowMs: 4 * HOUR },
      { windowMs: 2 * HOUR, service: "shop" },
      { windowMs: 4 * HOUR, service: "shop", pipelineVersion: "v9" },
      { windowMs: 10 * 60_000 },
    ];
    // Minutes written less than 5 s before are read on each call (not kept) while the shift is 0.
    let shift = 10_000;
    const clock = () => Date.now() + shift;
    // Windows whose start and bucket starts cut minutes.
    const at = now + 17_321;
    const kept = storeReader(store, prices, () => at, liveCaches(liveWindowCache({ clock })));
    const compare = async (label: string): Promise<void> => {
      for (const w of windows) {
        const cached = await kept.live(w);
        const fresh = await storeReader(store, prices, () => at, liveCaches(liveWindowCache({ clock }))).live(w);
        expect(`${label}: ${JSON.stringify(w)}`).toBeTruthy();
        // The whole response, every figure to the last bit.
        expect(cached).toEqual(fresh);
        // And the statements' (no cache): sums of floating values to 12 digits.
        expectSame(cached, await loadLiveSummary(store, { ...w, now: at, prices }));
      }
    };
    const again = (id: string, createdAt: number, version?: string) => {
      const x = liveTrace(id, createdAt);
      const was = latest.get(id)?.i as InteractionInsert;
      const v = version ?? was.pipeline_version;
      return { i: { ...x.i, service_name: was.service_name, pipeline_version: v }, s: x.s.map((r) => ({ ...r, pipeline_version: v })) };
    };
    await compare("before");
    // A trace of the last hour scored again later (late spans): its earlier row, in a kept minute, is superseded.
    const earlier = [...latest.values()].filter((x) => (x.i.created_at as number) > now - 50 * 60_000 && (x.i.created_at as number) < now - 30 * 60_000).slice(0, 3);
    await write(earlier.map((x) => again(x.i.trace_id, now - 4 * 60_000 + 11)));
    await compare("superseded");
    // A minute of the 4 h window that held no trace before.
    await write(Array.from({ length: 4 }, (_, k) => liveTrace(hex(30_000 + k), now - 3 * HOUR - 30_000 - k * 1000)));
    await compare("new minute");
    // A rollout: version v9 of shop over the last 6 minutes, on the questions v1 answers, read while its minutes are still being written.
    shift = 0;
    for (let b = 0; b < 3; b++) {
      await write(
        Array.from({ length: 10 }, (_, k) => {
          const x = liveTrace(hex(31_000 + b * 10 + k), now - 6 * 60_000 + (b * 10 + k) * 12_000);
          return { i: { ...x.i, service_name: "shop", pipeline_version: "v9", question: `question ${k}` }, s: x.s.map((r) => ({ ...r, pipeline_version: "v9" })) };
        }),
      );
      await compare(`rollout ${b}`);
    }
    shift = 10_000;
    // Rescored in place (same time): a kept minute replaced.
    const old = [...latest.values()].filter((x) => (x.i.created_at as number) < now - 2 * HOUR).slice(20, 25);
    await write(old.map((x) => again(x.i.trace_id, x.i.created_at as number)));
    await compare("rescored in place");
    const v9 = await kept.live({ windowMs: HOUR, service: "shop" });
    expect(v9.groups.map((g) => g.pipeline_version)).toContain("v9");
    expect(v9.overlap.some((x) => x.version_b === "v9" && x.questions > 0)).toBe(true);
  });

  it("a minute still being written is read again only from the last read's versions on, merged with that read: new traces, rescorings in place (a metric dropped), late spans — as a new reader and the statements", async () => {
    const texts: string[] = [];
    const client = Object.create(store.client) as Store["client"];
    client.query = ((p: Parameters<Store["client"]["query"]>[0]) => {
      texts.push(p.query);
      return store.client.query(p);
    }) as Store["client"]["query"];
    // The clock is the store's: every minute written here stays unsettled (read on each call).
    const at = now + 29_000;
    // The reader's clock: the store's, moved ahead at the end so the minute settles.
    let shift = 0;
    const cache = liveCaches(liveWindowCache({ clock: () => Date.now() + shift }));
    const kept = storeReader({ ...store, client }, prices, () => at, cache);
    const windows = [{ windowMs: HOUR }, { windowMs: 10 * 60_000 }, { windowMs: 10 * 60_000, service: "shop" }];
    const compare = async (label: string): Promise<void> => {
      for (const w of windows) {
        const cached = await kept.live(w);
        const fresh = await storeReader(store, prices, () => at, liveCaches(liveWindowCache())).live(w);
        expect(`${label}: ${JSON.stringify(w)}`).toBeTruthy();
        expect(cached).toEqual(fresh);
        expectSame(cached, await loadLiveSummary(store, { ...w, now: at, prices }));
      }
    };
    // A minute 5 minutes back, in the window of every call; each trace of it with both metrics.
    const minute = now - 5 * 60_000;
    const both = (id: string, t: number, service = "shop", version = "v1") => {
      const x = liveTrace(id, t);
      const s = ["grounding", "relevance"].map((metric, k) => ({ ...(x.s[k] ?? (x.s[0] as ScoreInsert)), metric, pipeline_version: version }));
      return { i: { ...x.i, service_name: service, pipeline_version: version, question: `pending ${Number.parseInt(id.slice(-1), 16) % 3}` }, s };
    };
    await compare("before");
    await write(Array.from({ length: 10 }, (_, k) => both(hex(40_000 + k), minute + k * 1000, k % 3 === 0 ? "kb" : "shop", k % 2 === 0 ? "v1" : "v2")));
    await compare("new traces");
    const floors = (): number => texts.filter((q) => q.includes("AND version >= ")).length;
    const before = floors();
    // Rescored in place with grounding only (relevance's row has no status now), more traces, a late span of one (a later time, same minute).
    await write([
      ...[1, 2, 3].map((k) => {
        const x = both(hex(40_000 + k), minute + k * 1000, latest.get(hex(40_000 + k))?.i.service_name, latest.get(hex(40_000 + k))?.i.pipeline_version);
        return { i: x.i, s: x.s.slice(0, 1).map((r) => ({ ...r, status: "ok", value: 0.25 })) };
      }),
      ...Array.from({ length: 5 }, (_, k) => both(hex(40_100 + k), minute + 30_000 + k, "shop", "v2")),
      both(hex(40_004), minute + 45_000, latest.get(hex(40_004))?.i.service_name, latest.get(hex(40_004))?.i.pipeline_version),
    ]);
    await compare("rescored in place, more traces, a late span");
    // The calls after the first of the minute read it from a version on.
    expect(floors()).toBeGreaterThan(before);
    // Scored again in place once more (both metrics back), and a trace at the same millisecond as another.
    await write([both(hex(40_002), minute + 2000, "shop", "v2"), both(hex(40_200), minute + 3000, "shop", "v1")]);
    await compare("scored again");
    // A write landing after a call with a version below that call's latest (another writer's clock, a
    // slow insert), within the settling time: read by the next call all the same.
    const late = both(hex(40_300), minute + 4000, "shop", "v2");
    const older = Date.now() * 1000 - 1_000_000;
    await saveResults({ ...store, nextVersion: () => older }, { interactions: [late.i], scores: late.s, claims: [] });
    latest.set(late.i.trace_id, late);
    await compare("landed late");
    const summary = await kept.live({ windowMs: 10 * 60_000, service: "shop" });
    expect(summary.overlap.some((x) => x.version_a === "v1" && x.version_b === "v2" && x.questions > 0)).toBe(true);
    // Two calls at once on the one cache, one of them with a window that starts after the minute: each
    // answers, and the cache then answers as a new reader.
    await write([both(hex(40_400), minute + 6000, "shop", "v1")]);
    const [wide, narrow] = await Promise.all([kept.live({ windowMs: 10 * 60_000 }), kept.live({ windowMs: 2 * 60_000 })]);
    expect(wide.traces_seen).toBeGreaterThan(narrow.traces_seen);
    await compare("after two calls at once");
    // A write landing more than the settling time after its version: a call may miss it while the minute
    // is still being written; the minute is read whole when it settles, and kept with it.
    const slow = both(hex(40_500), minute + 7000, "kb", "v1");
    const slower = Date.now() * 1000 - 30_000_000;
    await saveResults({ ...store, nextVersion: () => slower }, { interactions: [slow.i], scores: slow.s, claims: [] });
    latest.set(slow.i.trace_id, slow);
    shift = 60_000;
    await compare("settled after a slow write");
    expect(cache.window.minutes.has(Math.floor(minute / 60_000) * 60)).toBe(true);
  });

  it("a call answered after another on the same cache merges with what it read from, not with what the other left", async () => {
    // A client whose results, while held, are read at once but handed back when released.
    let hold: Promise<void> | undefined;
    const client = Object.create(store.client) as Store["client"];
    client.query = (async (p: Parameters<Store["client"]["query"]>[0]) => {
      const h = hold;
      const rows = await (await store.client.query(p)).json<unknown>();
      if (h !== undefined) await h;
      return { json: async () => rows };
    }) as unknown as Store["client"]["query"];
    const held = { ...store, client } as Store;
    const minute = Math.floor(Date.now() / 60_000) * 60_000 - 8 * 60_000;
    const x = liveTrace(hex(41_000), minute + 2000);
    await write([x]);
    // The minute stays unsettled for this clock: read from a version on after the first call.
    const cache = liveWindowCache({ clock: () => minute + 10_000 });
    await readLiveWindow(held, cache, minute - 60_000);
    let release = (): void => undefined;
    hold = new Promise<void>((r) => {
      release = r;
    });
    const a = readLiveWindow(held, cache, minute - 60_000);
    await new Promise((r) => setTimeout(r, 300));
    hold = undefined;
    // A window that starts after the minute: it lets the minute's read go from the cache.
    await readLiveWindow(held, cache, minute + 60_000);
    release();
    const ids = (await a).rows?.flat().map((r) => r.trace_id) ?? [];
    expect(ids).toContain(hex(41_000));
  });
});
