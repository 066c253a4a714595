#!/usr/bin/env node
// ragmeter serve against Arize Phoenix (issue 31): both receive the same production-shaped
// OpenInference RAG traces (bench/lib/prod-traces.mjs: retrieval of 5–10 chunks of 500–2,000
// characters from a Zipf-reused corpus, answers of 300–1,000 characters; one OTLP/HTTP protobuf
// request per trace), alternating which goes first, --rounds rounds at each client count. Each cell
// starts a fresh server on a fresh folder, sends every trace with C closed-loop clients (a 429/503 is
// retried as the OpenTelemetry exporters do: after Retry-After, else 0.5 s doubling to 8 s), then
// waits until the server holds everything: ragmeter until /api/live counts every trace scored,
// Phoenix until its SQLite database holds every span. Per cell it prints accepted spans/s while
// sending, stored (and for ragmeter scored) traces/s from the first request to the last one held,
// CPU ms per span (utime + stime of the server's process tree), peak RSS (VmHWM), for ragmeter the
// bytes its store holds per trace (active parts, compressed, read once the server stopped), and the requests
// refused with and without Retry-After; then medians and ratios ragmeter / Phoenix.
//
//   npm run bench:phoenix [-- --traces 5000 --clients 4,16 --rounds 3 --quiet-ms 500]
//   --profile DIR: ragmeter serve runs with --cpu-prof into DIR (its main thread's JavaScript), and the
//   cell prints the server's CPU seconds by thread name (the engine's pools, V8's helpers, main).
//
// Phoenix is installed once from PyPI (arize-phoenix, --phoenix-version) into a virtual environment
// in ~/.cache/ragmeter/phoenix-<version>/ (python3 -m venv + pip; no root). Only 127.0.0.1 is contacted.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "./lib/net.mjs";
import { cpuSeconds, peakRssMiB, threadSampler } from "./lib/proc.mjs";
import { createProdCorpus, prodTraceBytes } from "./lib/prod-traces.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    traces: { type: "string", default: "5000" },
    clients: { type: "string", default: "4,16" },
    rounds: { type: "string", default: "3" },
    "quiet-ms": { type: "string", default: "500" },
    "phoenix-version": { type: "string", default: "20.26.1" },
    "drain-timeout": { type: "string", default: "600" },
    only: { type: "string" },
    profile: { type: "string" },
  },
});
const traces = Number(values.traces);
const rounds = Number(values.rounds);
const levels = values.clients.split(",").map(Number);
const drainTimeoutS = Number(values["drain-timeout"]);
const usage = (msg) => {
  process.stderr.write(`bench:phoenix: ${msg}\n`);
  process.exit(2);
};
if (!(Number.isInteger(traces) && traces >= 1)) usage(`--traces must be a positive integer, got ${values.traces}`);
if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= 50)) usage(`--rounds must be an integer 1..50, got ${values.rounds}`);
if (!levels.every((c) => Number.isInteger(c) && c >= 1 && c <= 256)) usage(`--clients must be a list like 4,16, got ${values.clients}`);
if (!/^\d+$/u.test(values["quiet-ms"])) usage(`--quiet-ms must be milliseconds, got ${values["quiet-ms"]}`);
if (values.only !== undefined && !["ragmeter", "phoenix"].includes(values.only)) usage(`--only must be ragmeter or phoenix, got ${values.only}`);
const log = (msg) => process.stderr.write(`[phoenix-bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- the bodies: OpenInference only (Phoenix's convention), every trace a RAG one ----
const t0 = performance.now();
const corpus = createProdCorpus({ openInferenceShare: 1, nonRagShare: 0 });
const bodies = [];
let spansTotal = 0;
let bytesTotal = 0;
for (let i = 0; i < traces; i++) {
  const { value, trace } = prodTraceBytes(corpus, i);
  bodies.push({ body: value, spans: trace.spans.length });
  spansTotal += trace.spans.length;
  bytesTotal += value.length;
}
log(`${traces} traces, ${spansTotal} spans, ${(bytesTotal / traces / 1024).toFixed(1)} KiB per request, built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

async function waitHttp(url, timeoutMs, child) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode}) before answering`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await r.arrayBuffer();
      if (r.status < 500) return;
    } catch {
      /* not up yet */
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

// ---- Phoenix from PyPI into the user cache ----
const phoenixDir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "ragmeter", `phoenix-${values["phoenix-version"]}`);
const phoenixBin = join(phoenixDir, "bin", "phoenix");
function installPhoenix() {
  if (existsSync(join(phoenixDir, ".ready"))) return;
  log(`installing arize-phoenix==${values["phoenix-version"]} into ${phoenixDir} (once)`);
  rmSync(phoenixDir, { recursive: true, force: true });
  const steps = [
    ["python3", ["-m", "venv", phoenixDir]],
    [join(phoenixDir, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `arize-phoenix==${values["phoenix-version"]}`]],
  ];
  for (const [cmd, args] of steps) {
    const r = spawnSync(cmd, args, { stdio: "inherit" });
    if (r.status !== 0) usage(`could not install Phoenix: ${cmd} ${args.join(" ")} exited ${r.status}`);
  }
  spawnSync("touch", [join(phoenixDir, ".ready")]);
}

/** A server under test: how to start it, where to send, how many traces it holds. */
const SERVERS = {
  ragmeter: {
    async start(dir) {
      const port = await freePort();
      const child = spawn(
        process.execPath,
        [
          ...(values.profile !== undefined ? ["--cpu-prof", `--cpu-prof-dir=${values.profile}`] : []),
          join(root, "scorer", "bin", "ragmeter.js"),
          "serve",
          "--port",
          String(port),
          "--host",
          "127.0.0.1",
          "--home",
          dir,
          "--quiet-ms",
          values["quiet-ms"],
        ],
        {
          stdio: ["ignore", "ignore", "inherit"],
          env: { ...process.env, RAGMETER_LOG_LEVEL: "warn" },
        },
      );
      await waitHttp(`http://127.0.0.1:${port}/api/runs`, 120_000, child);
      return { child, url: `http://127.0.0.1:${port}/v1/traces`, base: `http://127.0.0.1:${port}` };
    },
    /** Traces scored (each trace of the bench is one interaction): /api/live over a day's window. */
    async held(s) {
      const r = await fetch(`${s.base}/api/live?window_ms=86400000`, { signal: AbortSignal.timeout(30_000) });
      if (!r.ok) throw new Error(`/api/live answered ${r.status}`);
      const j = await r.json();
      return { traces: j.traces_seen };
    },
  },
  phoenix: {
    async start(dir) {
      const port = await freePort();
      const grpc = await freePort();
      // Phoenix logs every request and its optional integrations' start-up failures to stderr: not shown
      const child = spawn(phoenixBin, ["serve"], {
        stdio: ["ignore", "ignore", "ignore"],
        env: {
          ...process.env,
          PHOENIX_PORT: String(port),
          PHOENIX_HOST: "127.0.0.1",
          PHOENIX_GRPC_PORT: String(grpc),
          PHOENIX_WORKING_DIR: dir,
          PHOENIX_TELEMETRY_ENABLED: "false",
          DO_NOT_TRACK: "1",
        },
      });
      await waitHttp(`http://127.0.0.1:${port}/healthz`, 180_000, child);
      return { child, url: `http://127.0.0.1:${port}/v1/traces`, db: join(dir, "phoenix.db") };
    },
    /** Spans written to Phoenix's database (what a query of the UI would find). */
    async held(s) {
      if (!existsSync(s.db)) return { spans: 0 };
      const db = new DatabaseSync(s.db, { readOnly: true });
      try {
        return { spans: Number(db.prepare("SELECT count(*) AS n FROM spans").get().n) };
      } catch {
        return { spans: 0 };
      } finally {
        db.close();
      }
    },
  },
};

/** Sends every body with `clients` closed-loop senders; 429/503 retried after Retry-After or a doubling backoff. */
async function send(url, clients) {
  let next = 0;
  const out = { accepted: 0, acceptedSpans: 0, refusedWithRetryAfter: 0, refusedWithout: 0, failed: 0, lat: [] };
  async function sender() {
    for (;;) {
      const i = next++;
      if (i >= bodies.length) return;
      let backoff = 500;
      for (let attempt = 0; ; attempt++) {
        const t = performance.now();
        let status = 0;
        let retryAfter = null;
        try {
          const r = await fetch(url, { method: "POST", headers: { "content-type": "application/x-protobuf" }, body: bodies[i].body, signal: AbortSignal.timeout(60_000) });
          await r.arrayBuffer();
          status = r.status;
          retryAfter = r.headers.get("retry-after");
        } catch {
          status = 0;
        }
        if (status >= 200 && status < 300) {
          out.lat.push(performance.now() - t);
          out.accepted++;
          out.acceptedSpans += bodies[i].spans;
          break;
        }
        if ((status === 429 || status === 503 || status === 0) && attempt < 20) {
          if (retryAfter !== null) out.refusedWithRetryAfter++;
          else out.refusedWithout++;
          const wait = retryAfter !== null && /^\d+$/u.test(retryAfter) ? Number(retryAfter) * 1000 : backoff;
          backoff = Math.min(backoff * 2, 8000);
          await sleep(wait);
          continue;
        }
        out.failed++;
        break;
      }
    }
  }
  await Promise.all(Array.from({ length: clients }, sender));
  return out;
}

const pct = (xs, p) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/**
 * Bytes the store of a stopped `ragmeter serve` holds per trace: its active parts (system.parts,
 * compressed, on disk) by table, opened in this process once the server is gone.
 */
async function ragmeterStoreBytes(dir, traces) {
  const { openStore } = await import("../store/dist/client.js");
  const store = await openStore({ kind: "embedded", home: dir, database: "ragmeter" });
  try {
    const rs = await store.client.query({
      query: "SELECT table, sum(bytes_on_disk) AS b FROM system.parts WHERE active AND database = 'ragmeter' GROUP BY table ORDER BY b DESC",
      format: "JSONEachRow",
    });
    const by = {};
    let all = 0;
    for (const r of await rs.json()) {
      by[r.table] = Math.round(Number(r.b) / traces);
      all += Number(r.b);
    }
    return { per_trace: Math.round(all / traces), by_table: by };
  } finally {
    await store.close();
  }
}

async function cell(name, clients, round) {
  const dir = mkdtempSync(join(tmpdir(), `bench-phoenix-${name}-`));
  const s = await SERVERS[name].start(dir);
  const pid = s.child.pid;
  let r;
  try {
    await sleep(1000);
    const cpu0 = cpuSeconds(pid);
    const threads = values.profile !== undefined ? threadSampler(pid) : undefined;
    const start = performance.now();
    const sent = await send(s.url, clients);
    const sendS = (performance.now() - start) / 1000;
    const cpuSend = cpuSeconds(pid) - cpu0;
    // drained: every accepted trace held (ragmeter: scored; Phoenix: every span in its database)
    let heldAt = null;
    let held = { traces: 0, spans: 0 };
    const until = Date.now() + drainTimeoutS * 1000;
    while (Date.now() < until) {
      held = await SERVERS[name].held(s);
      if ((held.traces ?? 0) >= sent.accepted || (held.spans ?? 0) >= sent.acceptedSpans) {
        heldAt = performance.now();
        break;
      }
      await sleep(500);
    }
    const cpuAll = cpuSeconds(pid) - cpu0;
    if (threads !== undefined) {
      const by = Object.entries(threads.stop()).sort((a, b) => b[1] - a[1]);
      log(`${name} CPU by thread name (s, whole cell; total ${cpuAll.toFixed(1)}): ${by.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ")}`);
    }
    r = {
      name,
      clients,
      round,
      accepted: sent.accepted,
      failed: sent.failed,
      refused_retry_after: sent.refusedWithRetryAfter,
      refused_without: sent.refusedWithout,
      accepted_spans_s: Math.round(sent.acceptedSpans / sendS),
      held_traces_s: heldAt === null ? null : Math.round((sent.accepted / (heldAt - start)) * 1000),
      cpu_ms_per_span_send: +((cpuSend * 1000) / sent.acceptedSpans).toFixed(2),
      cpu_ms_per_span_all: +((cpuAll * 1000) / sent.acceptedSpans).toFixed(2),
      p50_ms: Math.round(pct(sent.lat, 50)),
      p99_ms: Math.round(pct(sent.lat, 99)),
      peak_rss_mib: Math.round(peakRssMiB(pid)),
      held,
    };
    if (heldAt === null) log(`${name} did not hold every accepted trace within ${drainTimeoutS} s: ${JSON.stringify(held)}`);
    log(JSON.stringify(r));
    return r;
  } finally {
    await stop(s.child);
    if (name === "ragmeter" && r !== undefined) {
      const bytes = await ragmeterStoreBytes(dir, Math.max(1, r.accepted)).catch((err) => ({ error: err.message }));
      r.store_bytes_per_trace = bytes.per_trace ?? null;
      log(`ragmeter store bytes per trace (active parts, compressed): ${JSON.stringify(bytes)}`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

const names = values.only ? [values.only] : ["ragmeter", "phoenix"];
if (names.includes("phoenix")) installPhoenix();
const load = () => spawnSync("cat", ["/proc/loadavg"]).stdout?.toString().split(" ").slice(0, 3).join(" ") ?? "?";
log(`load average ${load()}`);
const results = [];
for (const clients of levels) {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) results.push(await cell(name, clients, round));
  }
}
log(`load average ${load()}`);

const median = (xs) => {
  const s = xs.filter((x) => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ratio = (a, b) => (a === null || b === null || b === 0 ? "—" : (a / b).toFixed(2));
const fields = [
  ["accepted_spans_s", "accepted spans/s"],
  ["held_traces_s", "held traces/s"],
  ["cpu_ms_per_span_all", "CPU ms/span"],
  ["p99_ms", "p99 ms"],
  ["peak_rss_mib", "peak RSS MiB"],
  ["store_bytes_per_trace", "store bytes/trace"],
  ["refused_without", "503 w/o Retry-After"],
  ["refused_retry_after", "503 with Retry-After"],
];
console.log(`\n${traces} traces (${spansTotal} spans), ${rounds} rounds, medians; "held" = scored for ragmeter, spans in the database for Phoenix\n`);
console.log(`| clients | ${fields.map(([, l]) => `${l} r / p (ratio)`).join(" | ")} |`);
console.log(`| ---: | ${fields.map(() => "---:").join(" | ")} |`);
for (const clients of levels) {
  const m = (name, f) => median(results.filter((r) => r.name === name && r.clients === clients).map((r) => r[f]));
  console.log(`| ${clients} | ${fields.map(([f]) => `${m("ragmeter", f) ?? "—"} / ${m("phoenix", f) ?? "—"} (${ratio(m("ragmeter", f), m("phoenix", f))})`).join(" | ")} |`);
}
console.log(JSON.stringify({ traces, spans: spansTotal, rounds, results }));
