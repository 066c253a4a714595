#!/usr/bin/env node
// Soak benchmark (issue 31, `npm run bench:soak`): ragmeter's collector → Kafka → streaming scorer
// (embedded store) under a steady production-shaped load (bench/lib/prod-traces.mjs, one OTLP
// protobuf trace per POST) for --minutes (30; CI runs 3), with, at the same time:
//   - the Kafka broker restarted every --broker-restart-every minutes (default minutes/6, at least 1:
//     every 5 minutes in 30),
//   - the scorer killed with SIGKILL at a random moment about every --scorer-kill-every minutes
//     (default minutes·7/30, at least 0.8: every ~7 minutes in 30; each gap uniform in [½, 1½]·period)
//     and started again,
//   - one store write in --fault-store-write-every (50) failing (the scorer's test-only
//     RAGMETER_FAULT_STORE_WRITE_EVERY, design §10).
// A trace refused by the collector (503 while the broker is down) is sent again after a second, as an
// OTLP exporter would, until acknowledged (200) or the load phase has ended. A scorer that exits on its
// own (it does when started while the broker is down: exit 2) is started again after a second, as
// docker-compose's `restart: unless-stopped` would; those exits are counted and listed.
// Prints acknowledged, stored and scored traces (scored: with score rows), score rows per trace ×
// metric (exactly 1 each after FINAL: no double count), the faults fired (broker restarts seen as a
// new broker pid, SIGKILLs seen as the scorer's exit signal, store write faults by table from the
// scorer's stderr), for each fault the seconds until the consumer lag was back to 0, lag and RSS of
// collector and scorer over time, and the RSS's least-squares slope (MiB/min) per process, also
// without its first minute.
// Exits 1 when an acknowledged trace is not stored or not scored, a trace × metric has ≠ 1 row, a
// scored trace has no interaction, or one kind of fault never fired.
//
//   npm run bench:soak [-- --minutes 30 --rate 10 --broker-restart-every M --scorer-kill-every M
//                          --fault-store-write-every 50 --kafka-port 19392 --seed 31 --json FILE]
//
// Runs its OWN broker (scripts/kafka with RAGMETER_KAFKA_PORT=--kafka-port, controller port + 1, its
// state in kafka-state-<port>, deleted at the end): the shared broker on 9092 is never restarted.
// Its topic, consumer group and store folder are its own too, deleted at the end. Needs Java 17+,
// Maven (the broker's jars, cached) and `npm run build`. Only 127.0.0.1 is contacted.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { committedOffsets, createAdmin, topicOffsets } from "@ragmeter/kafka";
import { kafkaSettings, kafkaStatus, startKafka, stopKafka } from "../scripts/kafka/kafka.mjs";
import { benchCollectorEnv, untilListening } from "./lib/collector-process.mjs";
import { createProdCorpus, prodTraceBytes } from "./lib/prod-traces.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "30" },
    rate: { type: "string", default: "10" },
    "broker-restart-every": { type: "string" },
    "scorer-kill-every": { type: "string" },
    "fault-store-write-every": { type: "string", default: "50" },
    "kafka-port": { type: "string", default: "19392" },
    "quiet-ms": { type: "string", default: "2000" },
    seed: { type: "string", default: "31" },
    json: { type: "string" },
  },
});
function usage(msg) {
  process.stderr.write(`bench:soak: ${msg}\n`);
  process.exit(2);
}
const num = (name, ok) => {
  const v = Number(values[name]);
  if (!ok(v)) usage(`--${name}: ${values[name]} is out of range`);
  return v;
};
const MINUTES = num("minutes", (v) => v > 0 && v <= 24 * 60);
const RATE = num("rate", (v) => v > 0 && v <= 1000);
const BROKER_EVERY = values["broker-restart-every"] === undefined ? Math.max(1, MINUTES / 6) : num("broker-restart-every", (v) => v > 0);
const KILL_EVERY = values["scorer-kill-every"] === undefined ? Math.max(0.8, (MINUTES * 7) / 30) : num("scorer-kill-every", (v) => v > 0);
const FAULT_EVERY = num("fault-store-write-every", (v) => Number.isInteger(v) && v >= 2);
const KAFKA_PORT = num("kafka-port", (v) => Number.isInteger(v) && v > 0 && v < 65535);
const QUIET_MS = num("quiet-ms", (v) => Number.isInteger(v) && v >= 0);
const SEED = num("seed", (v) => Number.isInteger(v));
if (!existsSync(join(root, "collector", "dist", "main.js"))) usage("collector/dist/main.js is missing: run `npm run build` first");

// Minutes are counted from the start of the load (the broker's first start and the processes' come before).
let t0 = Date.now();
const at = () => (Date.now() - t0) / 60_000;
const stamp = () => `${at().toFixed(2).padStart(6)} min`;
const log = (msg) => process.stderr.write(`[soak ${stamp()}] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- seeded randomness for the kill moments (mulberry32) ----
let rs = SEED >>> 0;
const rand = () => {
  rs = (rs + 0x6d2b79f5) >>> 0;
  let t = rs;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

// ---- own broker, topic, group, store ----
const run = randomUUID().slice(0, 8);
const topic = `ragmeter.soak.${run}`;
const group = `ragmeter-soak-${run}`;
const kafkaEnv = {
  ...process.env,
  RAGMETER_KAFKA_PORT: String(KAFKA_PORT),
  RAGMETER_KAFKA_CONTROLLER_PORT: String(KAFKA_PORT + 1),
  RAGMETER_KAFKA_HEAP: process.env.RAGMETER_KAFKA_HEAP ?? "512m",
  RAGMETER_TOPIC: topic,
  RAGMETER_KAFKA_TOPIC_PARTITIONS: "3",
};
const kafkaState = kafkaSettings(kafkaEnv).stateDir;
const brokers = `127.0.0.1:${KAFKA_PORT}`;
const home = mkdtempSync(join(tmpdir(), "ragmeter-soak-"));
const kafkaLog = (m) => log(`kafka: ${m}`);

// ---- processes ----
/** RSS (VmRSS) of pid and its descendants, MiB; null when it is gone. */
function rssMiB(pid) {
  if (pid === undefined) return null;
  const kids = new Map();
  try {
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const s = readFileSync(`/proc/${name}/stat`, "utf8");
        const ppid = Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[1]);
        kids.set(ppid, [...(kids.get(ppid) ?? []), Number(name)]);
      } catch {
        /* exited */
      }
    }
  } catch {
    return null;
  }
  const all = [pid];
  for (let i = 0; i < all.length && i < 1000; i++) all.push(...(kids.get(all[i]) ?? []));
  let kb = 0;
  for (const p of all) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {
      /* exited */
    }
  }
  return kb > 0 ? kb / 1024 : null;
}
function startCollector() {
  const child = spawn(join(root, "collector", "bin", "ragmeter-collector.js"), [], {
    env: { ...process.env, ...benchCollectorEnv({ brokers, topic }) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return untilListening(child, { timeoutMs: 60_000 }).then((url) => ({ child, url }));
}

const scorerLog = join(home, "scorer.log");
// What the scorers' stderr says, over all of them: each injected store write fault is one line
// naming its table (the CLI logs it); the retries it caused are the scorer's own warnings.
const scorerSaid = { storeFaults: new Map(), spanWriteRetries: 0, scoringPassFailures: 0 };
const countLine = (line) => {
  const f = /injected store write fault: write \d+ \(([^)]+)\) failed/.exec(line);
  if (f && !line.startsWith("{")) scorerSaid.storeFaults.set(f[1], (scorerSaid.storeFaults.get(f[1]) ?? 0) + 1);
  else if (line.includes('"msg":"span write failed; retrying before committing"')) scorerSaid.spanWriteRetries++;
  else if (line.includes('"msg":"scoring pass failed; will retry"')) scorerSaid.scoringPassFailures++;
};
function startScorer() {
  const out = [];
  let partial = "";
  const child = spawn(process.execPath, [join(root, "scorer", "bin", "ragmeter.js"), "scorer", "--home", home], {
    env: {
      ...process.env,
      KAFKA_BROKERS: brokers,
      RAGMETER_TOPIC: topic,
      RAGMETER_SCORER_GROUP: group,
      RAGMETER_QUIET_MS: String(QUIET_MS),
      RAGMETER_KAFKA_SESSION_TIMEOUT_MS: "6000",
      RAGMETER_FAULT_STORE_WRITE_EVERY: String(FAULT_EVERY),
      OPENAI_BASE_URL: "",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr.on("data", (d) => {
    out.push(d);
    if (out.length > 200) out.shift();
    const lines = (partial + d.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const l of lines) {
      countLine(l);
      if (l.startsWith("ragmeter:")) lastError = l;
    }
  });
  let lastError = null;
  child.once("exit", (code, signal) => {
    try {
      writeFileSync(scorerLog, Buffer.concat(out), { flag: "a" });
    } catch {
      /* home already removed */
    }
    // Not killed by the soak: it exited on its own (e.g. started while the broker was down). As a
    // supervisor would (docker-compose's restart: unless-stopped), start it again after a second.
    if (child.killedBySoak || stopping) return;
    selfExits.push({ atMin: Number(at().toFixed(2)), code, signal, error: lastError });
    log(`the scorer (pid ${child.pid}) exited on its own (${signal ?? `code ${code}`}): ${lastError ?? "no error line"}; starting it again in 1 s`);
    setTimeout(() => {
      if (stopping || scorer !== child) return;
      scorer = startScorer();
      scorerStarts.push({ atMin: at(), pid: scorer.pid });
      log(`scorer started again (pid ${scorer.pid})`);
    }, 1000);
  });
  return child;
}
const running = (child) => child.exitCode === null && child.signalCode === null;
let stopping = false;
const selfExits = []; // scorer exits the soak did not cause
const scorerStarts = []; // {atMin, pid}: the RSS slope is per scorer process too
const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r)));

// ---- lag ----
let admin = createAdmin({ brokers: [brokers], security: { protocol: "PLAINTEXT" } }, "ragmeter-soak", { connectTimeoutMs: 2000, requestTimeoutMs: 3000, retries: 0 });
/** Messages behind the high watermark (summed over partitions); null while the broker does not answer. */
async function lag() {
  try {
    const [high, done] = await Promise.all([topicOffsets(admin, topic), committedOffsets(admin, group, topic)]);
    return Number(high.reduce((s, p) => s + (p.high - (done.get(p.partition) ?? 0n)), 0n));
  } catch {
    await admin.close().catch(() => {});
    admin = createAdmin({ brokers: [brokers], security: { protocol: "PLAINTEXT" } }, "ragmeter-soak", { connectTimeoutMs: 2000, requestTimeoutMs: 3000, retries: 0 });
    return null;
  }
}

// ---- run ----
const failures = [];
let collector;
let scorer;
const acked = new Set();
const counts = { sent: 0, posts: 0, refused: 0, errors: 0, gaveUp: 0 };
const samples = []; // {min, lag, collectorMiB, scorerMiB}
const faults = []; // {kind, min, endMin?, backToZeroMin?}
let loadDone = false;

log(
  `${MINUTES} min at ${RATE} traces/s; broker restart every ${BROKER_EVERY.toFixed(2)} min, scorer SIGKILL about every ${KILL_EVERY.toFixed(2)} min, one store write in ${FAULT_EVERY} failing; broker 127.0.0.1:${KAFKA_PORT}, topic ${topic}, group ${group}, store ${home}`,
);
try {
  await startKafka({ env: kafkaEnv, log: kafkaLog, timeoutMs: 180_000 });
  collector = await startCollector();
  scorer = startScorer();
  scorerStarts.push({ atMin: 0, pid: scorer.pid });
  log(`collector ${collector.url} (pid ${collector.child.pid}), scorer pid ${scorer.pid}`);
  const corpus = createProdCorpus({ seed: SEED });
  t0 = Date.now();

  // Sampler: lag and RSS every second (lag null while the broker is down).
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const started = Date.now();
      const l = await lag();
      const s = { min: at(), lag: l, collectorMiB: rssMiB(collector.child.pid), scorerMiB: running(scorer) ? rssMiB(scorer.pid) : null, scorerPid: scorer.pid };
      samples.push(s);
      // A fault's lag is back to 0 at the first sample with lag 0 after one showing it (lag > 0, or no
      // answer while the broker is down) once the fault is over.
      for (const f of faults) {
        if (f.backToZeroMin !== undefined) continue;
        if (l !== 0) f.sawLag = true;
        else if (f.sawLag && f.endMin !== undefined && s.min >= f.endMin) f.backToZeroMin = s.min;
      }
      await sleep(Math.max(0, 1000 - (Date.now() - started)));
    }
  })();

  // Load: RATE traces/s, each POSTed until acknowledged (200) or the load phase ends.
  const send = async (i) => {
    const { key, value } = prodTraceBytes(corpus, i);
    counts.sent++;
    while (!loadDone) {
      counts.posts++;
      try {
        const r = await fetch(`${collector.url}/v1/traces`, {
          method: "POST",
          headers: { "content-type": "application/x-protobuf" },
          body: value,
          signal: AbortSignal.timeout(30_000),
        });
        await r.arrayBuffer();
        if (r.status === 200) {
          acked.add(key);
          return;
        }
        counts.refused++;
      } catch {
        counts.errors++;
      }
      await sleep(1000);
    }
    counts.gaveUp++;
  };
  const inflight = new Set();
  const loadEnd = t0 + MINUTES * 60_000;
  const loader = (async () => {
    let i = 0;
    const start = Date.now();
    while (Date.now() < loadEnd) {
      const due = Math.floor(((Date.now() - start) / 1000) * RATE);
      while (i < due) {
        const p = send(i++);
        inflight.add(p);
        p.finally(() => inflight.delete(p));
      }
      await sleep(Math.max(5, 1000 / RATE));
    }
    loadDone = true;
    await Promise.all(inflight);
  })();

  // Faults: broker restarts and scorer kills on their own schedules.
  const brokerFaults = (async () => {
    for (let k = 1; t0 + k * BROKER_EVERY * 60_000 < loadEnd; k++) {
      await sleep(t0 + k * BROKER_EVERY * 60_000 - Date.now());
      const before = (await kafkaStatus({ env: kafkaEnv })).pid;
      const f = { kind: "broker restart", min: at(), pid: before };
      faults.push(f);
      log("restarting the broker");
      await stopKafka({ env: kafkaEnv, log: kafkaLog });
      await startKafka({ env: kafkaEnv, log: kafkaLog, timeoutMs: 180_000 });
      f.newPid = (await kafkaStatus({ env: kafkaEnv })).pid;
      f.killed = before !== undefined && f.newPid !== undefined && f.newPid !== before;
      f.endMin = at();
      log(`broker back after ${((f.endMin - f.min) * 60).toFixed(1)} s`);
    }
  })();
  const killFaults = (async () => {
    let next = t0 + KILL_EVERY * 60_000 * (0.5 + rand());
    while (next < loadEnd) {
      await sleep(next - Date.now());
      // A scorer that exited on its own is being started again: the kill waits for it.
      while (!running(scorer)) await sleep(100);
      const f = { kind: "scorer SIGKILL", min: at(), pid: scorer.pid };
      faults.push(f);
      log(`SIGKILL scorer pid ${scorer.pid}`);
      const victim = scorer;
      victim.killedBySoak = true;
      victim.kill("SIGKILL");
      await exited(victim);
      f.killed = victim.signalCode === "SIGKILL";
      scorer = startScorer();
      scorerStarts.push({ atMin: at(), pid: scorer.pid });
      f.endMin = at();
      log(`scorer started again (pid ${scorer.pid})`);
      next += KILL_EVERY * 60_000 * (0.5 + rand());
    }
  })();

  await Promise.all([loader, brokerFaults, killFaults]);
  log(`load done: ${counts.sent} traces sent, ${acked.size} acknowledged; waiting for the lag to reach 0`);
  const drainDeadline = Date.now() + 5 * 60_000;
  for (;;) {
    const l = samples.at(-1)?.lag;
    if (l === 0 && samples.at(-1).min * 60_000 > Date.now() - t0 - 1500) break;
    if (Date.now() > drainDeadline) {
      failures.push(`the consumer lag did not reach 0 within 5 min of the load's end (last ${l})`);
      break;
    }
    await sleep(1000);
  }
  // The quiet window, then a full scan (every 30 s, and at start) scores what a killed scorer left.
  await sleep(QUIET_MS + 35_000);
  sampling = false;
  await sampler;
  stopping = true;
  scorer.kill("SIGTERM");
  await exited(scorer);
  collector.child.kill("SIGTERM");
  await exited(collector.child);
} catch (err) {
  failures.push(`run failed: ${err.stack ?? err}`);
  stopping = true;
  scorer?.kill("SIGKILL");
  collector?.child.kill("SIGKILL");
  if (scorer) await exited(scorer);
  if (collector) await exited(collector.child);
}

// ---- what was stored and scored ----
const { openStore } = await import("../store/dist/client.js");
const report = {
  minutes: MINUTES,
  rate: RATE,
  brokerRestartEvery: BROKER_EVERY,
  scorerKillEvery: KILL_EVERY,
  faultStoreWriteEvery: FAULT_EVERY,
  loadavg: loadavg(),
  counts: { ...counts, acknowledged: acked.size },
};
try {
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  try {
    const q = async (query) => (await store.client.query({ query: query.replaceAll("DB.", "ragmeter."), format: "JSONEachRow" })).json();
    const stored = new Set((await q("SELECT DISTINCT trace_id FROM DB.spans FINAL")).map((r) => r.trace_id));
    // Scored: the trace has score rows (its interaction, written before them, alone is not enough).
    const scored = new Set((await q("SELECT DISTINCT trace_id FROM DB.scores FINAL")).map((r) => r.trace_id));
    const interacted = new Set((await q("SELECT DISTINCT trace_id FROM DB.interactions FINAL")).map((r) => r.trace_id));
    const lost = [...acked].filter((t) => !stored.has(t));
    const unscored = [...acked].filter((t) => stored.has(t) && !scored.has(t));
    const noInteraction = [...scored].filter((t) => !interacted.has(t));
    const [perMetric] = await q(
      "SELECT count() AS pairs, countIf(c = 1) AS one, countIf(c > 1) AS more, max(c) AS max FROM (SELECT trace_id, metric, count() AS c FROM DB.scores FINAL GROUP BY trace_id, metric)",
    );
    const [raw] = await q("SELECT count() AS pairs, countIf(c > 1) AS more FROM (SELECT trace_id, metric, count() AS c FROM DB.scores GROUP BY trace_id, metric)");
    const [interactionRows] = await q("SELECT count() AS n, uniqExact(trace_id) AS traces FROM DB.interactions FINAL");
    report.traces = {
      acknowledged: acked.size,
      stored: stored.size,
      scored: scored.size,
      lost: lost.length,
      unscored: unscored.length,
      notAcknowledgedButStored: [...stored].filter((t) => !acked.has(t)).length,
    };
    report.scoreRows = {
      traceMetricPairs: Number(perMetric.pairs),
      exactlyOne: Number(perMetric.one),
      moreThanOne: Number(perMetric.more),
      max: Number(perMetric.max),
      rawPairsWithRewrites: Number(raw.more),
      interactionRows: Number(interactionRows.n),
    };
    if (lost.length > 0) failures.push(`${lost.length} acknowledged traces not stored (e.g. ${lost.slice(0, 3).join(", ")})`);
    if (unscored.length > 0) failures.push(`${unscored.length} acknowledged traces stored but not scored (e.g. ${unscored.slice(0, 3).join(", ")})`);
    if (noInteraction.length > 0) failures.push(`${noInteraction.length} traces have score rows but no interaction`);
    if (Number(perMetric.more) > 0) failures.push(`${perMetric.more} trace × metric pairs have more than one score row (max ${perMetric.max})`);
    if (Number(interactionRows.n) !== Number(interactionRows.traces)) failures.push(`interactions: ${interactionRows.n} rows for ${interactionRows.traces} traces`);
    if (acked.size === 0) failures.push("no trace was acknowledged");
  } finally {
    await store.close();
  }
} catch (err) {
  failures.push(`reading the store failed: ${err.stack ?? err}`);
}

// ---- figures ----
const finite = (xs) => xs.filter((x) => x !== null && Number.isFinite(x));
/** Least-squares slope of v over min. */
function leastSquares(pts) {
  const n = pts.length;
  const mx = pts.reduce((a, p) => a + p.min, 0) / n;
  const my = pts.reduce((a, p) => a + p.v, 0) / n;
  const sxy = pts.reduce((a, p) => a + (p.min - mx) * (p.v - my), 0);
  const sxx = pts.reduce((a, p) => a + (p.min - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}
/** Slope over a process's samples, and over those after its first minute (its warm-up: engine, JIT, caches). */
function slope(pts) {
  if (pts.length < 30) return null;
  const v = pts.map((p) => p.v);
  const warm = pts.filter((p) => p.min >= pts[0].min + 1);
  return {
    samples: pts.length,
    slopeMiBPerMin: Number(leastSquares(pts).toFixed(2)),
    afterFirstMinute: warm.length >= 30 ? Number(leastSquares(warm).toFixed(2)) : null,
    first: Math.round(v[0]),
    last: Math.round(v.at(-1)),
    max: Math.round(Math.max(...v)),
  };
}
const rssOf = (key, pred = () => true) => samples.filter((s) => s[key] !== null && pred(s)).map((s) => ({ min: s.min, v: s[key] }));
// The scorer's RSS starts again with each process: its slope is per process (those sampled ≥ 30 s).
report.rss = [
  { process: "collector (whole run)", ...slope(rssOf("collectorMiB")) },
  ...scorerStarts
    .map((st) => ({ process: `scorer pid ${st.pid} from ${st.atMin.toFixed(2)} min`, ...slope(rssOf("scorerMiB", (s) => s.scorerPid === st.pid)) }))
    .filter((r) => r.samples !== undefined),
];
report.faults = faults.map((f) => ({
  kind: f.kind,
  real: f.killed === true,
  pid: f.newPid === undefined ? f.pid : `${f.pid} → ${f.newPid}`,
  atMin: Number(f.min.toFixed(2)),
  downS: f.endMin === undefined ? null : Number(((f.endMin - f.min) * 60).toFixed(1)),
  lagBackTo0S: f.backToZeroMin === undefined ? null : Number(((f.backToZeroMin - f.min) * 60).toFixed(1)),
}));
const step = Math.max(1, Math.round(samples.length / 30));
report.overTime = samples
  .filter((_, i) => i % step === 0 || i === samples.length - 1)
  .map((s) => ({
    min: Number(s.min.toFixed(2)),
    lag: s.lag,
    collectorMiB: s.collectorMiB === null ? null : Math.round(s.collectorMiB),
    scorerMiB: s.scorerMiB === null ? null : Math.round(s.scorerMiB),
  }));
report.maxLag = Math.max(0, ...finite(samples.map((s) => s.lag)));
const storeFaults = Object.fromEntries([...scorerSaid.storeFaults].sort((a, b) => b[1] - a[1]));
const storeFaultsFired = [...scorerSaid.storeFaults.values()].reduce((a, b) => a + b, 0);
report.faultsFired = {
  brokerRestarts: faults.filter((f) => f.kind === "broker restart" && f.killed).length,
  scorerSigkills: faults.filter((f) => f.kind === "scorer SIGKILL" && f.killed).length,
  storeWriteFaults: storeFaultsFired,
  storeWriteFaultsByTable: storeFaults,
  spanWriteRetriesLogged: scorerSaid.spanWriteRetries,
  scoringPassFailuresLogged: scorerSaid.scoringPassFailures,
  scorerExitsOnItsOwn: selfExits.length,
};
report.scorerExitsOnItsOwn = selfExits;
const recovered = report.faults.filter((f) => f.lagBackTo0S !== null && f.lagBackTo0S <= 60).length;
report.lagRecovery = { faults: report.faults.length, backTo0Within60s: recovered, worstS: Math.max(0, ...finite(report.faults.map((f) => f.lagBackTo0S))) };
// A fault that never fired is a defect of the soak.
if (report.faultsFired.brokerRestarts === 0) failures.push("no broker restart happened");
if (report.faultsFired.scorerSigkills === 0) failures.push("no scorer was killed");
if (storeFaultsFired === 0) failures.push("no store write fault fired");
report.failures = failures;

console.log(`bench:soak — ${MINUTES} min at ${RATE} traces/s, load average ${report.loadavg.map((x) => x.toFixed(2)).join(" ")}`);
console.log("\nTraces");
console.table([{ ...report.counts, ...(report.traces ?? {}) }]);
if (report.scoreRows) {
  console.log("Score rows per trace × metric (FINAL; rawPairsWithRewrites: pairs written more than once before merging)");
  console.table([report.scoreRows]);
}
console.log("Faults (lagBackTo0S: from the fault to the first sample with lag 0 after it was over; null: not before the next)");
console.table(report.faults);
console.log(
  `Faults fired: ${report.faultsFired.brokerRestarts} broker restarts (new broker process), ${report.faultsFired.scorerSigkills} scorer SIGKILLs, ${storeFaultsFired} store write faults (${
    Object.entries(storeFaults)
      .map(([t, n]) => `${t} ${n}`)
      .join(", ") || "none"
  }); the scorer logged ${scorerSaid.spanWriteRetries} span write retries and ${scorerSaid.scoringPassFailures} failed scoring passes; it exited on its own ${selfExits.length} times (restarted after 1 s)`,
);
if (selfExits.length > 0) console.table(selfExits);
console.log(`Lag back to 0 within 60 s of the fault: ${recovered} of ${report.faults.length} faults (worst ${report.lagRecovery.worstS} s)`);
console.log("Lag and RSS over time (MiB, process trees)");
console.table(report.overTime);
console.log("RSS slope (least squares over the 1 s samples, MiB/min; afterFirstMinute: without the process's first minute)");
console.table(report.rss);
if (values.json) writeFileSync(values.json, `${JSON.stringify({ ...report, samples }, null, 2)}\n`);

// ---- clean up: own broker (stopped, its state deleted), store folder ----
await admin.close().catch(() => {});
await stopKafka({ env: kafkaEnv, log: kafkaLog }).catch((e) => log(`stopping the broker: ${e.message}`));
rmSync(kafkaState, { recursive: true, force: true });
if (failures.length > 0) {
  try {
    process.stderr.write(`scorer log tail:\n${readFileSync(scorerLog, "utf8").split("\n").slice(-20).join("\n")}\n`);
  } catch {
    /* none */
  }
}
rmSync(home, { recursive: true, force: true });
if (failures.length > 0) {
  console.log(`\nFAILED:\n- ${failures.join("\n- ")}`);
  process.exitCode = 1;
} else console.log("\nOK: every acknowledged trace stored and scored once; one score row per trace × metric");
