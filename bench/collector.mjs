#!/usr/bin/env node
// Collector benchmark: OTLP protobuf requests of 100 spans (10 traces × 10 spans) from 1, 8 and 32
// concurrent autocannon clients into the real Kafka broker. Prints spans/s, request latency
// p50/p99 and the collector process's peak RSS per level.
//
//   npm run bench:collector [-- --duration 10 --idempotent both|true|false --levels 1,8,32 --workers N --node-args "--cpu-prof"]
//
// Needs `npm run build` (runs collector/dist/main.js in its own process) and starts the broker
// with scripts/kafka/kafka.mjs when it is not running. Only 127.0.0.1 is contacted.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createAdmin, setUpTopics } from "@ragmeter/kafka";
import autocannon from "autocannon";
import { startKafka } from "../scripts/kafka/kafka.mjs";
import { benchCollectorEnv, untilListening } from "./lib/collector-process.mjs";
import { benchBody } from "./lib/otlp-bodies.mjs";
import { peakRssMiB, resetPeakRss } from "./lib/proc.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    duration: { type: "string", default: process.env.BENCH_DURATION ?? "10" },
    idempotent: { type: "string", default: "true" },
    levels: { type: "string", default: "1,8,32" },
    "node-args": { type: "string", default: "" },
    workers: { type: "string", default: process.env.RAGMETER_COLLECTOR_WORKERS ?? "" },
  },
});
const duration = Number(values.duration);
const levels = values.levels.split(",").map(Number);
const modes = values.idempotent === "both" ? [false, true] : [values.idempotent === "true"];
const brokers = process.env.KAFKA_BROKERS ?? "127.0.0.1:9092";
// Extra node flags for the collector process, e.g. --node-args "--cpu-prof --cpu-prof-dir=/tmp/prof".
const nodeArgs = values["node-args"].split(" ").filter((a) => a !== "");

const mainJs = join(root, "collector", "dist", "main.js");
if (!existsSync(mainJs)) {
  process.stderr.write("collector/dist/main.js is missing: run `npm run build` first\n");
  process.exit(2);
}

const { codec } = await import(join(root, "otlp", "dist", "index.js")).then((m) => ({ codec: m }));

function body() {
  return benchBody(codec, 10, 10);
}

const bodies = Array.from({ length: 256 }, body);
const SPANS_PER_REQUEST = 100;

async function withTopic(fn) {
  const admin = createAdmin({ brokers: brokers.split(","), security: { protocol: "PLAINTEXT" } }, "bench");
  const topic = `ragmeter.bench.${randomUUID()}`;
  await setUpTopics(admin, [topic], { create: true, partitions: 3, leaderTimeoutMs: 30_000 });
  try {
    return await fn(topic);
  } finally {
    await admin.deleteTopics({ topics: [topic] }).catch(() => {});
    await admin.close();
  }
}

function startCollectorProcess(topic, idempotent) {
  const child = spawn(process.execPath, [...nodeArgs, mainJs], {
    env: {
      ...process.env,
      ...benchCollectorEnv({ brokers, topic }),
      RAGMETER_KAFKA_IDEMPOTENT: String(idempotent),
      ...(values.workers ? { RAGMETER_COLLECTOR_WORKERS: values.workers } : {}),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return untilListening(child).then((url) => ({ child, url }));
}

function run(url, connections, seconds) {
  let i = 0;
  return autocannon({
    url: `${url}/v1/traces`,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/x-protobuf" },
        setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length] }),
      },
    ],
  });
}

await startKafka({ log: () => {} });
const rows = [];
for (const idempotent of modes) {
  await withTopic(async (topic) => {
    const { child, url } = await startCollectorProcess(topic, idempotent);
    try {
      await run(url, 8, 2); // warm-up (JIT, connections, metadata)
      for (const c of levels) {
        resetPeakRss(child.pid);
        const r = await run(url, c, duration);
        const ok = r["2xx"];
        rows.push({
          idempotent,
          clients: c,
          "spans/s": Math.round((ok * SPANS_PER_REQUEST) / (r.duration || duration)),
          "req/s": Math.round(ok / (r.duration || duration)),
          "p50 ms": r.latency.p50,
          "p99 ms": r.latency.p99,
          non2xx: r.non2xx + r.errors + r.timeouts,
          "peak RSS MiB": Math.round(peakRssMiB(child.pid)),
        });
        process.stderr.write(`done: idempotent=${idempotent} clients=${c}\n`);
      }
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  });
}
console.table(rows);
process.stdout.write(`${JSON.stringify({ bench: "collector", spansPerRequest: SPANS_PER_REQUEST, durationSeconds: duration, rows })}\n`);
