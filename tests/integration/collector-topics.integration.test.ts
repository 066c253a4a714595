// Topics that do not exist yet (issue 15): the collector creates its topic and <topic>.dlq when
// allowed, or answers 503 naming the missing topic (and /readyz says so) until it exists.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CollectorConfig, collectorConfigSchema } from "../../collector/src/config.js";
import { type RunningCollector, startCollector } from "../../collector/src/server.js";
import type { KafkaAdmin } from "../../kafka/src/index.js";
import { decodeErrorStatus, encodeTraceRequest } from "../../otlp/src/codec.js";
import { hex, makeRequest, makeSpan } from "../helpers/collector-fixtures.js";
import { BROKER, consume, createTopics, dropTopics, ensureBroker, partitionCount, post, testAdmin } from "../helpers/collector-kafka-helpers.js";

const PB = { "content-type": "application/x-protobuf" };
let admin: KafkaAdmin;
const created: string[] = [];
const running: RunningCollector[] = [];

function config(topic: string, over: Partial<CollectorConfig> = {}): CollectorConfig {
  return collectorConfigSchema.parse({ host: "127.0.0.1", port: 0, brokers: [BROKER], topic, sendTimeoutMs: 5_000, kafkaBackoffMs: 100, workers: 1, ...over });
}

function oneTrace(traceId: string): Uint8Array {
  const req = makeRequest();
  req.resourceSpans = [req.resourceSpans[0]!];
  req.resourceSpans[0]!.scopeSpans[0]!.spans = [makeSpan(traceId), makeSpan(traceId)];
  return encodeTraceRequest(req);
}

beforeAll(async () => {
  await ensureBroker();
  admin = testAdmin();
});

afterAll(async () => {
  await Promise.all(running.map((c) => c.close()));
  await dropTopics(
    admin,
    created.flatMap((t) => [t, `${t}.dlq`]),
  );
  await admin.close();
});

describe("collector and topics that do not exist yet", () => {
  it("creates the topic and its dead-letter topic with the configured partitions, then delivers", async () => {
    const topic = `ragmeter.test.topics.${randomUUID()}`;
    created.push(topic);
    const c = await startCollector(config(topic, { createTopics: true, topicPartitions: 2 }));
    running.push(c);
    const traceId = hex(16);
    const res = await post(`${c.url}/v1/traces`, oneTrace(traceId), PB);
    expect(res.status).toBe(200);
    expect([await partitionCount(admin, topic), await partitionCount(admin, `${topic}.dlq`)]).toEqual([2, 2]);
    const got = await consume(topic, (m) => m.length >= 1);
    expect(got.map((m) => m.key)).toEqual([traceId]);
    expect((await fetch(`${c.url}/readyz`)).status).toBe(200);
  });

  it("answers 503 + Retry-After naming the missing topic when it may not create it, and delivers once the topic exists", async () => {
    const topic = `ragmeter.test.topics.${randomUUID()}`;
    created.push(topic);
    const c = await startCollector(config(topic, { createTopics: false }));
    running.push(c);
    const res = await post(`${c.url}/v1/traces`, oneTrace(hex(16)), PB);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
    const status = decodeErrorStatus(res.body);
    expect(status.message).toContain(`"${topic}" does not exist`);
    expect(status.message).not.toMatch(/unreachable/u);
    const ready = await fetch(`${c.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "topic missing", topic });
    expect((await admin.listTopics()).includes(topic)).toBe(false); // it did not create it

    await createTopics(admin, [topic], 1);
    let status200 = 0;
    const traceId = hex(16);
    for (let i = 0; i < 50 && status200 !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status200 = (await post(`${c.url}/v1/traces`, oneTrace(traceId), PB)).status;
    }
    expect(status200).toBe(200);
    const got = await consume(topic, (m) => m.length >= 1);
    expect(got[0]!.key).toBe(traceId);
    expect((await admin.listTopics()).includes(`${topic}.dlq`)).toBe(false);
  });
});
