import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import type { BytesProducer } from "../../kafka/src/index.js";
import type { Store } from "../../store/src/client.js";
import { forgetTraces } from "../../store/src/forget.js";
import { type ScorerService, startScorerService } from "../../stream/src/service.js";
import { BROKER, createTopic } from "../helpers/collector-kafka-helpers.js";
import { type KafkaEngine, openKafkaEngine } from "../helpers/kafkaEngine.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { DOCS as docs, rows, sender, sleep, waitFor } from "../helpers/streaming.js";

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const QUIET = 1500;

let engine: KafkaEngine;
let producer: BytesProducer;
beforeAll(async () => {
  engine = await openKafkaEngine("ragmeter-forget-kafka-");
  producer = engine.producer;
});
afterAll(async () => {
  await engine?.close();
});

/** A fresh database in the shared embedded engine, so tests do not see each other's traces. */
const freshStore = (): Promise<Store> => engine.freshStore();

/** A scorer on `topic` in a new consumer group (it starts at the earliest offset: a replay); `committed` gets each batch's last offset. */
function startService(store: Store, topic: string, committed: string[]): Promise<ScorerService> {
  return startScorerService({
    store,
    stream: { brokers: [BROKER], topic, quietMs: QUIET, liveSampleRate: 1, groupId: `g-${randomUUID()}`, sessionTimeoutMs: 6000, concurrency: 2 },
    consume: true,
    log: silent,
    scoring: { judge: createHeuristicJudge(), ks: [1, 5], quietMs: QUIET, liveSampleRate: 1, concurrency: 2, batchSize: 100 },
    intervalMs: 200,
    consumer: { maxWaitTimeMs: 200, beforeCommit: async (_p, last) => void committed.push(last) },
  });
}

const send = (topic: string, key: string, value: Uint8Array) => sender(producer)(topic, key, value);
const interaction = (store: Store, t: string) =>
  rows<{ question: string; answer: string | null; n: string; status: string; version: string }>(
    store,
    "SELECT question, answer, toString(length(retrieved)) AS n, status, toString(version) AS version FROM DB.interactions FINAL WHERE trace_id = {t:String}",
    { t },
  );

describe("forgotten traces are never stored or scored again from Kafka (design §13)", () => {
  it("replaying the topic from the start (a new consumer group) and a re-sent message store none of a forgotten trace's spans and leave its interaction blank; other traces go on", async () => {
    const store = await freshStore();
    const { topic, drop } = await createTopic(1);
    const forgotten = traceId();
    const kept = traceId();
    const body = (t: string, q: string) => {
      const { retrieval, generation } = ragSpans({ traceId: t, question: q, docs, answer: "PostgreSQL listens on port 5432." });
      return protobufOf(traceRequest([retrieval, generation]));
    };
    const committed1: string[] = [];
    const first = await startService(store, topic, committed1);
    try {
      await send(topic, forgotten, body(forgotten, "Which port does Postgres listen on?"));
      await send(topic, kept, body(kept, "Which port, again?"));
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL")).length === 2);
    } finally {
      await first.stop();
    }
    expect((await interaction(store, forgotten))[0]?.question).toBe("Which port does Postgres listen on?");
    expect(await forgetTraces(store, [forgotten], { reason: "test", now: Date.now() })).toMatchObject({ traces: 1, spans: 2, interactions: 1 });
    const blank = await interaction(store, forgotten);
    expect(blank.map(({ question, answer, n, status }) => ({ question, answer, n, status }))).toEqual([{ question: "", answer: null, n: "0", status: "ok" }]);
    const scoresBefore = await rows(store, "SELECT metric, value, status FROM DB.scores FINAL WHERE trace_id = {t:String} ORDER BY metric", { t: forgotten });
    expect(scoresBefore.length).toBeGreaterThan(0);

    const committed2: string[] = [];
    const replay = await startService(store, topic, committed2);
    try {
      await send(topic, forgotten, body(forgotten, "Which port does Postgres listen on?")); // offset 2: the exporter re-sends it
      await waitFor(async () => committed2.includes("2"));
      await sleep(QUIET + 500);
      await replay.scoreNow();
    } finally {
      await replay.stop(); // flushes ingestion_stats
    }
    expect(await rows(store, "SELECT count() AS c FROM DB.spans WHERE trace_id = {t:String}", { t: forgotten })).toEqual([{ c: "0" }]);
    expect(await interaction(store, forgotten)).toEqual(blank); // same row, same version: never rebuilt
    expect(await rows(store, "SELECT metric, value, status FROM DB.scores FINAL WHERE trace_id = {t:String} ORDER BY metric", { t: forgotten })).toEqual(scoresBefore);
    // the other trace's spans were replayed and stored (2, deduplicated by key)
    expect(await rows(store, "SELECT count() AS c FROM DB.spans FINAL WHERE trace_id = {t:String}", { t: kept })).toEqual([{ c: "2" }]);
    // 2 spans of the forgotten trace in the replayed message + 2 in the re-sent one
    expect(await rows(store, "SELECT toString(sum(spans_dropped_forgotten)) AS n FROM DB.ingestion_stats FINAL")).toEqual([{ n: "4" }]);
    await drop();
  });

  it("a trace forgotten while it waits for its quiet window is not scored", async () => {
    const store = await freshStore();
    const { topic, drop } = await createTopic(1);
    const committed: string[] = [];
    const svc = await startService(store, topic, committed);
    try {
      const t = traceId();
      const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port?", docs, answer: "PostgreSQL listens on port 5432." });
      await send(topic, t, protobufOf(traceRequest([retrieval, generation])));
      await waitFor(async () => committed.includes("0"));
      await forgetTraces(store, [t], { reason: "test", now: Date.now() });
      await sleep(QUIET + 500);
      await svc.scoreNow();
      expect(await rows(store, "SELECT count() AS c FROM DB.interactions WHERE trace_id = {t:String}", { t })).toEqual([{ c: "0" }]);
      expect(await rows(store, "SELECT count() AS c FROM DB.scores WHERE trace_id = {t:String}", { t })).toEqual([{ c: "0" }]);
    } finally {
      await svc.stop();
      await drop();
    }
  });
});
