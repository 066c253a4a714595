#!/usr/bin/env node
// Peer benchmark (issue 15): ragmeter's collector against the OpenTelemetry Collector (Go, built with
// the OpenTelemetry Collector Builder: otlpreceiver → kafkaexporter, otlp_proto, partition_traces_by_id,
// required_acks -1, no sending queue) on the same Kafka broker with the same 256 OTLP protobuf bodies
// of 10 traces × 10 spans. Closed-loop autocannon at each client count, A/B alternating for N rounds,
// each collector on its own fresh topic; after the rounds the messages on both topics are counted.
// Prints per round and as medians: accepted spans/s, p50/p99, CPU µs per span (utime+stime of the
// collector process tree from /proc), resident memory under load (VmRSS of the tree sampled every
// 250 ms while the cell is measured, i.e. after its warm-up; the median of the samples), peak RSS
// (VmHWM, reset per cell; in the JSON only), errors, ragmeter/otelcol.
//
//   npm run bench:peer [-- --rounds 3 --duration 10 --clients 1,8,32 --warmup 3 --cpu-prof DIR --keep-up --via bin|cli
//                          --bodies ragmeter,sdk-js,sdk-python --shape prod|small --requests 64 --entry FILE]
//
// Body sets (issue 38, bench/lib/sdk-bodies.mjs): the same requests of 10 traces × 10 GenAI spans
// written by ragmeter's own codec (`ragmeter`), by the OpenTelemetry JS SDK's proto exporter
// (`sdk-js`) and by the Python SDK's OTLP/HTTP exporter (`sdk-python`, produced once with the
// interpreter of scripts/python-env.mjs and cached in .ragmeter/bench/); every body set is measured
// at every client count. --shape prod (default) gives the spans production-sized attributes (5
// passages of 700–900 characters on retrievals, messages on chats, ≈ 2.7 kB per span), --shape small
// the six short attributes of earlier runs (≈ 365 bytes per span). --requests: distinct bodies per set.
//
// --via bin (default) starts ragmeter's collector as collector/bin/ragmeter-collector.js; --via cli as
// `ragmeter collector` (scorer/bin/ragmeter.js), the command the README gives, which replaces its
// process with the same bundle and Node settings (collector/src/tuning.ts).
//
// By default each (client count, round) cell starts a fresh process of each collector in turn, warms
// it up at the cell's client count for --warmup s, measures it and stops it (the same for both).
// --keep-up starts both once, warms both up at 8 clients and keeps them up for every cell (the
// peak RSS of a cell then includes what earlier, heavier cells left in the process).
//
// --cpu-prof DIR runs ragmeter's collector with `--cpu-prof` (through NODE_OPTIONS) and leaves its .cpuprofile in DIR
// (written when each collector process stops); for quick iterations use e.g. --clients 1 --rounds 1.
//
// Needs Go 1.26+ (the collector is built once into ~/.cache/ragmeter/otelcol-<version>/ by
// scripts/otelcol/otelcol.mjs), Java 17+ and Maven for the broker (scripts/kafka/kafka.mjs; a broker
// that already runs is used and left running) and `npm run build`. Only 127.0.0.1 is contacted.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createAdmin, setUpTopics, startBatchConsumer, topicOffsets } from "@ragmeter/kafka";
import autocannon from "autocannon";
import { startKafka, stopKafka } from "../scripts/kafka/kafka.mjs";
import { buildOtelcol, OtelcolScriptError, otelcolSettings, startOtelcol, stopOtelcol } from "../scripts/otelcol/otelcol.mjs";
import { benchCollectorEnv, untilListening } from "./lib/collector-process.mjs";
import { freePort } from "./lib/net.mjs";
import { cpuSeconds, peakRssMiB, resetPeakRss, rssMiB } from "./lib/proc.mjs";
import { BODY_SETS, bodyContent, pythonBodies, ragmeterBodies, SHAPES, sdkJsBodies } from "./lib/sdk-bodies.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: process.env.BENCH_DURATION ?? "10" },
    clients: { type: "string", default: "1,8,32" },
    warmup: { type: "string", default: "3" },
    partitions: { type: "string", default: "3" },
    "cpu-prof": { type: "string" },
    "keep-up": { type: "boolean", default: false },
    via: { type: "string", default: "bin" },
    bodies: { type: "string", default: BODY_SETS.join(",") },
    shape: { type: "string", default: "prod" },
    requests: { type: "string", default: "64" },
    entry: { type: "string" },
  },
});
const bodySets = values.bodies.split(",");
const requestCount = Number(values.requests);
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const partitions = Number(values.partitions);
const levels = values.clients.split(",").map(Number);
const keepUp = values["keep-up"];
const via = values.via;
if (via !== "bin" && via !== "cli") usage(`--via must be bin or cli, got ${values.via}`);
if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= 100)) usage(`--rounds must be an integer 1..100, got ${values.rounds}`);
if (!(duration > 0 && duration <= 3600)) usage(`--duration must be seconds in (0, 3600], got ${values.duration}`);
if (!(warmup >= 0 && warmup <= 600)) usage(`--warmup must be seconds in [0, 600], got ${values.warmup}`);
if (!(Number.isInteger(partitions) && partitions >= 1)) usage(`--partitions must be a positive integer, got ${values.partitions}`);
if (levels.length === 0 || !levels.every((c) => Number.isInteger(c) && c >= 1 && c <= 1024)) usage(`--clients must be a list like 1,8,32, got ${values.clients}`);
if (bodySets.length === 0 || !bodySets.every((b) => BODY_SETS.includes(b))) usage(`--bodies must be a list of ${BODY_SETS.join(", ")}, got ${values.bodies}`);
if (!SHAPES.includes(values.shape)) usage(`--shape must be one of ${SHAPES.join(", ")}, got ${values.shape}`);
if (!(Number.isInteger(requestCount) && requestCount >= 1 && requestCount <= 4096)) usage(`--requests must be an integer 1..4096, got ${values.requests}`);
const brokers = (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",");

function usage(msg) {
  process.stderr.write(`bench:peer: ${msg}\n`);
  process.exit(2);
}
const log = (msg) => process.stderr.write(`[peer ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

// ragmeter's collector as shipped: its stand-alone entry point, whose shebang carries its Node flags.
const mainJs = join(root, "collector", "dist", "main.js");
// --entry FILE: another build's entry point (e.g. a copy of the base's collector/bin and collector/dist), for A/B runs.
const entry = values.entry ?? join(root, "collector", "bin", "ragmeter-collector.js");
// --via cli: the command the README gives, `ragmeter collector`, which replaces its process with the same bundle and settings.
const command = via === "cli" ? [process.execPath, [join(root, "scorer", "bin", "ragmeter.js"), "collector"]] : [entry, []];
if (!existsSync(mainJs)) usage("collector/dist/main.js is missing: run `npm run build` first");
const codec = await import(join(root, "otlp", "dist", "index.js"));

// ---- bodies: --requests requests of 10 traces × 10 spans, written by each body set's encoder ----
const TRACES_PER_REQUEST = 10;
const SPANS_PER_TRACE = 10;
const SPANS_PER_REQUEST = TRACES_PER_REQUEST * SPANS_PER_TRACE;
const content = bodyContent({ requests: requestCount, traces: TRACES_PER_REQUEST, spansPerTrace: SPANS_PER_TRACE, shape: values.shape });
const makers = {
  ragmeter: async () => ragmeterBodies(codec, content),
  "sdk-js": () => sdkJsBodies(content),
  "sdk-python": async () => {
    const { pythonEnv } = await import("../scripts/python-env.mjs");
    try {
      return pythonBodies(content, { python: pythonEnv({ log }).python, log });
    } catch (e) {
      return usage(`the Python SDK's bodies could not be produced (${e.message}); leave them out with --bodies ragmeter,sdk-js`);
    }
  },
};
const bodiesOf = {};
for (const set of bodySets) {
  bodiesOf[set] = await makers[set]();
  const bytes = bodiesOf[set].reduce((sum, b) => sum + b.length, 0);
  log(`body set ${set}: ${bodiesOf[set].length} bodies, ${Math.round(bytes / bodiesOf[set].length / SPANS_PER_REQUEST)} bytes per span`);
}

// ---- processes ----
async function startRagmeter(topic) {
  const prof = values["cpu-prof"] === undefined ? {} : { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --cpu-prof --cpu-prof-dir=${values["cpu-prof"]}`.trim() };
  const child = spawn(command[0], command[1], {
    env: { ...process.env, ...prof, ...benchCollectorEnv({ brokers: brokers.join(","), topic }) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await untilListening(child, { what: "ragmeter's collector", timeoutMs: 30_000 });
  return {
    name: "ragmeter",
    pid: child.pid,
    url,
    stop: () =>
      new Promise((r) => {
        if (child.exitCode !== null) return r();
        const kill = setTimeout(() => {
          log(`ragmeter's collector (pid ${child.pid}) did not exit within 30 s of SIGTERM: killing it`);
          child.kill("SIGKILL");
        }, 30_000);
        child.once("exit", () => {
          clearTimeout(kill);
          r();
        });
        child.kill("SIGTERM");
      }),
  };
}

async function startGo(topic) {
  const port = await freePort();
  const r = await startOtelcol({ port, topic, brokers, log });
  return { name: "otelcol", pid: r.pid, url: r.url, stop: () => stopOtelcol({ port, log: () => {}, clean: true }) };
}

function load(url, connections, seconds, bodies) {
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

async function measure(target, clients, set) {
  resetPeakRss(target.pid);
  const rss = [];
  const sampler = setInterval(() => rss.push(rssMiB(target.pid)), 250);
  const cpu0 = cpuSeconds(target.pid);
  const r = await load(target.url, clients, duration, bodiesOf[set]);
  const cpu1 = cpuSeconds(target.pid);
  clearInterval(sampler);
  const ok = r["2xx"];
  const spans = ok * SPANS_PER_REQUEST;
  const secs = r.duration || duration;
  return {
    collector: target.name,
    bodies: set,
    clients,
    "spans/s": Math.round(spans / secs),
    "p50 ms": r.latency.p50,
    "p99 ms": r.latency.p99,
    "CPU µs/span": spans > 0 ? Number((((cpu1 - cpu0) * 1e6) / spans).toFixed(2)) : NaN,
    "RSS MiB": Math.round(median(rss)),
    "peak RSS MiB": Math.round(peakRssMiB(target.pid)),
    errors: r.non2xx + r.errors + r.timeouts,
    // HTTP statuses other than 2xx and their counts, and socket errors / timeouts (in the JSON line)
    failures: {
      ...Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).flatMap(([code, v]) => (code.startsWith("2") ? [] : [[code, v.count]]))),
      errors: r.errors,
      timeouts: r.timeouts,
    },
    accepted: ok,
  };
}

function median(xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const ratio = (a, b) => (b > 0 ? Number((a / b).toFixed(2)) : NaN);
const round2 = (x) => (Number.isFinite(x) ? Number(x.toFixed(2)) : x);

// ---- run ----
try {
  buildOtelcol(otelcolSettings(), log);
} catch (e) {
  if (e instanceof OtelcolScriptError) usage(e.message);
  throw e;
}
const kafka = await startKafka({ log });
const connection = { brokers, security: { protocol: "PLAINTEXT" } };
const admin = createAdmin(connection, "ragmeter-bench-peer");
const runId = randomUUID().slice(0, 8);
const topics = { ragmeter: `ragmeter.bench.peer.${runId}.ragmeter`, otelcol: `ragmeter.bench.peer.${runId}.otelcol` };
const started = [];
const rows = [];
let exitCode = 0;
let cleaning;
let stopping = false; // set by cleanup: start no more collector processes
/** Stops what this run started (collectors, and the broker only if it started it) and deletes its topics; once. */
function cleanup() {
  cleaning ??= (async () => {
    stopping = true;
    for (const t of started.reverse()) await t.stop().catch((e) => log(`stopping ${t.name}: ${e.message}`));
    await admin.deleteTopics({ topics: Object.values(topics) }).catch((e) => log(`deleting topics: ${e.message}`));
    await admin.close();
    if (kafka.status === "started") await stopKafka({ log });
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    log(`${signal}: stopping the collectors and deleting the topics`);
    cleanup().finally(() => process.exit(130));
  });
}
try {
  const setUp = await setUpTopics(admin, Object.values(topics), { create: true, partitions, leaderTimeoutMs: 30_000 });
  if (setUp.missing.length + setUp.leaderless.length > 0) throw new Error(`topics ${[...setUp.missing, ...setUp.leaderless].join(", ")} not ready`);
  log(`topics ${Object.values(topics).join(", ")} (${partitions} partitions each)`);
  const accepted = { ragmeter: 0, otelcol: 0 };
  // requests in flight when a run ends may still be written to Kafka without their 2xx being counted
  const cutOff = { ragmeter: 0, otelcol: 0 };
  const start = { otelcol: () => startGo(topics.otelcol), ragmeter: () => startRagmeter(topics.ragmeter) };
  const warm = async (t, clients, set) => {
    const r = await load(t.url, clients, warmup, bodiesOf[set]); // JIT, connections, metadata
    accepted[t.name] += r["2xx"];
    cutOff[t.name] += clients;
    log(`warm-up ${t.name} (${set}, ${clients} clients): ${r["2xx"]} × 2xx, ${r.non2xx + r.errors + r.timeouts} errors`);
  };
  const targets = {};
  if (keepUp) {
    for (const name of ["otelcol", "ragmeter"]) {
      targets[name] = await start[name]();
      started.push(targets[name]);
    }
    if (warmup > 0) for (const t of [targets.otelcol, targets.ragmeter]) await warm(t, 8, bodySets[0]);
  }
  for (const set of bodySets) {
    for (const clients of levels) {
      for (let round = 1; round <= rounds; round++) {
        const order = round % 2 ? ["ragmeter", "otelcol"] : ["otelcol", "ragmeter"];
        const pair = {};
        for (const name of order) {
          let t = targets[name];
          if (!keepUp) {
            // A fresh process per cell, warmed up at the cell's client count and body set: its memory
            // is that load's, not what an earlier heavier round left behind (V8 and glibc keep it, Go returns it).
            if (stopping) throw new Error("stopped");
            t = await start[name]();
            started.push(t);
            if (stopping) await t.stop();
            if (warmup > 0) await warm(t, clients, set);
          }
          pair[name] = await measure(t, clients, set);
          accepted[name] += pair[name].accepted;
          cutOff[name] += clients;
          if (!keepUp) {
            await t.stop();
            started.splice(started.indexOf(t), 1);
          }
        }
        for (const name of ["ragmeter", "otelcol"]) rows.push({ ...pair[name], round });
        for (const name of ["ragmeter", "otelcol"]) if (pair[name].errors > 0) log(`${name} failures: ${JSON.stringify(pair[name].failures)}`);
        log(
          `${set} clients=${clients} round ${round}/${rounds}: ragmeter ${pair.ragmeter["spans/s"]} spans/s ${pair.ragmeter["CPU µs/span"]} µs/span RSS ${pair.ragmeter["RSS MiB"]} MiB, ` +
            `otelcol ${pair.otelcol["spans/s"]} spans/s ${pair.otelcol["CPU µs/span"]} µs/span RSS ${pair.otelcol["RSS MiB"]} MiB → ratio ${ratio(pair.ragmeter["spans/s"], pair.otelcol["spans/s"])}`,
        );
      }
    }
  }
  // Every accepted request must have reached Kafka as one message per trace; requests cut off at the
  // end of a run may add at most one request per client.
  await new Promise((r) => setTimeout(r, 1000));
  const delivered = {};
  for (const name of ["ragmeter", "otelcol"]) {
    const offsets = await topicOffsets(admin, topics[name]);
    const messages = offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
    const expected = accepted[name] * TRACES_PER_REQUEST;
    const atMost = (accepted[name] + cutOff[name]) * TRACES_PER_REQUEST;
    const ok = messages >= expected && messages <= atMost;
    delivered[name] = { messages, expected, atMost, ok };
    log(
      `${name}: ${messages} messages on ${topics[name]} for ${accepted[name]} accepted requests (${expected}..${atMost} expected) ${ok ? "ok" : messages < expected ? "MISSING" : "TOO MANY"}`,
    );
    if (!ok) exitCode = 1;
  }
  const sample = await sampleMessage(topics.otelcol);
  log(`otelcol sample message: key ${sample.key} (${sample.keyBytes} bytes), value ${sample.valueBytes} bytes`);

  const cols = ["spans/s", "p50 ms", "p99 ms", "CPU µs/span", "RSS MiB", "errors"];
  const cells = bodySets.flatMap((set) => levels.map((clients) => ({ set, clients })));
  const perRound = [];
  for (const { set, clients } of cells) {
    for (let round = 1; round <= rounds; round++) {
      const find = (name) => rows.find((r) => r.collector === name && r.bodies === set && r.clients === clients && r.round === round);
      const a = find("ragmeter");
      const b = find("otelcol");
      perRound.push({
        bodies: set,
        clients,
        round,
        ...Object.fromEntries(
          cols.flatMap((c) => [
            [`ragmeter ${c}`, a[c]],
            [`otelcol ${c}`, b[c]],
          ]),
        ),
        "spans/s ratio": ratio(a["spans/s"], b["spans/s"]),
      });
    }
  }
  process.stdout.write("\nPer round (ragmeter / otelcol):\n");
  console.table(
    perRound.map((r) => ({
      bodies: r.bodies,
      clients: r.clients,
      round: r.round,
      ...Object.fromEntries(cols.map((c) => [c, `${r[`ragmeter ${c}`]} / ${r[`otelcol ${c}`]}`])),
      ratio: r["spans/s ratio"],
    })),
  );

  const medians = cells.map(({ set, clients }) => {
    const m = (name, c) => round2(median(rows.filter((r) => r.collector === name && r.bodies === set && r.clients === clients).map((r) => r[c])));
    const ratios = perRound.filter((r) => r.bodies === set && r.clients === clients).map((r) => r["spans/s ratio"]);
    return {
      bodies: set,
      clients,
      ...Object.fromEntries(
        cols.flatMap((c) => [
          [`ragmeter ${c}`, m("ragmeter", c)],
          [`otelcol ${c}`, m("otelcol", c)],
        ]),
      ),
      "spans/s ratio": median(ratios),
      "p99 ratio": ratio(m("ragmeter", "p99 ms"), m("otelcol", "p99 ms")),
      "CPU/span ratio": ratio(m("ragmeter", "CPU µs/span"), m("otelcol", "CPU µs/span")),
      "RSS ratio": ratio(m("ragmeter", "RSS MiB"), m("otelcol", "RSS MiB")),
    };
  });
  const md = [
    `Medians of ${rounds} alternating rounds of ${duration} s per body set and client count, ${keepUp ? "both collectors kept up for the whole run (--keep-up)" : "a fresh process of each per round, warmed up at its client count"}; --shape ${values.shape} (ratio = ragmeter / otelcol; spans/s ratio = median of per-round ratios; RSS = median VmRSS under load after warm-up)`,
    "",
    "| bodies | clients | spans/s ragmeter | spans/s otelcol | ratio | p50 ms r / o | p99 ms r / o (ratio) | CPU µs/span r / o (ratio) | RSS MiB r / o (ratio) | errors r / o |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...medians.map(
      (m) =>
        `| ${m.bodies} | ${m.clients} | ${m["ragmeter spans/s"]} | ${m["otelcol spans/s"]} | ${m["spans/s ratio"].toFixed(2)} | ${m["ragmeter p50 ms"]} / ${m["otelcol p50 ms"]} | ${m["ragmeter p99 ms"]} / ${m["otelcol p99 ms"]} (${m["p99 ratio"]}) | ${m["ragmeter CPU µs/span"]} / ${m["otelcol CPU µs/span"]} (${m["CPU/span ratio"]}) | ${m["ragmeter RSS MiB"]} / ${m["otelcol RSS MiB"]} (${m["RSS ratio"]}) | ${m["ragmeter errors"]} / ${m["otelcol errors"]} |`,
    ),
    "",
    `Kafka messages (one per trace): ragmeter ${delivered.ragmeter.messages} (${delivered.ragmeter.expected}..${delivered.ragmeter.atMost} expected), otelcol ${delivered.otelcol.messages} (${delivered.otelcol.expected}..${delivered.otelcol.atMost}).`,
  ].join("\n");
  process.stdout.write(`\n${md}\n\n`);
  process.stdout.write(
    `${JSON.stringify({ bench: "peer", via, keepUp, shape: values.shape, bodies: bodySets, spansPerRequest: SPANS_PER_REQUEST, durationSeconds: duration, rounds, rows, medians, delivered })}\n`,
  );
} catch (e) {
  exitCode = 2;
  process.stderr.write(`[peer] ${e instanceof OtelcolScriptError ? e.message : e.stack}\n`);
} finally {
  await cleanup();
}
process.exitCode = exitCode;

async function sampleMessage(topic) {
  const groupId = `ragmeter-bench-peer-${runId}`;
  let consumer;
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message on ${topic} within 15 s`)), 15_000);
      const quiet = { info() {}, warn() {}, error() {} };
      startBatchConsumer(
        connection,
        { clientId: "ragmeter-bench-peer", groupId, topics: [topic], sessionTimeoutMs: 10_000, heartbeatIntervalMs: 1_000 },
        async (batch) => {
          const m = batch.records[0];
          clearTimeout(timer);
          resolve({ key: m?.key?.toString("latin1").slice(0, 64), keyBytes: m?.key?.length ?? 0, valueBytes: m?.value?.length ?? 0 });
        },
        quiet,
      ).then((c) => {
        consumer = c;
      }, reject);
    });
  } finally {
    await consumer?.stop();
    await admin.deleteGroups({ groups: [groupId] }).catch(() => {});
  }
}
