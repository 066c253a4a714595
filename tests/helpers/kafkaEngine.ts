// The shared setup of the scorer's Kafka tests: one embedded engine (a fresh database per test, so
// tests do not see each other's traces) and one connected producer to the shared broker.
import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BytesProducer } from "../../kafka/src/index.js";
import { openStore, type Store } from "../../store/src/client.js";
import { migrate } from "../../store/src/migrations.js";
import { ensureBroker, testProducer } from "./collector-kafka-helpers.js";

export interface KafkaEngine {
  readonly base: Store;
  readonly producer: BytesProducer;
  /** A fresh, migrated database in the shared embedded engine. */
  freshStore(): Promise<Store>;
  close(): Promise<void>;
}

/** Checks the broker, opens an embedded engine in a new temp dir named `prefix…`, connects a producer. */
export async function openKafkaEngine(prefix: string): Promise<KafkaEngine> {
  await ensureBroker();
  const base = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), prefix)), database: "ragmeter" });
  const producer = testProducer();
  return {
    base,
    producer,
    async freshStore() {
      const database = `t_${randomUUID().replace(/-/gu, "").slice(0, 12)}`;
      await migrate(base.client, database);
      return { ...base, database, close: async () => {} };
    },
    async close() {
      await producer.close();
      await base.close();
    },
  };
}
