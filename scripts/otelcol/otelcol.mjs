#!/usr/bin/env node
// Builds and runs the OpenTelemetry Collector (Go) that `npm run bench:peer` compares ragmeter's
// collector with: otlpreceiver (OTLP/HTTP on 127.0.0.1) → contrib kafkaexporter, built with the
// OpenTelemetry Collector Builder from the Go module proxy (pinned versions, cached).
//
//   node scripts/otelcol/otelcol.mjs build|start|stop|status|config
//
// build   install the pinned builder and build the collector into
//         ${XDG_CACHE_HOME:-~/.cache}/ragmeter/otelcol-<version>/ (a second call is instant).
// start   build if needed, write the config, start the collector in the background, wait until its
//         OTLP/HTTP port answers. Idempotent: a running collector (pid file) is left as it is.
// stop    stop the collector this script started (by the PID in its pid file).
// status  print whether it runs and answers; exit 0 when it does, 1 otherwise.
// config  print the generated collector config.
//
// Environment (all optional):
//   RAGMETER_OTELCOL_VERSION     collector release (default 0.165.0; the builder, otlpreceiver and
//                                kafkaexporter are pinned to it, the confmap providers to its 1.x twin)
//   RAGMETER_OTELCOL_PORT        OTLP/HTTP port on 127.0.0.1 (default 4318)
//   RAGMETER_OTELCOL_TOPIC       trace topic the kafkaexporter writes (default otlp_spans)
//   RAGMETER_OTELCOL_LOGS_TOPIC  log topic the kafkaexporter writes (default otlp_logs)
//   RAGMETER_OTELCOL_DIR         where the builder, build and state live (default ${XDG_CACHE_HOME:-~/.cache}/ragmeter)
//   KAFKA_BROKERS                bootstrap servers (default 127.0.0.1:9092)
//
// Go 1.26 or newer must be on PATH (`go`); only the Go module proxy (GOPROXY) is contacted.
//
// Exported functions (buildOtelcol, startOtelcol, stopOtelcol, otelcolStatus, otelcolConfig) are used
// by bench/peer.mjs.

import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { alive, portOpen, runIfMain } from "../lib/process.mjs";

const DEFAULT_VERSION = "0.165.0";
/** Go the pinned release needs (`go 1.26.0` in the go.mod of builder, otlpreceiver and kafkaexporter v0.165.0). */
const GO_NEEDED = "1.26";
const BINARY = "otelcol-ragmeter";

/** Error with a message meant for a person; the CLI prints it without a stack. */
export class OtelcolScriptError extends Error {
  constructor(message) {
    super(message);
    this.name = "OtelcolScriptError";
  }
}

/**
 * Resolves the effective settings from the environment.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function otelcolSettings(env = process.env) {
  const version = env.RAGMETER_OTELCOL_VERSION || DEFAULT_VERSION;
  const m = /^0\.(\d+)\.(\d+)$/.exec(version);
  if (!m) throw new OtelcolScriptError(`RAGMETER_OTELCOL_VERSION must look like 0.165.0, got ${version}`);
  const base = env.RAGMETER_OTELCOL_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "ragmeter");
  const port = Number(env.RAGMETER_OTELCOL_PORT || 4318);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new OtelcolScriptError(`RAGMETER_OTELCOL_PORT must be a port number, got ${env.RAGMETER_OTELCOL_PORT}`);
  const dir = join(base, `otelcol-${version}`);
  const brokers = (env.KAFKA_BROKERS || "127.0.0.1:9092")
    .split(",")
    .map((b) => b.trim())
    .filter(Boolean);
  return {
    version,
    // Core's stable modules (confmap providers) are versioned 1.x alongside 0.x: 0.165 ↔ 1.71.
    stableVersion: `1.${Number(m[1]) - 94}.${m[2]}`,
    dir,
    buildDir: join(dir, "build"),
    binary: join(dir, "build", BINARY),
    stateDir: join(dir, `state-${port}`),
    port,
    topic: env.RAGMETER_OTELCOL_TOPIC || "otlp_spans",
    logsTopic: env.RAGMETER_OTELCOL_LOGS_TOPIC || "otlp_logs",
    brokers,
    go: "go",
  };
}

/** The builder manifest (ocb) for the pinned release. */
export function manifest(settings) {
  return `# written by scripts/otelcol/otelcol.mjs — the OpenTelemetry Collector bench:peer compares against
dist:
  name: ${BINARY}
  description: OpenTelemetry Collector (otlpreceiver + kafkaexporter) for ragmeter's bench:peer
  output_path: ${settings.buildDir}
  version: ${settings.version}
receivers:
  - gomod: go.opentelemetry.io/collector/receiver/otlpreceiver v${settings.version}
exporters:
  - gomod: github.com/open-telemetry/opentelemetry-collector-contrib/exporter/kafkaexporter v${settings.version}
providers:
  - gomod: go.opentelemetry.io/collector/confmap/provider/envprovider v${settings.stableVersion}
  - gomod: go.opentelemetry.io/collector/confmap/provider/fileprovider v${settings.stableVersion}
`;
}

/**
 * The collector config: OTLP/HTTP on 127.0.0.1 → kafkaexporter (otlp_proto, one message per trace
 * keyed by trace id, acks from all in-sync replicas, no sending queue so a 200 waits for Kafka).
 * @param {ReturnType<typeof otelcolSettings>} settings
 * Log records (GenAI content events) go to their own topic, as `ragmeter scorer --source otelcol` reads them.
 * @param {{port?: number, topic?: string, logsTopic?: string, brokers?: string[]}} [over]
 */
export function otelcolConfig(settings, over = {}) {
  const port = over.port ?? settings.port;
  const topic = over.topic ?? settings.topic;
  const logsTopic = over.logsTopic ?? settings.logsTopic;
  const brokers = over.brokers ?? settings.brokers;
  return `# written by scripts/otelcol/otelcol.mjs
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${port}
exporters:
  kafka:
    brokers: [${brokers.map((b) => JSON.stringify(b)).join(", ")}]
    client_id: ragmeter-otelcol
    traces:
      topic: ${JSON.stringify(topic)}
      encoding: otlp_proto
    logs:
      topic: ${JSON.stringify(logsTopic)}
      encoding: otlp_proto
    partition_traces_by_id: true
    producer:
      required_acks: -1 # WaitForAll
    sending_queue:
      enabled: false
service:
  telemetry:
    logs:
      level: info
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [kafka]
    logs:
      receivers: [otlp]
      exporters: [kafka]
`;
}

/** Checks that Go is present and new enough; throws an OtelcolScriptError naming it otherwise. */
export function checkGo(settings = otelcolSettings()) {
  const r = spawnSync(settings.go, ["env", "GOVERSION"], { encoding: "utf8" });
  if (r.error || r.status !== 0) {
    throw new OtelcolScriptError(
      `Go ${GO_NEEDED} or newer is required to build the OpenTelemetry Collector, and \`${settings.go}\` could not be run (${r.error ? r.error.message : `exit ${r.status}`}); install it from https://go.dev/dl/ and put \`go\` on PATH.`,
    );
  }
  const m = /go(\d+)\.(\d+)/.exec(r.stdout);
  const [needMajor, needMinor] = GO_NEEDED.split(".").map(Number);
  if (!m || Number(m[1]) < needMajor || (Number(m[1]) === needMajor && Number(m[2]) < needMinor)) {
    throw new OtelcolScriptError(`Go ${GO_NEEDED} or newer is required to build the OpenTelemetry Collector; \`${settings.go}\` is ${r.stdout.trim() || "of an unknown version"}.`);
  }
  return r.stdout.trim();
}

function run(_settings, args, cwd, env, log) {
  const r = spawnSync(args[0], args.slice(1), {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error || r.status !== 0) {
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new OtelcolScriptError(`\`${args.join(" ")}\` failed (${r.error ? r.error.message : `exit ${r.status}`}):\n${out}`);
  }
  log(`${args.slice(0, 3).join(" ")} … ok`);
  return r;
}

/**
 * Installs the pinned builder and builds the collector unless the cached build matches the manifest.
 * Resolves to {binary, version, cached, seconds}.
 */
export function buildOtelcol(settings = otelcolSettings(), log = defaultLog) {
  const done = join(settings.dir, ".complete");
  const manifestPath = join(settings.dir, "manifest.yaml");
  const text = manifest(settings);
  if (existsSync(done) && existsSync(settings.binary) && existsSync(manifestPath) && readFileSync(manifestPath, "utf8") === text) {
    return { binary: settings.binary, version: settings.version, cached: true, seconds: 0 };
  }
  const goVersion = checkGo(settings);
  const started = Date.now();
  mkdirSync(settings.dir, { recursive: true });
  rmSync(done, { force: true });
  writeFileSync(manifestPath, text);
  const gobin = join(settings.dir, "bin");
  const builder = join(gobin, "builder");
  // Only the Go module proxy is contacted (GOPROXY from the environment, default proxy.golang.org).
  const goEnv = { GOBIN: gobin, GOTOOLCHAIN: "local", CGO_ENABLED: "0", GOFLAGS: "-buildvcs=false" };
  if (!existsSync(builder)) {
    log(`installing go.opentelemetry.io/collector/cmd/builder@v${settings.version} with ${goVersion} …`);
    run(settings, [settings.go, "install", `go.opentelemetry.io/collector/cmd/builder@v${settings.version}`], settings.dir, goEnv, log);
  }
  log(`building the collector (otlpreceiver + kafkaexporter v${settings.version}) into ${settings.buildDir}; this takes minutes the first time …`);
  const goDir = spawnSync(settings.go, ["env", "GOROOT"], { encoding: "utf8" }).stdout.trim();
  run(settings, [builder, `--config=${manifestPath}`], settings.dir, { ...goEnv, PATH: `${join(goDir, "bin")}:${process.env.PATH}` }, log);
  if (!existsSync(settings.binary)) throw new OtelcolScriptError(`the builder finished but ${settings.binary} is missing`);
  const seconds = Math.round((Date.now() - started) / 1000);
  writeFileSync(done, `${new Date().toISOString()} ${seconds}s\n`);
  log(`built ${settings.binary} in ${seconds} s`);
  return { binary: settings.binary, version: settings.version, cached: false, seconds };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function pidFile(stateDir) {
  return join(stateDir, "otelcol.pid");
}

function readPid(stateDir) {
  try {
    const pid = Number(readFileSync(pidFile(stateDir), "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function tail(path, lines = 20) {
  try {
    return readFileSync(path, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Builds if needed, writes the config and starts the collector in the background; waits until the
 * OTLP/HTTP port answers. Resolves to {status: "started" | "running", pid, url, config, log}.
 * @param {{env?: NodeJS.ProcessEnv, port?: number, topic?: string, logsTopic?: string, brokers?: string[], log?: (msg: string) => void, timeoutMs?: number}} [options]
 */
export async function startOtelcol(options = {}) {
  const base = otelcolSettings(options.env);
  const port = options.port ?? base.port;
  const settings = { ...base, port, stateDir: join(base.dir, `state-${port}`) };
  const log = options.log ?? defaultLog;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const url = `http://127.0.0.1:${port}`;
  const config = join(settings.stateDir, "config.yaml");
  const logPath = join(settings.stateDir, "otelcol.log");
  const running = readPid(settings.stateDir);
  if (running !== undefined && alive(running) && (await portOpen(port))) {
    log(`OpenTelemetry Collector already running (pid ${running}) on ${url}`);
    return { status: "running", pid: running, url, config, log: logPath };
  }
  if (await portOpen(port)) throw new OtelcolScriptError(`port 127.0.0.1:${port} is taken by something this script did not start; set RAGMETER_OTELCOL_PORT`);
  buildOtelcol(settings, log);
  mkdirSync(settings.stateDir, { recursive: true });
  writeFileSync(config, otelcolConfig(settings, { topic: options.topic, logsTopic: options.logsTopic, brokers: options.brokers }));
  const out = openSync(logPath, "w");
  const child = spawn(settings.binary, [`--config=file:${config}`], { detached: true, stdio: ["ignore", out, out] });
  closeSync(out);
  child.unref();
  writeFileSync(pidFile(settings.stateDir), `${child.pid}\n`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await portOpen(port, 300)) break;
    if (!alive(child.pid) || child.exitCode !== null) throw new OtelcolScriptError(`the OpenTelemetry Collector exited during start-up; last log lines:\n${tail(logPath)}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      rmSync(pidFile(settings.stateDir), { force: true });
      throw new OtelcolScriptError(`the OpenTelemetry Collector did not answer on ${url} within ${timeoutMs} ms (killed it); see ${logPath}`);
    }
    await sleep(200);
  }
  log(`started the OpenTelemetry Collector ${settings.version} (pid ${child.pid}) on ${url}; log: ${logPath}`);
  return { status: "started", pid: child.pid, url, config, log: logPath };
}

/**
 * Stops the collector started by this script on the port (SIGTERM, SIGKILL after timeoutMs);
 * `clean` also deletes its state folder (config, log).
 * @param {{env?: NodeJS.ProcessEnv, port?: number, log?: (msg: string) => void, timeoutMs?: number, clean?: boolean}} [options]
 */
export async function stopOtelcol(options = {}) {
  const base = otelcolSettings(options.env);
  const port = options.port ?? base.port;
  const stateDir = join(base.dir, `state-${port}`);
  const log = options.log ?? defaultLog;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const pid = readPid(stateDir);
  if (pid === undefined || !alive(pid)) {
    rmSync(pidFile(stateDir), { force: true });
    log("the OpenTelemetry Collector is not running");
    return { status: "not-running" };
  }
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) {
    log(`collector ${pid} did not stop within ${timeoutMs} ms; killing it`);
    process.kill(pid, "SIGKILL");
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
  }
  rmSync(pidFile(stateDir), { force: true });
  if (options.clean) rmSync(stateDir, { recursive: true, force: true });
  log(`stopped the OpenTelemetry Collector (pid ${pid})`);
  return { status: "stopped" };
}

/** Reports {built, running, answering, pid, url, binary}. */
export async function otelcolStatus(options = {}) {
  const base = otelcolSettings(options.env);
  const port = options.port ?? base.port;
  const pid = readPid(join(base.dir, `state-${port}`));
  const running = pid !== undefined && alive(pid);
  return {
    built: existsSync(join(base.dir, ".complete")) && existsSync(base.binary),
    running,
    answering: running && (await portOpen(port)),
    pid: running ? pid : undefined,
    url: `http://127.0.0.1:${port}`,
    binary: base.binary,
  };
}

function defaultLog(msg) {
  process.stderr.write(`[otelcol] ${msg}\n`);
}

async function main(argv) {
  switch (argv[0]) {
    case "build": {
      const r = buildOtelcol();
      const size = statSync(r.binary).size;
      process.stdout.write(`${r.binary} (${(size / 1048576).toFixed(1)} MiB, ${r.cached ? "cached" : `built in ${r.seconds} s`})\n`);
      return 0;
    }
    case "start":
      await startOtelcol();
      return 0;
    case "stop":
      await stopOtelcol();
      return 0;
    case "status": {
      const s = await otelcolStatus();
      process.stdout.write(`${JSON.stringify(s)}\n`);
      return s.answering ? 0 : 1;
    }
    case "config":
      process.stdout.write(otelcolConfig(otelcolSettings()));
      return 0;
    default:
      process.stderr.write("usage: node scripts/otelcol/otelcol.mjs build|start|stop|status|config\n");
      return 2;
  }
}

runIfMain(import.meta.url, main, "otelcol", OtelcolScriptError);
