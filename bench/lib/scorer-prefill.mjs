#!/usr/bin/env node
// Pre-fills a topic for bench/scorer.mjs in its own process, so the scorer's peak RSS is its own:
// node bench/lib/scorer-prefill.mjs <topic> <traces>; prints the seconds it took.
import kafkajs from "kafkajs";
import { traceBytes } from "./scorer-traces.mjs";

const [topic, count] = process.argv.slice(2);
const BROKER = process.env.KAFKA_BROKERS ?? "127.0.0.1:9092";
const { Kafka, logLevel } = kafkajs;
const kafka = new Kafka({ clientId: "bench-scorer-prefill", brokers: BROKER.split(","), logLevel: logLevel.NOTHING });

async function prefill(topic, n) {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 3, replicationFactor: 1 }], waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  const t0 = performance.now();
  for (let i = 0; i < n; i += 2000) {
    const messages = [];
    for (let j = i; j < Math.min(n, i + 2000); j++) messages.push({ ...traceBytes(j), headers: { "ragmeter-signal": "traces" } });
    await producer.send({ topic, acks: -1, messages });
  }
  await producer.disconnect();
  return (performance.now() - t0) / 1000;
}

process.stdout.write(`${await prefill(topic, Number(count))}\n`);
