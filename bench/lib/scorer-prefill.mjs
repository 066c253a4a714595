#!/usr/bin/env node
// Pre-fills a topic for bench/scorer.mjs in its own process, so the scorer's peak RSS is its own:
// node bench/lib/scorer-prefill.mjs <topic> <traces>; prints the seconds it took.
import { randomBytes } from "node:crypto";
import kafkajs from "kafkajs";
import { encodeTraceRequest } from "../../otlp/dist/index.js";

const [topic, count] = process.argv.slice(2);
const BROKER = process.env.KAFKA_BROKERS ?? "127.0.0.1:9092";
const { Kafka, logLevel } = kafkajs;
const kafka = new Kafka({ clientId: "bench-scorer-prefill", brokers: BROKER.split(","), logLevel: logLevel.NOTHING });

const kv = (key, v) => ({ key, value: typeof v === "number" ? { intValue: BigInt(v) } : { stringValue: v } });
function traceBytes(i) {
  const traceId = randomBytes(16).toString("hex");
  const span = (name, attributes, start) => ({
    traceId,
    spanId: randomBytes(8).toString("hex"),
    traceState: "",
    parentSpanId: "",
    flags: 1,
    name,
    kind: 1,
    startTimeUnixNano: start,
    endTimeUnixNano: start + 1_000_000n,
    attributes,
    droppedAttributesCount: 0,
    events: [],
    droppedEventsCount: 0,
    links: [],
    droppedLinksCount: 0,
    status: { code: 0, message: "" },
  });
  const docs = Array.from({ length: 5 }, (_, d) => ({
    id: `doc-${(i + d) % 500}.md#${d + 1}`,
    document_id: `doc-${(i + d) % 500}.md`,
    score: 5 - d,
    content: `Plan ${i % 7} includes ${d + 2} vCPUs and ${(d + 1) * 4} GB of memory; backups are kept for ${7 + d} days.`,
  }));
  const q = `How many vCPUs does plan ${i % 7} include?`;
  const spans = [
    span(
      "retrieval kb",
      [kv("gen_ai.operation.name", "retrieval"), kv("gen_ai.retrieval.query.text", q), kv("gen_ai.retrieval.documents", JSON.stringify(docs))],
      1_764_460_800_000_000_000n,
    ),
    span(
      "chat gen",
      [
        kv("gen_ai.operation.name", "chat"),
        kv("gen_ai.request.model", "gen-1"),
        kv("gen_ai.usage.input_tokens", 420),
        kv("gen_ai.usage.output_tokens", 24),
        kv("gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: `Plan ${i % 7} includes 2 vCPUs and 4 GB of memory.` }] }])),
      ],
      1_764_460_800_010_000_000n,
    ),
  ];
  const req = {
    resourceSpans: [
      {
        resource: { attributes: [kv("service.name", "bench")], droppedAttributesCount: 0, entityRefs: [] },
        scopeSpans: [{ scope: { name: "bench", version: "1", attributes: [], droppedAttributesCount: 0 }, spans, schemaUrl: "" }],
        schemaUrl: "",
      },
    ],
  };
  return { key: traceId, value: Buffer.from(encodeTraceRequest(req, "protobuf")) };
}

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
