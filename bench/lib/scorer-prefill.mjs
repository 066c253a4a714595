#!/usr/bin/env node
// Pre-fills a topic for bench/scorer.mjs in its own process, so the scorer's peak RSS is its own:
// node bench/lib/scorer-prefill.mjs <topic> <traces>; prints the seconds it took.
import { createAdmin, createProducer, setUpTopics } from "@ragmeter/kafka";
import { traceBytes } from "./scorer-traces.mjs";

const [topic, count] = process.argv.slice(2);
const BROKER = process.env.KAFKA_BROKERS ?? "127.0.0.1:9092";
const connection = { brokers: BROKER.split(","), security: { protocol: "PLAINTEXT" } };

async function prefill(topic, n) {
  const admin = createAdmin(connection, "bench-scorer-prefill");
  await setUpTopics(admin, [topic], { create: true, partitions: 3, leaderTimeoutMs: 30_000 });
  await admin.close();
  const producer = createProducer(connection, { clientId: "bench-scorer-prefill" });
  const headers = new Map([[Buffer.from("ragmeter-signal"), Buffer.from("traces")]]);
  const t0 = performance.now();
  for (let i = 0; i < n; i += 2000) {
    const messages = [];
    for (let j = i; j < Math.min(n, i + 2000); j++) {
      const { key, value } = traceBytes(j);
      messages.push({ topic, key: Buffer.from(key), value: Buffer.from(value), headers });
    }
    await producer.send({ messages });
  }
  await producer.close();
  return (performance.now() - t0) / 1000;
}

process.stdout.write(`${await prefill(topic, Number(count))}\n`);
