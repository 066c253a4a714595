import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { types } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../core/src/domain/errors.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { loadConfig } from "../../scorer/src/cli/config.js";
import { openStore } from "../../store/src/client.js";
import { InjectedStoreWriteFault, withWriteFaults } from "../../store/src/faults.js";
import { scoreSettledTraces } from "../../stream/src/loop.js";
import { startScorerService } from "../../stream/src/service.js";
import { BROKER, createTopic } from "../helpers/collector-kafka-helpers.js";
import { type KafkaEngine, openKafkaEngine } from "../helpers/kafkaEngine.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { countingSpanInserts } from "../helpers/spanInserts.js";
import { DOCS as docs, rows, sender, sleep, waitFor } from "../helpers/streaming.js";

// RAGMETER_FAULT_STORE_WRITE_EVERY (test-only, design §10): bench:soak fails one store write in 50.
describe("store write fault injection", () => {
  it("fails inserts 3 and 6 of 7 over both connections with a retriable InjectedStoreWriteFault before the engine; the others are stored", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-faults-"));
    const seen: InjectedStoreWriteFault[] = [];
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" }, { faultStoreWriteEvery: 3, onStoreWriteFault: (f) => seen.push(f) });
    try {
      await store.client.command({ query: "CREATE TABLE ragmeter.fault_probe (n UInt32) ENGINE = MergeTree ORDER BY n" });
      const second = await store.secondClient();
      const outcomes: string[] = [];
      for (let n = 1; n <= 7; n++) {
        // Odd writes through the store's client, even ones through its second connection: one count.
        const client = n % 2 === 1 ? store.client : second;
        await client.insert({ table: "ragmeter.fault_probe", values: [{ n }], format: "JSONEachRow" }).then(
          () => outcomes.push("ok"),
          (err: unknown) => {
            expect(err).toBeInstanceOf(InjectedStoreWriteFault);
            expect((err as InjectedStoreWriteFault).retriable).toBe(true);
            outcomes.push("fault");
          },
        );
      }
      expect(outcomes).toEqual(["ok", "ok", "fault", "ok", "ok", "fault", "ok"]);
      expect(types.isProxy(store.client)).toBe(true);
      expect(seen.map((f) => [f.write, f.table])).toEqual([
        [3, "ragmeter.fault_probe"],
        [6, "ragmeter.fault_probe"],
      ]);
      const rows = await (await store.client.query({ query: "SELECT n FROM ragmeter.fault_probe ORDER BY n", format: "JSONEachRow" })).json<{ n: number }>();
      expect(rows.map((r) => r.n)).toEqual([1, 2, 4, 5, 7]);
    } finally {
      await store.close();
    }
  });

  it("reads RAGMETER_FAULT_STORE_WRITE_EVERY: unset is none (the store's clients are not wrapped), below 2 a ConfigError naming it", async () => {
    expect(loadConfig({}).faultStoreWriteEvery).toBeNull();
    expect(loadConfig({ RAGMETER_FAULT_STORE_WRITE_EVERY: "50" }).faultStoreWriteEvery).toBe(50);
    expect(() => loadConfig({ RAGMETER_FAULT_STORE_WRITE_EVERY: "1" })).toThrow(ConfigError);
    expect(() => loadConfig({ RAGMETER_FAULT_STORE_WRITE_EVERY: "1" })).toThrow(/RAGMETER_FAULT_STORE_WRITE_EVERY/u);
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-faults-"));
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    try {
      expect(types.isProxy(store.client)).toBe(false);
      expect(types.isProxy(await store.secondClient())).toBe(false);
    } finally {
      await store.close();
    }
  });
  it("serve's in-process writes under faults (issue 38): concurrent requests share bounded writes; a failed write is retried whole; every request answered once all its spans are stored, each span once", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-faults-"));
    const faults: InjectedStoreWriteFault[] = [];
    const store = withWriteFaults(await openStore({ kind: "embedded", home, database: "ragmeter" }), 3, (f) => faults.push(f));
    // What each insert into the spans table carried, counted beside the faults.
    const { store: counting, spanInserts } = countingSpanInserts(store);
    const warnings: string[] = [];
    // Two spans a trace: at most three traces a write; the first request waits up to 200 ms for others.
    const svc = await startScorerService({
      store: counting,
      stream: {
        brokers: null,
        topic: "unused",
        quietMs: 3_600_000,
        liveSampleRate: 1,
        groupId: "unused",
        sessionTimeoutMs: 6000,
        concurrency: 1,
        writeBatch: { maxCount: 6, maxBytes: 1_000_000, maxWaitMs: 200, gapMs: 200 },
      },
      consume: false,
      log: { info() {}, warn: (m) => warnings.push(m), error() {} },
      scoring: { judge: createHeuristicJudge(), ks: [1], quietMs: 3_600_000, liveSampleRate: 1, concurrency: 1, batchSize: 10 },
      fullScanIntervalMs: 3_600_000,
    });
    try {
      const ids = Array.from({ length: 12 }, () => traceId());
      // Twelve requests of one trace each, at once.
      await Promise.all(
        ids.map((t) => {
          const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
          return svc.sink.send("traces", [{ key: t, value: protobufOf(traceRequest([retrieval, generation])), items: 2 }], {});
        }),
      );
      // Every request answered only once stored: all 24 spans are there, each once.
      expect(await rows(store, "SELECT count() AS c, uniqExact(trace_id) AS t FROM DB.spans FINAL")).toEqual([{ c: "24", t: "12" }]);
      expect(faults.some((f) => f.table.endsWith(".spans"))).toBe(true);
      expect(warnings).toContain("span write failed; retrying the batch");
      // Writes across requests (more than one trace each), never over the bound; a retried write carries its whole batch again.
      expect(Math.max(...spanInserts)).toBe(6);
      expect(spanInserts.every((n) => n % 2 === 0 && n <= 6)).toBe(true);
      // Without batching: 12 writes (one per request) plus the retried ones.
      expect(spanInserts.length).toBeLessThan(12);
    } finally {
      await svc.stop();
      await store.close();
    }
  });

  it("a scoring write failing part-way, the process gone before its retry, leaves the trace to the next full scan: its interaction, the mark of a scored trace, is written after its scores", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-faults-"));
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    const judge = createHeuristicJudge();
    const scoring = { judge, ks: [1, 5], quietMs: 0, liveSampleRate: 1, concurrency: 1, batchSize: 10 };
    // The service only writes the spans here (its quiet window is an hour: it scores nothing).
    const svc = await startScorerService({
      store,
      stream: { brokers: null, topic: "unused", quietMs: 3_600_000, liveSampleRate: 1, groupId: "unused", sessionTimeoutMs: 6000, concurrency: 1 },
      consume: false,
      log: { info() {}, warn() {}, error() {} },
      scoring: { ...scoring, quietMs: 3_600_000 },
      fullScanIntervalMs: 3_600_000,
    });
    try {
      const t = traceId();
      const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
      await svc.sink.send("traces", [{ key: t, value: protobufOf(traceRequest([retrieval, generation])), items: 2 }], {});
      // The third insert of the pass fails (chunks, scores, then claims or interactions): the process
      // is taken as killed there, nothing retries in it.
      const faults: InjectedStoreWriteFault[] = [];
      await expect(
        scoreSettledTraces(
          withWriteFaults(store, 3, (f) => faults.push(f)),
          scoring,
          Date.now(),
        ),
      ).rejects.toBeInstanceOf(InjectedStoreWriteFault);
      expect(faults.map((f) => f.table)).toHaveLength(1);
      expect(["ragmeter.live_scores", "ragmeter.live_traces"]).not.toContain(faults[0]?.table);
      // The next process's full scan finds the trace unscored and scores it: once per metric.
      const rescored = await scoreSettledTraces(store, scoring, Date.now());
      expect(rescored.map((r) => r.interaction.trace_id)).toEqual([t]);
      const perMetric = await rows<{ metric: string; c: string }>(store, "SELECT metric, count() AS c FROM DB.scores FINAL GROUP BY metric ORDER BY metric");
      expect(perMetric.length).toBeGreaterThan(0);
      expect(perMetric.every((r) => r.c === "1")).toBe(true);
    } finally {
      await svc.stop();
      await store.close();
    }
  });
});

describe("the streaming scorer's retries under store write faults (real broker, ClickHouse engine)", () => {
  let engine: KafkaEngine;
  beforeAll(async () => {
    engine = await openKafkaEngine("ragmeter-store-faults-");
  });
  afterAll(async () => {
    await engine?.close();
  });

  it("with one insert in 7 failing, every trace is stored once and scored once: span writes retried before the commit, failed scoring passes run again", async () => {
    const faults: InjectedStoreWriteFault[] = [];
    const store = withWriteFaults(await engine.freshStore(), 7, (f) => faults.push(f));
    const { topic, drop } = await createTopic(2);
    const warnings: string[] = [];
    const errors: string[] = [];
    const svc = await startScorerService({
      store,
      stream: { brokers: [BROKER], topic, quietMs: 3000, liveSampleRate: 1, groupId: `g-${randomUUID()}`, sessionTimeoutMs: 6000, concurrency: 4 },
      consume: true,
      log: { info: () => {}, warn: (m) => warnings.push(m), error: (m) => errors.push(m) },
      scoring: { judge: createHeuristicJudge(), ks: [1, 5], quietMs: 3000, liveSampleRate: 1, concurrency: 4, batchSize: 100 },
      intervalMs: 200,
      // No full scan after the first: only the retry of a failed pass can score what it left.
      fullScanIntervalMs: 10 * 60_000,
      consumer: { maxWaitTimeMs: 100 },
    });
    try {
      const send = sender(engine.producer);
      const ids: string[] = [];
      // One trace per message, 100 ms apart: span writes come before the first pass (the 7th and
      // 14th inserts fail in span writes), scoring passes after.
      for (let i = 0; i < 40; i++) {
        const t = traceId();
        ids.push(t);
        const { retrieval, generation } = ragSpans({ traceId: t, question: `Which port does service ${i} listen on?`, docs, answer: "PostgreSQL listens on port 5432." });
        await send(topic, t, protobufOf(traceRequest([retrieval, generation])));
        await sleep(100);
      }
      await waitFor(async () => (await rows<{ c: string }>(store, "SELECT uniqExact(trace_id) AS c FROM DB.interactions FINAL"))[0]?.c === "40", 60_000);
      await sleep(1500);
      expect(await rows(store, "SELECT count() AS c, uniqExact(trace_id) AS t FROM DB.spans FINAL")).toEqual([{ c: "80", t: "40" }]);
      const scored = await rows<{ trace_id: string }>(store, "SELECT DISTINCT trace_id FROM DB.scores FINAL");
      expect(scored.map((r) => r.trace_id).sort()).toEqual([...ids].sort());
      expect(await rows(store, "SELECT trace_id, metric FROM DB.scores FINAL GROUP BY trace_id, metric HAVING count() != 1")).toEqual([]);
      // The faults hit both paths, and each path retried.
      const tables = new Set(faults.map((f) => f.table.split(".")[1]));
      expect(tables.has("spans")).toBe(true);
      expect([...tables].some((t) => ["chunks", "interactions", "scores", "claims", "live_traces"].includes(t ?? ""))).toBe(true);
      expect(warnings).toContain("span write failed; retrying before committing");
      expect(errors).toContain("scoring pass failed; will retry");
    } finally {
      await svc.stop();
      await drop();
    }
  }, 120_000);
});
