#!/usr/bin/env node
// Several scorers, one store (`npm run bench:scale`, issue 38): production-shaped traces
// (bench/lib/prod-traces.mjs) on a topic of 6 partitions, consumed by 1, then 2 (`--scorers 1,2`)
// `ragmeter scorer` processes in one consumer group, all writing one store over HTTP through the test
// front (scripts/clickhouse-front: the embedded engine in a process of its own, in the place of a
// ClickHouse server). For each count: the scorers start on the empty topic and join the group, then
// the topic is filled as fast as a producer can (a child process), and the run ends when the store
// holds N interactions (polled every 250 ms through the front, FINAL). Reported: traces/s (N ÷ time
// from the first record produced to the last trace scored), CPU per trace of the scorers and of the
// front (from /proc, their process trees), the load average, and the ratio of the counts' traces/s;
// then the store is checked: N interactions, one score row per trace × metric.
// Usage: node bench/scale.mjs [--traces 6000] [--scorers 1,2] [--rounds 1] [--partitions 6] [--sessions 4] [--quiet-ms 500] [--logs DIR]
// (--logs: each scorer's and the front's output kept in DIR; a run with no trace scored for 120 s stops.)
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createAdmin, setUpTopics } from "@ragmeter/kafka";
import { startKafka, stopKafka } from "../scripts/kafka/kafka.mjs";
import { openStore } from "../store/dist/client.js";
import { cpuSeconds } from "./lib/proc.mjs";

const { values: args } = parseArgs({
  options: {
    traces: { type: "string", default: "6000" },
    scorers: { type: "string", default: "1,2" },
    rounds: { type: "string", default: "1" },
    partitions: { type: "string", default: "6" },
    sessions: { type: "string", default: "4" },
    "quiet-ms": { type: "string", default: "500" },
    logs: { type: "string" },
  },
});
const N = Number(args.traces);
const COUNTS = args.scorers.split(",").map(Number);
const ROUNDS = Number(args.rounds);
const PARTITIONS = Number(args.partitions);
const QUIET_MS = Number(args["quiet-ms"]);
const BROKER = process.env.KAFKA_BROKERS ?? "127.0.0.1:9092";
const connection = { brokers: BROKER.split(","), security: { protocol: "PLAINTEXT" } };
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Spawns a node process; resolves once a line of its output matches `ready`. */
function startUntil(argv, env, ready, logFile = null, timeoutMs = 60_000) {
  const child = spawn(process.execPath, argv, { env, stdio: ["ignore", "pipe", "pipe"] });
  if (logFile !== null) {
    const log = createWriteStream(logFile);
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
  }
  let out = "";
  const errors = { count: 0, first: null };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in ${timeoutMs} ms: ${argv.join(" ")}\n${out.slice(-2000)}`)), timeoutMs);
    const onData = (d) => {
      out += String(d);
      for (const l of String(d).split("\n")) {
        if (!l.includes('"level":"error"')) continue;
        errors.count++;
        errors.first ??= l.slice(0, 300);
      }
      if (out.length > 1_000_000) out = out.slice(-100_000);
      const line = out.split("\n").find((l) => ready.test(l));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve({ child, line, errors });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before ready: ${argv.join(" ")}\n${out.slice(-2000)}`));
    });
  });
}

const stop = async (child) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
};

/** Fills `topic` from a child process (bench/lib/scorer-prefill.mjs); resolves to its seconds and spans. */
function fill(topic) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "bench/lib/scorer-prefill.mjs"), topic, String(N), "prod", String(PARTITIONS)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += String(d);
    });
    child.on("exit", (code) => {
      const [seconds, spans] = out.trim().split(" ").map(Number);
      return code === 0 ? resolve({ seconds, spans }) : reject(new Error(`prefill exited with ${code}`));
    });
  });
}

let runNo = 0;
async function one(scorers) {
  runNo++;
  const logFile = (name) => (args.logs === undefined ? null : path.join(args.logs, `run${runNo}-${scorers}-${name}.log`));
  if (args.logs !== undefined) mkdirSync(args.logs, { recursive: true });
  const dir = mkdtempSync(path.join(tmpdir(), "ragmeter-bench-scale-"));
  const topic = `ragmeter.bench.scale.${randomUUID()}`;
  const group = `bench-scale-${randomUUID()}`;
  const admin = createAdmin(connection, "bench-scale");
  await setUpTopics(admin, [topic], { create: true, partitions: PARTITIONS, leaderTimeoutMs: 30_000 });
  const front = await startUntil(
    [path.join(root, "scripts/clickhouse-front/front.mjs"), "--path", path.join(dir, "store"), "--sessions", args.sessions, "--quiet"],
    process.env,
    /listening/,
  );
  const url = /listening (http:\/\/\S+)/.exec(front.line)[1];
  // Migrated once before the scorers start (as an operator's first start would), and the reader of the counts.
  const store = await openStore({ kind: "server", url, database: "ragmeter" });
  const procs = [];
  const logged = [];
  try {
    for (let i = 0; i < scorers; i++) {
      const env = {
        ...process.env,
        CLICKHOUSE_URL: url,
        RAGMETER_HOME: path.join(dir, `home-${i}`),
        KAFKA_BROKERS: BROKER,
        RAGMETER_TOPIC: topic,
        RAGMETER_SCORER_GROUP: group,
        RAGMETER_QUIET_MS: String(QUIET_MS),
        OPENAI_BASE_URL: "",
      };
      const started = await startUntil([path.join(root, "scorer/bin/ragmeter.js"), "scorer"], env, /scorer running/, logFile(`scorer-${i}`));
      procs.push(started.child);
      logged.push(started.errors);
    }
    for (;;) {
      const g = (await admin.describeGroups({ groups: [group] })).get(group);
      if (String(g?.state).toUpperCase() === "STABLE" && g.members.size === scorers) break;
      await sleep(200);
    }
    const pids = [...procs.map((p) => p.pid)];
    const cpu0 = pids.map((p) => cpuSeconds(p));
    const frontCpu0 = cpuSeconds(front.child.pid);
    const load0 = loadavg()[0];
    const t0 = performance.now();
    const filled = fill(topic);
    let t1 = null;
    const count = async () => Number((await (await store.client.query({ query: "SELECT count() AS c FROM ragmeter.interactions FINAL", format: "JSONEachRow" })).json())[0].c);
    let last = -1;
    let progressAt = Date.now();
    while (Date.now() - progressAt < 120_000) {
      const c = await count();
      if (c >= N) {
        t1 = performance.now();
        break;
      }
      if (c !== last) progressAt = Date.now();
      last = c;
      await sleep(250);
    }
    const { seconds: fillSeconds } = await filled;
    const seconds = ((t1 ?? performance.now()) - t0) / 1000;
    const scorerCpu = pids.reduce((s, p, i) => s + cpuSeconds(p) - cpu0[i], 0);
    const frontCpu = cpuSeconds(front.child.pid) - frontCpu0;
    const load1 = loadavg()[0];
    const rs = await store.client.query({
      query:
        "SELECT (SELECT count() FROM ragmeter.interactions FINAL) AS interactions, (SELECT count() FROM (SELECT trace_id, metric FROM ragmeter.scores FINAL GROUP BY trace_id, metric HAVING count() != 1)) AS doubles",
      format: "JSONEachRow",
    });
    const check = (await rs.json())[0];
    return {
      scorers,
      seconds,
      fillSeconds,
      tracesPerSecond: t1 === null ? null : N / seconds,
      scorerCpuMsPerTrace: (scorerCpu * 1000) / N,
      frontCpuMsPerTrace: (frontCpu * 1000) / N,
      cpuUse: (scorerCpu + frontCpu) / seconds,
      load: [load0, load1],
      interactions: Number(check.interactions),
      doubles: Number(check.doubles),
      scorerErrors: logged.reduce((n, e) => n + e.count, 0),
      firstError: logged.find((e) => e.first !== null)?.first ?? null,
    };
  } finally {
    for (const p of procs) await stop(p);
    await store.close();
    await stop(front.child);
    const existing = new Set(await admin.listTopics());
    const mine = [topic, `${topic}.dlq`].filter((t) => existing.has(t));
    if (mine.length > 0) await admin.deleteTopics({ topics: mine });
    await admin.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const kafka = await startKafka({ log: () => {} });
try {
  const results = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternating the order by round, so neither count always runs first on a warming machine.
    const order = r % 2 === 0 ? COUNTS : [...COUNTS].reverse();
    for (const k of order) {
      const res = await one(k);
      results.push(res);
      const f = (x, d = 1) => (x === null ? "—" : x.toFixed(d));
      console.log(
        `round ${r + 1}, ${k} scorer${k === 1 ? "" : "s"}: ${f(res.tracesPerSecond)} traces/s (${N} in ${f(res.seconds)} s; filled in ${f(res.fillSeconds)} s), CPU per trace: scorers ${f(res.scorerCpuMsPerTrace, 2)} ms, front ${f(res.frontCpuMsPerTrace, 2)} ms; cores busy ${f(res.cpuUse, 2)} of ${availableParallelism()}; load average ${f(res.load[0], 2)} → ${f(res.load[1], 2)}; stored ${res.interactions}/${N}, double counts ${res.doubles}; errors logged by the scorers ${res.scorerErrors}`,
      );
      if (res.firstError !== null) console.log(`  first: ${res.firstError}`);
    }
  }
  const median = (xs) => {
    const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
    return s.length === 0 ? null : s[Math.floor((s.length - 1) / 2)];
  };
  const by = (k) => median(results.filter((r) => r.scorers === k).map((r) => r.tracesPerSecond));
  const base = by(COUNTS[0]);
  for (const k of COUNTS.slice(1)) {
    const v = by(k);
    console.log(`${k} scorers ÷ ${COUNTS[0]}: ${base && v ? (v / base).toFixed(2) : "—"}× traces/s (medians over ${ROUNDS} round${ROUNDS === 1 ? "" : "s"})`);
  }
  if (results.some((r) => r.interactions !== N || r.doubles !== 0)) process.exitCode = 1;
} finally {
  if (kafka.status === "started") await stopKafka({ log: () => {} });
}
