import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import type { BytesProducer } from "../../kafka/src/index.js";
import { openStore, type Store } from "../../store/src/client.js";
import { migrate } from "../../store/src/migrations.js";
import { loadStreamConfig } from "../../stream/src/config.js";
import { startScorerService } from "../../stream/src/service.js";
import { BROKER, createTopic, ensureBroker, testProducer } from "../helpers/collector-kafka-helpers.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { DOCS as docs, rows, sender, sleep, waitFor } from "../helpers/streaming.js";

// Issue #15: memory stays bounded under a full topic — at RAGMETER_SCORER_MAX_PENDING traces written
// and not yet scored the consumer pauses, and resumes once the scoring loop has caught up.

let home: string;
let store: Store;
let producer: BytesProducer;
beforeAll(async () => {
  await ensureBroker();
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-scorer-backpressure-"));
  const base = await openStore({ kind: "embedded", home, database: "ragmeter" });
  const database = `t_${randomUUID().replace(/-/gu, "").slice(0, 12)}`;
  await migrate(base.client, database);
  store = { ...base, database };
  producer = testProducer();
});
afterAll(async () => {
  await producer?.close();
  await store?.close();
  await rm(home, { recursive: true, force: true });
});

const oneTrace = async (topic: string): Promise<void> => {
  const t = traceId();
  const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
  await sender(producer)(topic, t, protobufOf(traceRequest([retrieval, generation])));
};
const storedTraces = async (): Promise<number> => Number((await rows<{ c: string }>(store, "SELECT uniqExact(trace_id) AS c FROM DB.spans FINAL"))[0]?.c);

describe("scorer backpressure (issue #15)", () => {
  it("pauses consumption at RAGMETER_SCORER_MAX_PENDING unscored traces and resumes after scoring; nothing lost", async () => {
    const { topic, drop } = await createTopic(1);
    const quietMs = 2500;
    const stream = loadStreamConfig({
      KAFKA_BROKERS: BROKER,
      RAGMETER_TOPIC: topic,
      RAGMETER_QUIET_MS: String(quietMs),
      RAGMETER_SCORER_MAX_PENDING: "2",
      RAGMETER_KAFKA_SESSION_TIMEOUT_MS: "6000",
    });
    expect(stream.maxPending).toBe(2);
    const lines: string[] = [];
    const log = { info: (m: string) => void lines.push(m), warn: () => {}, error: () => {} };
    const svc = await startScorerService({
      store,
      stream,
      consume: true,
      log,
      scoring: { judge: createHeuristicJudge(), ks: [1], quietMs, liveSampleRate: 1, concurrency: 2, batchSize: 100 },
      intervalMs: 200,
      fullScanIntervalMs: 3_600_000,
      consumer: { maxWaitTimeMs: 100 },
    });
    try {
      await oneTrace(topic);
      await oneTrace(topic);
      await waitFor(async () => (await storedTraces()) === 2);
      await waitFor(async () => lines.some((l) => l.startsWith("pending traces at the bound")), 10_000);
      await oneTrace(topic);
      await oneTrace(topic);
      await oneTrace(topic);
      // Still paused: the first two traces are inside their quiet window, so nothing was scored.
      await sleep(800);
      expect(await storedTraces()).toBe(2);
      expect(await rows(store, "SELECT 1 FROM DB.interactions FINAL")).toEqual([]);
      // After the quiet window the two are scored, pending drops to 0 < 2/2, consumption resumes.
      await waitFor(async () => (await storedTraces()) === 5, 30_000);
      expect(lines).toContain("consumption resumed");
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL")).length === 5, 30_000);
    } finally {
      await svc.stop();
      await drop();
    }
  }, 90_000);
});
