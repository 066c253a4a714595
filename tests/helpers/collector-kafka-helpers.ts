// Helpers for collector integration tests against the real broker (scripts/kafka/kafka.mjs).
import { randomUUID } from "node:crypto";
import type { Admin, Consumer, IHeaders } from "kafkajs";
import kafkajs from "kafkajs";
import { startKafka } from "../../scripts/kafka/kafka.mjs";

const { Kafka, logLevel } = kafkajs;

export const BROKER = process.env["KAFKA_BROKERS"] ?? "127.0.0.1:9092";

/** Starts the shared broker when needed (idempotent). */
export async function ensureBroker(env: Record<string, string | undefined> = process.env): Promise<void> {
  await startKafka({ env, log: () => {} });
}

export function kafkaClient(brokers = BROKER) {
  return new Kafka({ clientId: `collector-test-${randomUUID().slice(0, 8)}`, brokers: brokers.split(","), logLevel: logLevel.NOTHING });
}

/** Creates a uniquely named topic; returns its name and a cleanup function. */
export async function createTopic(partitions = 3, brokers = BROKER): Promise<{ topic: string; drop: () => Promise<void> }> {
  const admin: Admin = kafkaClient(brokers).admin();
  await admin.connect();
  const topic = `ragmeter.test.collector.${randomUUID()}`;
  // A broker that has just (re)started, or is loaded, can refuse the creation ("Topic creation
  // errors") or answer "does not host this topic-partition" for a while after the topic exists:
  // retry the creation and wait, bounded, until every partition has a leader.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const created = await admin
      .createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor: 1 }], waitForLeaders: false })
      .then(() => true)
      .catch(async () => (await admin.listTopics().catch(() => [] as string[])).includes(topic));
    if (created) break;
    if (Date.now() > deadline) throw new Error(`topic ${topic}: not created after 60 s`);
    await new Promise((r) => setTimeout(r, 500));
  }
  for (;;) {
    const ready = await admin
      .fetchTopicMetadata({ topics: [topic] })
      .then((m) => m.topics[0]?.partitions.length === partitions && m.topics[0].partitions.every((p) => p.leader >= 0))
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`topic ${topic}: partitions without a leader after 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    topic,
    drop: async () => {
      await dropTopics(admin, [topic, `${topic}.dlq`]);
      await admin.disconnect();
    },
  };
}

/** Deletes those of `topics` that exist (the collector creates `<topic>.dlq` next to its topic). */
export async function dropTopics(admin: Admin, topics: string[]): Promise<void> {
  const existing = new Set(await admin.listTopics().catch(() => [] as string[]));
  const present = topics.filter((t) => existing.has(t));
  if (present.length > 0) await admin.deleteTopics({ topics: present }).catch(() => {});
}

export interface Consumed {
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
  partition: number;
}

function headersOf(h: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) if (v !== undefined) out[k] = Array.isArray(v) ? String(v[0]) : String(v);
  return out;
}

/**
 * Reads the topic from the beginning with a fresh consumer group until `until(messages)` holds or
 * `timeoutMs` passes; returns what was read.
 */
export async function consume(topic: string, until: (m: Consumed[]) => boolean, timeoutMs = 20_000, brokers = BROKER): Promise<Consumed[]> {
  const consumer: Consumer = kafkaClient(brokers).consumer({
    groupId: `collector-test-${randomUUID()}`,
    sessionTimeout: 6_000,
    heartbeatInterval: 500,
    rebalanceTimeout: 6_000,
    maxWaitTimeInMs: 200,
  });
  const got: Consumed[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let done: () => void = () => {};
    const finished = new Promise<void>((r) => (done = r));
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        got.push({ key: message.key ? message.key.toString() : null, value: message.value ?? Buffer.alloc(0), headers: headersOf(message.headers), partition });
        if (until(got)) done();
      },
    });
    if (!until(got)) await Promise.race([finished, new Promise((r) => setTimeout(r, timeoutMs))]);
  } finally {
    await consumer.disconnect();
  }
  return got;
}

/** POSTs a body to the collector. */
export async function post(url: string, body: Uint8Array | string, headers: Record<string, string>): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(url, { method: "POST", body: typeof body === "string" ? body : Buffer.from(body), headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}
