#!/usr/bin/env node
// Pre-fills a topic for bench/scorer.mjs in its own process, so the scorer's peak RSS is its own:
// node bench/lib/scorer-prefill.mjs <topic> <traces> [prod|tiny] [partitions (3)]; prints the seconds it took and the spans it sent.
import { createAdmin, createProducer, setUpTopics } from "@ragmeter/kafka";
import { createProdCorpus, prodTraceBytes } from "./prod-traces.mjs";
import { traceBytes } from "./scorer-traces.mjs";

const [topic, count, shape = "prod", partitions = "3"] = process.argv.slice(2);
if (shape !== "prod" && shape !== "tiny") throw new Error(`shape: ${shape} is neither prod nor tiny`);
const corpus = shape === "prod" ? createProdCorpus() : null;
// Messages per send: a production-shaped trace is ≈ 17 KB, and a partition's batch must stay under the broker's 1 MB.
const PER_SEND = corpus ? 50 : 2000;
const BROKER = process.env.KAFKA_BROKERS ?? "127.0.0.1:9092";
const connection = { brokers: BROKER.split(","), security: { protocol: "PLAINTEXT" } };

async function prefill(topic, n) {
  const admin = createAdmin(connection, "bench-scorer-prefill");
  await setUpTopics(admin, [topic], { create: true, partitions: Number(partitions), leaderTimeoutMs: 30_000 });
  await admin.close();
  const producer = createProducer(connection, { clientId: "bench-scorer-prefill" });
  const headers = new Map([[Buffer.from("ragmeter-signal"), Buffer.from("traces")]]);
  const t0 = performance.now();
  let spans = 0;
  for (let i = 0; i < n; i += PER_SEND) {
    const messages = [];
    for (let j = i; j < Math.min(n, i + PER_SEND); j++) {
      const b = corpus ? prodTraceBytes(corpus, j) : traceBytes(j);
      spans += corpus ? b.trace.spans.length : 2;
      messages.push({ topic, key: Buffer.from(b.key), value: Buffer.from(b.value), headers });
    }
    await producer.send({ messages });
  }
  await producer.close();
  return { seconds: (performance.now() - t0) / 1000, spans };
}

const { seconds, spans } = await prefill(topic, Number(count));
process.stdout.write(`${seconds} ${spans}\n`);
