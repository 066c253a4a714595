import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { type BytesProducer, committedOffsets } from "../../kafka/src/index.js";
import type { AnyValue } from "../../otlp/src/model.js";
import type { Store } from "../../store/src/client.js";
import { type ScorerService, startScorerService } from "../../stream/src/service.js";
import { BROKER, consume, createTopic, createTopics, testAdmin } from "../helpers/collector-kafka-helpers.js";
import { type KafkaEngine, openKafkaEngine } from "../helpers/kafkaEngine.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { countingSpanInserts } from "../helpers/spanInserts.js";
import { DOCS as docs, rows, sender, sleep, waitFor } from "../helpers/streaming.js";

const silent = { info: () => {}, warn: () => {}, error: () => {} };

let engine: KafkaEngine;
let producer: BytesProducer;
beforeAll(async () => {
  engine = await openKafkaEngine("ragmeter-scorer-kafka-");
  producer = engine.producer;
});
afterAll(async () => {
  await engine?.close();
});

/** A fresh database in the shared embedded engine, so tests do not see each other's traces. */
const freshStore = (): Promise<Store> => engine.freshStore();

async function startService(store: Store, topic: string, group: string, extra: Partial<Parameters<typeof startScorerService>[0]> = {}): Promise<ScorerService> {
  return startScorerService({
    store,
    stream: { brokers: [BROKER], topic, quietMs: 1500, liveSampleRate: 1, groupId: group, sessionTimeoutMs: 6000, concurrency: 4 },
    consume: true,
    log: silent,
    scoring: { judge: createHeuristicJudge(), ks: [1, 5], quietMs: 1500, liveSampleRate: 1, concurrency: 4, batchSize: 100 },
    intervalMs: 200,
    consumer: { maxWaitTimeMs: 200 },
    ...extra,
  });
}

/** A protobuf varint. */
function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}

const send = (topic: string, key: string, value: Uint8Array | Buffer, signal = "traces") => sender(producer)(topic, key, value, signal);

describe("streaming scorer on the real broker and the ClickHouse engine (design §6)", () => {
  it("spans of a trace arriving out of order in separate messages seconds apart are all stored; scored once after settling; never a generation without its retrieval", async () => {
    const store = await freshStore();
    const { topic, drop } = await createTopic(2);
    const svc = await startService(store, topic, `g-${randomUUID()}`);
    try {
      const t = traceId();
      const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
      await send(topic, t, protobufOf(traceRequest([generation])));
      await sleep(1000); // shorter than the quiet window: the trace must not settle yet
      await send(topic, t, protobufOf(traceRequest([retrieval])));
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL")).length > 0);
      await sleep(1000);
      const inter = await rows<{ status: string; n: string; answer: string }>(store, "SELECT status, length(retrieved) AS n, answer FROM DB.interactions FINAL");
      expect(inter).toEqual([{ status: "ok", n: "2", answer: "PostgreSQL listens on port 5432." }]);
      const g = await rows<{ value: number; status: string; c: string }>(
        store,
        "SELECT any(value) AS value, any(status) AS status, count() AS c FROM DB.scores FINAL WHERE metric = 'grounding'",
      );
      expect(g).toEqual([{ value: 1, status: "ok", c: "1" }]);
      expect(await rows(store, "SELECT count() AS c FROM DB.spans FINAL")).toEqual([{ c: "2" }]);
    } finally {
      await svc.stop();
      await drop();
    }
  });

  it("a retrieval arriving after the quiet window rescores the trace: the final state is one score per key, with the retrieval", async () => {
    const store = await freshStore();
    const { topic, drop } = await createTopic(1);
    const svc = await startService(store, topic, `g-${randomUUID()}`);
    try {
      const t = traceId();
      const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
      await send(topic, t, protobufOf(traceRequest([generation])));
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL WHERE status = 'ok'")).length > 0);
      const first = await rows<{ status: string }>(store, "SELECT status FROM DB.scores FINAL WHERE metric = 'grounding'");
      expect(first).toEqual([{ status: "not_applicable" }]);
      await send(topic, t, protobufOf(traceRequest([retrieval])));
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.scores FINAL WHERE metric = 'grounding' AND status = 'ok'")).length > 0);
      expect(await rows(store, "SELECT metric, count() AS c FROM DB.scores FINAL GROUP BY metric HAVING c != 1")).toEqual([]);
    } finally {
      await svc.stop();
      await drop();
    }
  });

  it("the same OTLP request delivered twice (an exporter retry) is stored once, tokens not doubled, one score per key", async () => {
    const store = await freshStore();
    const { topic, drop } = await createTopic(1);
    const svc = await startService(store, topic, `g-${randomUUID()}`);
    try {
      const t = traceId();
      const { retrieval, generation } = ragSpans({ traceId: t, question: "q?", docs, answer: "PostgreSQL listens on port 5432.", inputTokens: 321 });
      const body = protobufOf(traceRequest([retrieval, generation]));
      await send(topic, t, body);
      await send(topic, t, body);
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL")).length > 0);
      await sleep(2000);
      expect(await rows(store, "SELECT count() AS c FROM DB.spans FINAL")).toEqual([{ c: "2" }]);
      expect(await rows(store, "SELECT input_tokens FROM DB.interactions FINAL")).toEqual([{ input_tokens: "321" }]);
      expect(await rows(store, "SELECT metric FROM DB.scores FINAL GROUP BY metric, trace_id HAVING count() != 1")).toEqual([]);
    } finally {
      await svc.stop();
      await drop();
    }
  });

  it("an undecodable message goes to the dead-letter topic with the error in a header; the partition moves on", async () => {
    const store = await freshStore();
    const { topic, drop } = await createTopic(1);
    const admin = testAdmin();
    await createTopics(admin, [`${topic}.dlq`], 1);
    const svc = await startService(store, topic, `g-${randomUUID()}`);
    try {
      const t = traceId();
      const { retrieval, generation } = ragSpans({ traceId: t, question: "q?", docs, answer: "PostgreSQL listens on port 5432." });
      await send(topic, "garbage", Buffer.from([0xff, 0xff, 0xff, 0x01, 0x02]));
      await send(topic, t, protobufOf(traceRequest([retrieval, generation])));
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL")).length > 0);
      const dlq = await consume(`${topic}.dlq`, (m) => m.length > 0, 15_000);
      expect(dlq[0]?.key).toBe("garbage");
      expect(dlq[0]?.headers["ragmeter-error"]).toMatch(/^traces record: /u);
      expect(dlq[0]?.headers["ragmeter-source"]).toBe(`${topic}/0/0`);
      expect(dlq[0]?.value).toEqual(Buffer.from([0xff, 0xff, 0xff, 0x01, 0x02]));
    } finally {
      await svc.stop();
      await admin.deleteTopics({ topics: [`${topic}.dlq`] }).catch(() => {});
      await admin.close();
      await drop();
    }
  });

  it("hostile records (issue 39): over the limit of items or nested past the decoder's bound → dead-letter topic; an item over a limit is left out, the rest stored, the record dead-lettered with the reason", async () => {
    const store = await freshStore();
    const { topic, drop } = await createTopic(1);
    const admin = testAdmin();
    await createTopics(admin, [`${topic}.dlq`], 1);
    const limits = { maxItems: 50, maxAttributes: 100, maxValueBytes: 10_000, maxDepth: 4 };
    const svc = await startService(store, topic, `g-${randomUUID()}`, { consumer: { maxWaitTimeMs: 200, limits } });
    try {
      const t = traceId();
      const { retrieval, generation } = ragSpans({ traceId: t, question: "q?", docs, answer: "PostgreSQL listens on port 5432." });
      // A value 5 levels deep (over maxDepth 4): that span alone is left out.
      let deep: AnyValue = { stringValue: "x" };
      for (let i = 0; i < 4; i++) deep = { arrayValue: { values: [deep] } };
      const tooDeep = { ...generation, spanId: "00000000000000aa", attributes: [...generation.attributes, { key: "deep", value: deep }] };
      const many = traceRequest(Array.from({ length: 60 }, () => ({ ...retrieval, spanId: randomUUID().replaceAll("-", "").slice(0, 16) })));
      // 5,000 levels: past the protobuf decoder's own bound (100 message levels).
      const heads: Buffer[][] = [];
      let size = 3; // AnyValue{string_value: "x"}
      for (let i = 0; i < 5_000; i++) {
        const inner = Buffer.concat([Buffer.from([0x0a]), varint(size)]); // ArrayValue.values
        size += inner.length;
        const outer = Buffer.concat([Buffer.from([0x2a]), varint(size)]); // AnyValue.array_value
        size += outer.length;
        heads.push([outer, inner]);
      }
      const value = Buffer.concat([...heads.reverse().flat(), Buffer.from([0x0a, 0x01, 0x78])]); // outermost first
      const ld = (field: number, b: Buffer): Buffer => Buffer.concat([Buffer.from([(field << 3) | 2]), varint(b.length), b]);
      const deepSpan = ld(2, Buffer.concat([ld(1, Buffer.alloc(16, 7)), ld(2, Buffer.alloc(8, 7)), ld(9, Buffer.concat([ld(1, Buffer.from("a")), ld(2, value)]))]));
      await send(topic, "many", protobufOf(many));
      await send(topic, "nested", ld(1, ld(2, deepSpan)));
      await send(topic, t, protobufOf(traceRequest([retrieval, generation, tooDeep])));
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL")).length > 0);
      expect(await rows(store, "SELECT span_id FROM DB.spans FINAL ORDER BY span_id")).toEqual([retrieval.spanId, generation.spanId].sort().map((span_id) => ({ span_id })));
      const dlq = await consume(`${topic}.dlq`, (m) => m.length >= 3, 15_000);
      const errorOf = (key: string): string => String(dlq.find((m) => m.key === key)?.headers["ragmeter-error"]);
      expect(errorOf("many")).toBe("traces record: body: more than 50 spans in one request, over the limit of 50 (RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST)");
      expect(errorOf("nested")).toMatch(/^traces record: body: malformed protobuf ExportTraceServiceRequest: /u);
      // Levels 1 (the attribute's value) to 4 are read; level 4's entry would be level 5.
      const at = `attributes[${generation.attributes.length}].value${".arrayValue.values[0]".repeat(3)}`;
      expect(errorOf(t)).toBe(
        `traces record: 1 of 3 spans refused: resourceSpans[0].scopeSpans[0].spans[2].${at}: value nested deeper than 4 levels (RAGMETER_OTLP_MAX_VALUE_DEPTH)`,
      );
    } finally {
      await svc.stop();
      await admin.deleteTopics({ topics: [`${topic}.dlq`] }).catch(() => {});
      await admin.close();
      await drop();
    }
  });

  it("two scorers in one group: one dies after writing and before committing; after the rebalance the other reprocesses — still one score per key", async () => {
    const store = await freshStore();
    const { topic, drop } = await createTopic(2);
    const group = `g-${randomUUID()}`;
    let died = false;
    const a = await startService(store, topic, group, {
      consumer: {
        maxWaitTimeMs: 200,
        restartOnFailure: false,
        beforeCommit: async () => {
          died = true;
          throw new Error("simulated crash after the write, before the commit");
        },
      },
    });
    const ids: string[] = [];
    for (let n = 0; n < 20; n++) {
      const t = traceId();
      ids.push(t);
      const { retrieval, generation } = ragSpans({ traceId: t, question: `question ${n}?`, docs, answer: "PostgreSQL listens on port 5432." });
      await send(topic, t, protobufOf(traceRequest([retrieval, generation])));
    }
    await waitFor(async () => died);
    const b = await startService(store, topic, group);
    try {
      await waitFor(async () => (await rows<{ c: string }>(store, "SELECT count() AS c FROM DB.interactions FINAL"))[0]?.c === "20", 45_000);
      await sleep(2000);
      const scored = await rows<{ trace_id: string }>(store, "SELECT DISTINCT trace_id FROM DB.scores FINAL WHERE metric = 'grounding'");
      expect(scored.map((r) => r.trace_id).sort()).toEqual([...ids].sort());
      expect(await rows(store, "SELECT trace_id, metric FROM DB.scores FINAL GROUP BY trace_id, metric HAVING count() != 1")).toEqual([]);
    } finally {
      await a.stop().catch(() => {});
      await b.stop();
      await drop();
    }
  });

  it("a fetch's records go in writes within the span bound (issue 38), every one stored before the offset is committed", async () => {
    const { store, spanInserts } = countingSpanInserts(await freshStore());
    const { topic, drop } = await createTopic(1);
    // Ten traces of two spans on the topic before the scorer starts: its first fetch holds them all.
    for (let i = 0; i < 10; i++) {
      const t = traceId();
      const { retrieval, generation } = ragSpans({ traceId: t, question: `Which port does service ${i} listen on?`, docs, answer: "PostgreSQL listens on port 5432." });
      await send(topic, t, protobufOf(traceRequest([retrieval, generation])));
    }
    const atCommit: { offset: string; stored: string }[] = [];
    const svc = await startService(store, topic, `g-${randomUUID()}`, {
      stream: {
        brokers: [BROKER],
        topic,
        quietMs: 1500,
        liveSampleRate: 1,
        groupId: `g-${randomUUID()}`,
        sessionTimeoutMs: 6000,
        concurrency: 4,
        writeBatch: { maxCount: 4, maxBytes: 1e9, maxWaitMs: 0, gapMs: 0 },
      },
      consumer: {
        maxWaitTimeMs: 200,
        beforeCommit: async (_partition, lastOffset) => {
          const [r] = await rows<{ c: string }>(store, "SELECT count() AS c FROM DB.spans FINAL");
          atCommit.push({ offset: lastOffset, stored: r?.c ?? "0" });
        },
      },
    });
    try {
      await waitFor(async () => atCommit.some((c) => c.offset === "9"));
      // Each commit finds every span of the records up to its offset stored (two a record).
      for (const c of atCommit) expect(Number(c.stored)).toBe(2 * (Number(c.offset) + 1));
      // Writes of at most four spans (two records); the ten records took at least five.
      expect(Math.max(...spanInserts)).toBe(4);
      expect(spanInserts.length).toBeGreaterThanOrEqual(5);
      expect(spanInserts.reduce((a, n) => a + n, 0)).toBe(20);
    } finally {
      await svc.stop();
      await drop();
    }
  });

  it("ClickHouse writes failing → retried with backoff, no offset committed until the spans are written; nothing lost after recovery", async () => {
    const store = await freshStore();
    let failures = 0;
    // Spans are written through the store's second connection (the scorer's ingest lane).
    const lane = await store.secondClient();
    const failingLane = new Proxy(lane, {
      get(target, prop, receiver) {
        if (prop === "insert") {
          return async (params: { table: string }) => {
            if (params.table.endsWith(".spans") && failures < 4) {
              failures++;
              throw new Error("simulated ClickHouse outage");
            }
            return target.insert(params as Parameters<typeof target.insert>[0]);
          };
        }
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const failing: Store = { ...store, secondClient: async () => failingLane };
    const { topic, drop } = await createTopic(1);
    const group = `g-${randomUUID()}`;
    const admin = testAdmin();
    const svc = await startService(failing, topic, group);
    try {
      const t = traceId();
      const { retrieval, generation } = ragSpans({ traceId: t, question: "q?", docs, answer: "PostgreSQL listens on port 5432." });
      await send(topic, t, protobufOf(traceRequest([retrieval, generation])));
      await waitFor(async () => failures >= 2);
      expect((await committedOffsets(admin, group, topic)).get(0)).toBeUndefined(); // nothing committed while the write fails
      await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL")).length > 0);
      expect(failures).toBe(4);
      expect(await rows(store, "SELECT count() AS c FROM DB.spans FINAL")).toEqual([{ c: "2" }]);
      await waitFor(async () => (await committedOffsets(admin, group, topic)).get(0) === 1n);
    } finally {
      await svc.stop();
      await admin.close();
      await drop();
    }
  });
});
