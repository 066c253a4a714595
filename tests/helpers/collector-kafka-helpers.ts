// Helpers for integration tests against the real broker (scripts/kafka/kafka.mjs), through ragmeter's
// own Kafka module (@ragmeter/kafka): its admin client, producer, topic setup and batch consumer.
import { randomUUID } from "node:crypto";
import {
  type BytesProducer,
  createAdmin,
  createProducer,
  type KafkaAdmin,
  type KafkaConnection,
  type KafkaSecurity,
  PLAINTEXT,
  setUpTopics,
  startBatchConsumer,
} from "../../kafka/src/index.js";
import { startKafka } from "../../scripts/kafka/kafka.mjs";

export const BROKER = process.env["KAFKA_BROKERS"] ?? "127.0.0.1:9092";

/** Starts the shared broker when needed (idempotent). */
export async function ensureBroker(env: Record<string, string | undefined> = process.env): Promise<void> {
  await startKafka({ env, log: () => {} });
}

/** The connection to `brokers` (comma-separated) with `security` (default PLAINTEXT). */
function testConnection(brokers = BROKER, security: KafkaSecurity = PLAINTEXT): KafkaConnection {
  return { brokers: brokers.split(","), security };
}

const clientId = (): string => `ragmeter-test-${randomUUID().slice(0, 8)}`;

/** An admin client of the module (close it with `close()`). */
export function testAdmin(brokers = BROKER, security: KafkaSecurity = PLAINTEXT): KafkaAdmin {
  return createAdmin(testConnection(brokers, security), clientId());
}

/** A producer of the module (acks = all, keys placed as Kafka's Java producer does). */
export function testProducer(brokers = BROKER, security: KafkaSecurity = PLAINTEXT): BytesProducer {
  return createProducer(testConnection(brokers, security), { clientId: clientId() });
}

/** Partitions of `topic` (0 when it does not exist). */
export async function partitionCount(admin: KafkaAdmin, topic: string): Promise<number> {
  const m = await admin.metadata({ topics: [topic], forceUpdate: true }).catch(() => undefined);
  return m?.topics.get(topic)?.partitionsCount ?? 0;
}

/**
 * Creates `topics` with `partitions` partitions through the module's topic setup and waits until
 * every partition has a leader. A broker that has just (re)started, or is loaded, can refuse the
 * creation or answer without leaders for a while: retried, bounded (60 s).
 */
export async function createTopics(admin: KafkaAdmin, topics: string[], partitions: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await setUpTopics(admin, topics, { create: true, partitions, leaderTimeoutMs: 10_000 }).catch(() => undefined);
    if (r !== undefined && r.missing.length === 0 && r.leaderless.length === 0) return;
    if (Date.now() > deadline) throw new Error(`topics ${topics.join(", ")}: not ready after 60 s`);
    await new Promise((res) => setTimeout(res, 500));
  }
}

/** Creates a uniquely named topic; returns its name and a cleanup function. */
export async function createTopic(partitions = 3, brokers = BROKER): Promise<{ topic: string; drop: () => Promise<void> }> {
  const admin = testAdmin(brokers);
  const topic = `ragmeter.test.collector.${randomUUID()}`;
  await createTopics(admin, [topic], partitions);
  return {
    topic,
    drop: async () => {
      await dropTopics(admin, [topic, `${topic}.dlq`]);
      await admin.close();
    },
  };
}

/** Deletes those of `topics` that exist (the collector creates `<topic>.dlq` next to its topic). */
export async function dropTopics(admin: KafkaAdmin, topics: string[]): Promise<void> {
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

/**
 * Reads the topic from the beginning with a fresh consumer group (the module's batch consumer)
 * until `until(messages)` holds or `timeoutMs` passes; returns what was read.
 */
export async function consume(topic: string, until: (m: Consumed[]) => boolean, timeoutMs = 20_000, brokers = BROKER, security: KafkaSecurity = PLAINTEXT): Promise<Consumed[]> {
  const got: Consumed[] = [];
  let done: () => void = () => {};
  const finished = new Promise<void>((r) => (done = r));
  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  const consumer = await startBatchConsumer(
    testConnection(brokers, security),
    { clientId: clientId(), groupId: `collector-test-${randomUUID()}`, topics: [topic], sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500, maxWaitTimeMs: 200 },
    async (batch) => {
      for (const r of batch.records) {
        got.push({
          key: r.key === null ? null : r.key.toString(),
          value: r.value ?? Buffer.alloc(0),
          headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, v.toString()])),
          partition: batch.partition,
        });
      }
      if (until(got)) done();
    },
    silent,
  );
  try {
    if (!until(got)) await Promise.race([finished, new Promise((r) => setTimeout(r, timeoutMs))]);
  } finally {
    await consumer.stop();
  }
  return got;
}

/** POSTs a body to the collector. */
export async function post(url: string, body: Uint8Array | string, headers: Record<string, string>): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(url, { method: "POST", body: typeof body === "string" ? body : Buffer.from(body), headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}
