import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import type { BytesProducer, KafkaAdmin } from "../../kafka/src/index.js";
import { openStore, type Store } from "../../store/src/client.js";
import { migrate } from "../../store/src/migrations.js";
import { loadStreamConfig } from "../../stream/src/config.js";
import { type ScorerService, startScorerService } from "../../stream/src/service.js";
import { BROKER, createTopics, ensureBroker, partitionCount, testAdmin, testProducer } from "../helpers/collector-kafka-helpers.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { DOCS as docs, rows, sender, sleep, waitFor } from "../helpers/streaming.js";

// Issue #15, "Topics that do not exist yet": a scorer started on its own topic before any span was
// sent used to exit with "This server does not host this topic-partition".

let home: string;
let store: Store;
let producer: BytesProducer;
let admin: KafkaAdmin;
const created: string[] = [];
beforeAll(async () => {
  await ensureBroker();
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-scorer-topics-"));
  const base = await openStore({ kind: "embedded", home, database: "ragmeter" });
  const database = `t_${randomUUID().replace(/-/gu, "").slice(0, 12)}`;
  await migrate(base.client, database);
  store = { ...base, database };
  producer = testProducer(); // never creates a topic by producing to it
  admin = testAdmin();
});
afterAll(async () => {
  const existing = new Set(await admin.listTopics());
  const mine = created.filter((t) => existing.has(t));
  if (mine.length > 0) await admin.deleteTopics({ topics: mine });
  await Promise.allSettled([producer?.close(), admin?.close()]);
  await store?.close();
  await rm(home, { recursive: true, force: true });
});

type Line = { level: string; msg: string; fields?: Record<string, unknown> };
function capture(): {
  lines: Line[];
  log: { info: (m: string, f?: Record<string, unknown>) => void; warn: (m: string, f?: Record<string, unknown>) => void; error: (m: string) => void };
} {
  const lines: Line[] = [];
  const push = (level: string) => (msg: string, fields?: Record<string, unknown>) => void lines.push({ level, msg, ...(fields ? { fields } : {}) });
  return { lines, log: { info: push("info"), warn: push("warn"), error: push("error") } };
}

function start(topic: string, env: Record<string, string>, log: ReturnType<typeof capture>["log"], pollMs = 200): Promise<ScorerService> {
  const stream = loadStreamConfig({ KAFKA_BROKERS: BROKER, RAGMETER_TOPIC: topic, RAGMETER_QUIET_MS: "800", RAGMETER_KAFKA_SESSION_TIMEOUT_MS: "6000", ...env });
  return startScorerService({
    store,
    stream,
    consume: true,
    log,
    scoring: { judge: createHeuristicJudge(), ks: [1, 5], quietMs: 800, liveSampleRate: 1, concurrency: 4, batchSize: 100 },
    intervalMs: 200,
    consumer: { maxWaitTimeMs: 200, topicPolicy: { create: stream.createTopics ?? true, partitions: stream.partitions ?? 3, pollMs } },
  });
}

async function sendTrace(topic: string): Promise<string> {
  const t = traceId();
  const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
  await sender(producer)(topic, t, protobufOf(traceRequest([retrieval, generation])));
  return t;
}

const partitionsOf = (topic: string): Promise<number> => partitionCount(admin, topic);

describe("scorer on topics that do not exist yet (issue #15)", () => {
  it("creates its span topic and dead-letter topic with RAGMETER_KAFKA_TOPIC_PARTITIONS partitions, then consumes it", async () => {
    const topic = `ragmeter.test.topics.${randomUUID()}`;
    created.push(topic, `${topic}.dlq`);
    expect(await admin.listTopics()).not.toContain(topic);
    const { lines, log } = capture();
    const svc = await start(topic, { RAGMETER_KAFKA_TOPIC_PARTITIONS: "2" }, log);
    try {
      expect(await partitionsOf(topic)).toBe(2);
      expect(await partitionsOf(`${topic}.dlq`)).toBe(2);
      expect(lines.filter((l) => l.msg === "created topics").map((l) => l.fields?.["topics"])).toEqual([[topic, `${topic}.dlq`]]);
      const t = await sendTrace(topic);
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL WHERE trace_id = {t:String}", { t })).length > 0);
      expect(await rows(store, "SELECT status FROM DB.interactions FINAL WHERE trace_id = {t:String}", { t })).toEqual([{ status: "ok" }]);
    } finally {
      await svc.stop();
    }
  });

  it("with RAGMETER_KAFKA_CREATE_TOPICS=0 waits for the topic with a log line naming it, and consumes once it exists", async () => {
    const topic = `ragmeter.test.topics.${randomUUID()}`;
    created.push(topic, `${topic}.dlq`);
    const { lines, log } = capture();
    const starting = start(topic, { RAGMETER_KAFKA_CREATE_TOPICS: "0" }, log);
    let started = false;
    void starting.then(() => {
      started = true;
    });
    await waitFor(async () => lines.some((l) => l.msg.includes("waiting for topic")), 20_000);
    const waiting = lines.find((l) => l.msg.includes("waiting for topic"));
    expect(waiting?.msg).toBe(`waiting for topic ${topic}, ${topic}.dlq to exist`);
    await sleep(600); // three polls: still waiting, and nothing was created behind our back
    expect(started).toBe(false);
    expect(await admin.listTopics()).not.toContain(topic);
    await createTopics(admin, [topic, `${topic}.dlq`], 1);
    const svc = await starting;
    try {
      expect(lines.filter((l) => l.msg.includes("waiting for topic"))).toHaveLength(1);
      const t = await sendTrace(topic);
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL WHERE trace_id = {t:String}", { t })).length > 0);
    } finally {
      await svc.stop();
    }
  });

  it("a bad RAGMETER_KAFKA_CREATE_TOPICS or RAGMETER_SOURCE is a one-line error naming the variable", () => {
    expect(() => loadStreamConfig({ RAGMETER_KAFKA_CREATE_TOPICS: "maybe" })).toThrow("environment variable RAGMETER_KAFKA_CREATE_TOPICS: must be true or false");
    expect(() => loadStreamConfig({ RAGMETER_SOURCE: "jaeger" })).toThrow(/^environment variable RAGMETER_SOURCE: /u);
    expect(() => loadStreamConfig({}, { source: "jaeger" })).toThrow(/^flag --source: /u);
  });
});
