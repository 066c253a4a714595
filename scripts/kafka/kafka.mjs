#!/usr/bin/env node
// Runs a single-node Apache Kafka broker (KRaft, 127.0.0.1) from the official jars on Maven Central.
//
//   node scripts/kafka/kafka.mjs start|stop|status|reset
//
// start   resolve the jars (cached), format the storage once, start the broker in the background,
//         wait until it answers, create the topics. Idempotent: a running broker is left as it is.
// stop    stop the broker this script started (by the PID in its pid file).
// status  print whether the broker runs and answers; exit 0 when it does, 1 otherwise.
// reset   stop, then delete the broker's data (topics and offsets); the jars stay cached.
//
// Environment (all optional):
//   RAGMETER_KAFKA_VERSION       broker version (default 4.4.0; tries older 4.x versions if it does not resolve)
//   RAGMETER_KAFKA_PORT          client listener port on 127.0.0.1 (default 9092)
//   RAGMETER_KAFKA_CONTROLLER_PORT  KRaft controller port (default 9093)
//   RAGMETER_KAFKA_DIR           where jars and state live (default ${XDG_CACHE_HOME:-~/.cache}/ragmeter)
//   RAGMETER_KAFKA_HEAP          JVM max heap (default 1g)
//   RAGMETER_TOPIC               span topic (default ragmeter.spans); the DLQ is "<topic>.dlq"
//   RAGMETER_TOPIC_PARTITIONS    partitions of the span topic (default 3)
//   JAVA_HOME                    Java 17+ to use (default: `java` on PATH)
//
// Exported functions (startKafka, stopKafka, kafkaStatus) are used by integration tests.

import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { alive, portOpen, runIfMain } from "../lib/process.mjs";

const DEFAULT_VERSION = "4.4.0";
const FALLBACK_VERSIONS = ["4.4.0", "4.3.1", "4.2.0", "4.1.1"];
const LOG4J_VERSION = "2.25.5";

/** Error with a message meant for a person; the CLI prints it without a stack. */
export class KafkaScriptError extends Error {
  constructor(message) {
    super(message);
    this.name = "KafkaScriptError";
  }
}

/**
 * Resolves the effective settings from the environment.
 * @param {NodeJS.ProcessEnv} [env]
 */
export function kafkaSettings(env = process.env) {
  const base = env.RAGMETER_KAFKA_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "ragmeter");
  const port = Number(env.RAGMETER_KAFKA_PORT || 9092);
  const controllerPort = Number(env.RAGMETER_KAFKA_CONTROLLER_PORT || 9093);
  const partitions = Number(env.RAGMETER_TOPIC_PARTITIONS || 3);
  if (!Number.isInteger(port) || port <= 0) throw new KafkaScriptError(`RAGMETER_KAFKA_PORT must be a port number, got ${env.RAGMETER_KAFKA_PORT}`);
  if (!Number.isInteger(controllerPort) || controllerPort <= 0)
    throw new KafkaScriptError(`RAGMETER_KAFKA_CONTROLLER_PORT must be a port number, got ${env.RAGMETER_KAFKA_CONTROLLER_PORT}`);
  if (!Number.isInteger(partitions) || partitions < 1) throw new KafkaScriptError(`RAGMETER_TOPIC_PARTITIONS must be a positive integer, got ${env.RAGMETER_TOPIC_PARTITIONS}`);
  const topic = env.RAGMETER_TOPIC || "ragmeter.spans";
  return {
    version: env.RAGMETER_KAFKA_VERSION || DEFAULT_VERSION,
    versionPinned: Boolean(env.RAGMETER_KAFKA_VERSION),
    base,
    stateDir: join(base, `kafka-state-${port}`),
    port,
    controllerPort,
    heap: env.RAGMETER_KAFKA_HEAP || "1g",
    topic,
    dlqTopic: `${topic}.dlq`,
    partitions,
    javaHome: env.JAVA_HOME,
  };
}

function javaBin(settings) {
  return settings.javaHome ? join(settings.javaHome, "bin", "java") : "java";
}

/** Checks that Java 17 or newer is present; throws a KafkaScriptError naming it otherwise. */
export function checkJava(settings = kafkaSettings()) {
  const java = javaBin(settings);
  const r = spawnSync(java, ["-version"], { encoding: "utf8" });
  if (r.error || r.status !== 0) {
    throw new KafkaScriptError(
      `Java 17 or newer is required to run the Kafka broker, and \`${java}\` could not be run` +
        ` (${r.error ? r.error.message : `exit ${r.status}`}). Install a Java 17 runtime (e.g. apt-get install openjdk-17-jre-headless) or set JAVA_HOME.`,
    );
  }
  const m = /version "(\d+)(?:\.(\d+))?/.exec(r.stderr + r.stdout);
  const major = m ? (m[1] === "1" ? Number(m[2]) : Number(m[1])) : NaN;
  if (!(major >= 17)) {
    throw new KafkaScriptError(`Java 17 or newer is required to run the Kafka broker; \`${java} -version\` reports ${m ? m[0] : "an unknown version"}.`);
  }
  return major;
}

function pom(version) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.ragmeter.local</groupId>
  <artifactId>kafka-broker-runtime</artifactId>
  <version>${version}</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>${version}</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>${LOG4J_VERSION}</version></dependency>
  </dependencies>
</project>
`;
}

function _libsDir(settings, version) {
  return join(settings.base, `kafka-${version}`, "libs");
}

function resolveVersion(settings, version, log) {
  const dir = join(settings.base, `kafka-${version}`);
  const libs = join(dir, "libs");
  const done = join(dir, ".complete");
  if (existsSync(done)) return libs;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "pom.xml"), pom(version));
  log(`resolving Apache Kafka ${version} jars from Maven Central into ${libs} …`);
  rmSync(libs, { recursive: true, force: true });
  const r = spawnSync("mvn", ["-q", "-B", "-f", join(dir, "pom.xml"), "dependency:copy-dependencies", `-DoutputDirectory=${libs}`, "-DincludeScope=runtime"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (r.error) {
    throw new KafkaScriptError(`Maven (mvn) is required to fetch the Kafka jars from Maven Central: ${r.error.message}. Install it (e.g. apt-get install maven).`);
  }
  if (r.status !== 0 || !existsSync(join(libs, `kafka_2.13-${version}.jar`))) {
    return { error: `mvn could not resolve org.apache.kafka:kafka_2.13:${version}: ${(r.stdout + r.stderr).trim().split("\n").slice(-5).join(" | ")}` };
  }
  writeFileSync(done, `${new Date().toISOString()}\n`);
  return libs;
}

/** Resolves (and caches) the broker jars; returns {version, libs}. */
export function ensureJars(settings = kafkaSettings(), log = defaultLog) {
  const candidates = settings.versionPinned ? [settings.version] : [settings.version, ...FALLBACK_VERSIONS.filter((v) => v !== settings.version)];
  const errors = [];
  for (const version of candidates) {
    const out = resolveVersion(settings, version, log);
    if (typeof out === "string") return { version, libs: out };
    errors.push(out.error);
    log(out.error);
  }
  throw new KafkaScriptError(`no Kafka broker version could be resolved: ${errors.join("; ")}`);
}

function serverProperties(settings) {
  return [
    "# written by scripts/kafka/kafka.mjs — single-node KRaft broker for ragmeter development and tests",
    "process.roles=broker,controller",
    "node.id=1",
    `controller.quorum.voters=1@127.0.0.1:${settings.controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${settings.port},CONTROLLER://127.0.0.1:${settings.controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${settings.port}`,
    "controller.listener.names=CONTROLLER",
    "inter.broker.listener.name=PLAINTEXT",
    "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
    `log.dirs=${join(settings.stateDir, "data")}`,
    "num.partitions=1",
    "auto.create.topics.enable=true",
    "offsets.topic.replication.factor=1",
    "offsets.topic.num.partitions=3",
    "transaction.state.log.replication.factor=1",
    "transaction.state.log.min.isr=1",
    "share.coordinator.state.topic.replication.factor=1",
    "share.coordinator.state.topic.min.isr=1",
    "group.initial.rebalance.delay.ms=0",
    "group.consumer.session.timeout.ms=6000",
    "group.consumer.min.session.timeout.ms=1000",
    "group.min.session.timeout.ms=1000",
    "log.retention.hours=24",
    "log.segment.bytes=104857600",
    "",
  ].join("\n");
}

const LOG4J2 = `status = error
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.out.ref = OUT
logger.server.name = kafka.server.KafkaRaftServer
logger.server.level = INFO
logger.broker.name = kafka.server.BrokerServer
logger.broker.level = INFO
`;

function pidFile(settings) {
  return join(settings.stateDir, "broker.pid");
}

function readPid(settings) {
  try {
    const pid = Number(readFileSync(pidFile(settings), "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function loadKafka() {
  try {
    return await import("@ragmeter/kafka");
  } catch (e) {
    throw new KafkaScriptError(`ragmeter's Kafka module is not built (run npm install, or npx tsc -b, at the repository root): ${e.message}`);
  }
}

/** The connection of the settings' plaintext listener. */
function plaintext(settings) {
  return { brokers: [`127.0.0.1:${settings.port}`], security: { protocol: "PLAINTEXT" } };
}

/** True when a Kafka broker answers a metadata request on the settings' port within timeoutMs. */
export async function brokerAnswers(settings = kafkaSettings(), timeoutMs = 3000) {
  if (!(await portOpen(settings.port))) return false;
  const { createAdmin } = await loadKafka();
  const admin = createAdmin(plaintext(settings), "ragmeter-kafka-script", { connectTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs, retries: 0 });
  try {
    await admin.metadata({ topics: [], forceUpdate: true });
    return true;
  } catch {
    return false;
  } finally {
    await admin.close().catch(() => {});
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Creates the span topic and its dead-letter topic (ragmeter's topic setup), raising the span topic's partitions when fewer. */
async function ensureTopics(settings, log) {
  const { createAdmin, setUpTopics } = await loadKafka();
  const admin = createAdmin(plaintext(settings), "ragmeter-kafka-script", { retries: 8, retryDelayMs: 200 });
  try {
    const created = [];
    for (const [topic, partitions] of [
      [settings.topic, settings.partitions],
      [settings.dlqTopic, 1],
    ]) {
      const r = await setUpTopics(admin, [topic], { create: true, partitions, leaderTimeoutMs: 30_000 });
      if (r.refused !== undefined) throw new KafkaScriptError(`could not create ${topic}: ${r.refused.error.message}`);
      created.push(...r.created.map((t) => `${t} (${partitions} partitions)`));
    }
    if (created.length > 0) log(`created topics ${created.join(", ")}`);
    const meta = await admin.metadata({ topics: [settings.topic], forceUpdate: true });
    const have = meta.topics.get(settings.topic)?.partitionsCount ?? 0;
    if (have < settings.partitions) {
      await admin.createPartitions({ topics: [{ name: settings.topic, count: settings.partitions }] });
      log(`raised ${settings.topic} from ${have} to ${settings.partitions} partitions`);
    }
  } finally {
    await admin.close().catch(() => {});
  }
}

/**
 * Starts the broker unless one already answers on the port, then makes sure the topics exist.
 * Resolves to {status: "started" | "running", version?, pid?, port}.
 * @param {{env?: NodeJS.ProcessEnv, log?: (msg: string) => void, timeoutMs?: number}} [options]
 */
export async function startKafka(options = {}) {
  const settings = kafkaSettings(options.env);
  const log = options.log ?? defaultLog;
  const timeoutMs = options.timeoutMs ?? 120_000;
  if (await brokerAnswers(settings)) {
    await ensureTopics(settings, log);
    log(`Kafka already running on 127.0.0.1:${settings.port}`);
    return { status: "running", pid: readPid(settings), port: settings.port };
  }
  const stalePid = readPid(settings);
  if (stalePid !== undefined && alive(stalePid)) {
    log(`broker process ${stalePid} exists but does not answer yet; waiting for it`);
  } else {
    if (await portOpen(settings.port)) {
      throw new KafkaScriptError(`port 127.0.0.1:${settings.port} is taken by something that is not a Kafka broker; set RAGMETER_KAFKA_PORT`);
    }
    checkJava(settings);
    const { version, libs } = ensureJars(settings, log);
    mkdirSync(settings.stateDir, { recursive: true });
    const props = join(settings.stateDir, "server.properties");
    const log4j = join(settings.stateDir, "log4j2.properties");
    writeFileSync(props, serverProperties(settings));
    writeFileSync(log4j, LOG4J2);
    const versionFile = join(settings.stateDir, "version");
    const formattedWith = existsSync(versionFile) ? readFileSync(versionFile, "utf8").trim() : undefined;
    if (formattedWith !== undefined && formattedWith !== version) {
      log(`state was formatted by Kafka ${formattedWith}; reformatting for ${version}`);
      rmSync(join(settings.stateDir, "data"), { recursive: true, force: true });
    }
    const cp = `${libs}/*`;
    const javaOpts = [`-Dlog4j2.configurationFile=${log4j}`, "-Djava.awt.headless=true"];
    if (!existsSync(join(settings.stateDir, "data", "meta.properties"))) {
      const uuid = spawnSync(javaBin(settings), [...javaOpts, "-cp", cp, "kafka.tools.StorageTool", "random-uuid"], { encoding: "utf8" });
      const clusterId = uuid.stdout.trim().split("\n").pop();
      if (uuid.status !== 0 || !clusterId) throw new KafkaScriptError(`kafka.tools.StorageTool random-uuid failed: ${uuid.stderr}`);
      const fmt = spawnSync(javaBin(settings), [...javaOpts, "-cp", cp, "kafka.tools.StorageTool", "format", "-t", clusterId, "-c", props], { encoding: "utf8" });
      if (fmt.status !== 0) throw new KafkaScriptError(`formatting the Kafka storage failed: ${(fmt.stdout + fmt.stderr).trim()}`);
      writeFileSync(versionFile, `${version}\n`);
      log(`formatted storage in ${join(settings.stateDir, "data")} (cluster ${clusterId})`);
    }
    const logPath = join(settings.stateDir, "broker.log");
    const out = openSync(logPath, "a");
    const child = spawn(javaBin(settings), [`-Xms256m`, `-Xmx${settings.heap}`, "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", ...javaOpts, "-cp", cp, "kafka.Kafka", props], {
      detached: true,
      stdio: ["ignore", out, out],
    });
    closeSync(out);
    child.unref();
    writeFileSync(pidFile(settings), `${child.pid}\n`);
    log(`started Kafka ${version} (pid ${child.pid}); log: ${logPath}`);
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await brokerAnswers(settings)) break;
    const pid = readPid(settings);
    if (pid === undefined || !alive(pid)) {
      const tail = tailLog(settings);
      throw new KafkaScriptError(`the Kafka broker exited during start-up; last log lines:\n${tail}`);
    }
    if (Date.now() > deadline) throw new KafkaScriptError(`the Kafka broker did not answer within ${timeoutMs} ms; see ${join(settings.stateDir, "broker.log")}`);
    await sleep(500);
  }
  await ensureTopics(settings, log);
  log(`Kafka ready on 127.0.0.1:${settings.port}`);
  return { status: "started", pid: readPid(settings), port: settings.port };
}

function tailLog(settings, lines = 30) {
  try {
    return readFileSync(join(settings.stateDir, "broker.log"), "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Stops the broker started by this script (SIGTERM, then SIGKILL after timeoutMs) and waits for its
 * ports to close. Resolves to {status: "stopped" | "not-running"}.
 * @param {{env?: NodeJS.ProcessEnv, log?: (msg: string) => void, timeoutMs?: number}} [options]
 */
export async function stopKafka(options = {}) {
  const settings = kafkaSettings(options.env);
  const log = options.log ?? defaultLog;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const pid = readPid(settings);
  if (pid === undefined || !alive(pid)) {
    rmSync(pidFile(settings), { force: true });
    if (await portOpen(settings.port)) log(`a broker answers on ${settings.port} but was not started by this script; left alone`);
    else log("Kafka is not running");
    return { status: "not-running" };
  }
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await sleep(200);
  if (alive(pid)) {
    log(`broker ${pid} did not stop within ${timeoutMs} ms; killing it`);
    process.kill(pid, "SIGKILL");
    while (alive(pid)) await sleep(100);
  }
  while ((await portOpen(settings.port, 300)) && Date.now() < deadline + 5000) await sleep(200);
  rmSync(pidFile(settings), { force: true });
  log(`stopped Kafka (pid ${pid})`);
  return { status: "stopped" };
}

/** Reports {running, answering, pid, port, stateDir}. */
export async function kafkaStatus(options = {}) {
  const settings = kafkaSettings(options.env);
  const pid = readPid(settings);
  const running = pid !== undefined && alive(pid);
  const answering = await brokerAnswers(settings);
  return { running, answering, pid: running ? pid : undefined, port: settings.port, stateDir: settings.stateDir };
}

function defaultLog(msg) {
  process.stderr.write(`[kafka] ${msg}\n`);
}

async function main(argv) {
  const cmd = argv[0];
  switch (cmd) {
    case "start":
      await startKafka();
      return 0;
    case "stop":
      await stopKafka();
      return 0;
    case "status": {
      const s = await kafkaStatus();
      process.stdout.write(`${JSON.stringify(s)}\n`);
      return s.answering ? 0 : 1;
    }
    case "reset": {
      const settings = kafkaSettings();
      await stopKafka();
      rmSync(join(settings.stateDir, "data"), { recursive: true, force: true });
      rmSync(join(settings.stateDir, "version"), { force: true });
      defaultLog(`deleted ${join(settings.stateDir, "data")}`);
      return 0;
    }
    default:
      process.stderr.write("usage: node scripts/kafka/kafka.mjs start|stop|status|reset\n");
      return 2;
  }
}

runIfMain(import.meta.url, main, "kafka", KafkaScriptError);
