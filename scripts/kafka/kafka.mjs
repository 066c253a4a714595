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
//   RAGMETER_KAFKA_SASL_SSL_PORT a SASL_SSL listener on this port too (unset: none): TLS with a
//                                certificate of a CA made with the JDK's keytool, SASL PLAIN and
//                                SCRAM-SHA-256/512 with one user made when the storage is formatted
//   RAGMETER_KAFKA_MTLS_PORT     an SSL listener on this port too that requires a client certificate
//                                signed by the same CA (unset: none)
//   RAGMETER_TOPIC               span topic (default ragmeter.spans); the DLQ is "<topic>.dlq"
//   RAGMETER_KAFKA_TOPIC_PARTITIONS  partitions of the span topic (default 3; the old name
//                                RAGMETER_TOPIC_PARTITIONS is still read, with a warning)
//   JAVA_HOME                    Java 17+ to use (default: `java` on PATH)
//
// Exported functions (startKafka, stopKafka, kafkaStatus, secureMaterial) are used by integration
// tests. With a secured listener, the CA, a client certificate and key (PEM) and the user's
// credentials are in <state>/tls (secureMaterial() names them).

import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  const partitionsVar = env.RAGMETER_KAFKA_TOPIC_PARTITIONS || !env.RAGMETER_TOPIC_PARTITIONS ? "RAGMETER_KAFKA_TOPIC_PARTITIONS" : "RAGMETER_TOPIC_PARTITIONS";
  if (partitionsVar === "RAGMETER_TOPIC_PARTITIONS") console.error("warning: RAGMETER_TOPIC_PARTITIONS is deprecated, use RAGMETER_KAFKA_TOPIC_PARTITIONS (read this time)");
  const partitions = Number(env[partitionsVar] || 3);
  if (!Number.isInteger(port) || port <= 0) throw new KafkaScriptError(`RAGMETER_KAFKA_PORT must be a port number, got ${env.RAGMETER_KAFKA_PORT}`);
  if (!Number.isInteger(controllerPort) || controllerPort <= 0)
    throw new KafkaScriptError(`RAGMETER_KAFKA_CONTROLLER_PORT must be a port number, got ${env.RAGMETER_KAFKA_CONTROLLER_PORT}`);
  if (!Number.isInteger(partitions) || partitions < 1) throw new KafkaScriptError(`${partitionsVar} must be a positive integer, got ${env[partitionsVar]}`);
  const topic = env.RAGMETER_TOPIC || "ragmeter.spans";
  const optionalPort = (name) => {
    if (!env[name]) return undefined;
    const p = Number(env[name]);
    if (!Number.isInteger(p) || p <= 0) throw new KafkaScriptError(`${name} must be a port number, got ${env[name]}`);
    return p;
  };
  const saslSslPort = optionalPort("RAGMETER_KAFKA_SASL_SSL_PORT");
  const mtlsPort = optionalPort("RAGMETER_KAFKA_MTLS_PORT");
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
    saslSslPort,
    mtlsPort,
    secure: saslSslPort !== undefined || mtlsPort !== undefined,
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

function serverProperties(settings, tls) {
  const listeners = [`PLAINTEXT://127.0.0.1:${settings.port}`];
  const map = ["CONTROLLER:PLAINTEXT", "PLAINTEXT:PLAINTEXT"];
  if (settings.saslSslPort !== undefined) {
    listeners.push(`SASL_SSL://127.0.0.1:${settings.saslSslPort}`);
    map.push("SASL_SSL:SASL_SSL");
  }
  if (settings.mtlsPort !== undefined) {
    listeners.push(`MTLS://127.0.0.1:${settings.mtlsPort}`);
    map.push("MTLS:SSL");
  }
  const secured = tls
    ? [
        "# secured listeners (RAGMETER_KAFKA_SASL_SSL_PORT, RAGMETER_KAFKA_MTLS_PORT): keystores made with keytool in tls/",
        "sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
        `listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${tls.username}="${tls.password}";`,
        "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;",
        "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;",
        "ssl.keystore.type=PKCS12",
        `ssl.keystore.location=${tls.brokerKeystore}`,
        `ssl.keystore.password=${tls.storepass}`,
        `ssl.key.password=${tls.storepass}`,
        "ssl.truststore.type=PKCS12",
        `ssl.truststore.location=${tls.truststore}`,
        `ssl.truststore.password=${tls.storepass}`,
        "listener.name.mtls.ssl.client.auth=required",
      ]
    : [];
  return [
    "# written by scripts/kafka/kafka.mjs — single-node KRaft broker for ragmeter development and tests",
    "process.roles=broker,controller",
    "node.id=1",
    `controller.quorum.voters=1@127.0.0.1:${settings.controllerPort}`,
    `listeners=${[...listeners, `CONTROLLER://127.0.0.1:${settings.controllerPort}`].join(",")}`,
    `advertised.listeners=${listeners.join(",")}`,
    "controller.listener.names=CONTROLLER",
    "inter.broker.listener.name=PLAINTEXT",
    `listener.security.protocol.map=${map.join(",")}`,
    ...secured,
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

/** Where the secured listeners' material lives, and the user the broker knows. */
function tlsPaths(settings) {
  const dir = join(settings.stateDir, "tls");
  return {
    dir,
    caFile: join(dir, "ca.pem"),
    certFile: join(dir, "client.pem"),
    keyFile: join(dir, "client.key"),
    brokerKeystore: join(dir, "broker.p12"),
    truststore: join(dir, "truststore.p12"),
    secrets: join(dir, "secrets.json"),
  };
}

function keytool(settings) {
  return settings.javaHome ? join(settings.javaHome, "bin", "keytool") : "keytool";
}

/** Runs keytool with `args`; throws a KafkaScriptError with its output when it fails. */
function runKeytool(settings, args) {
  const r = spawnSync(keytool(settings), ["-noprompt", ...args], { encoding: "utf8" });
  if (r.error || r.status !== 0) throw new KafkaScriptError(`keytool ${args[0]} failed: ${r.error ? r.error.message : (r.stdout + r.stderr).trim()}`);
  return r.stdout;
}

/** The private key of `alias` in the PKCS12 keystore, as PEM (PKCS#8): with openssl when present, else a few lines of Java run by the JDK's source launcher. */
function exportPrivateKey(settings, keystore, storepass, alias, dir) {
  const ssl = spawnSync("openssl", ["pkcs12", "-in", keystore, "-nocerts", "-nodes", "-passin", `pass:${storepass}`], { encoding: "utf8" });
  if (!ssl.error && ssl.status === 0) {
    const pem = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n?/u.exec(ssl.stdout);
    if (pem) return pem[0].endsWith("\n") ? pem[0] : `${pem[0]}\n`;
  }
  const src = join(dir, "ExportKey.java");
  writeFileSync(
    src,
    [
      "import java.io.FileInputStream;",
      "import java.security.KeyStore;",
      "import java.util.Base64;",
      "public class ExportKey {",
      "  public static void main(String[] a) throws Exception {",
      '    KeyStore ks = KeyStore.getInstance("PKCS12");',
      "    try (FileInputStream in = new FileInputStream(a[0])) { ks.load(in, a[1].toCharArray()); }",
      "    byte[] der = ks.getKey(a[2], a[1].toCharArray()).getEncoded();",
      '    System.out.print("-----BEGIN PRIVATE KEY-----\\n" + Base64.getMimeEncoder(64, "\\n".getBytes()).encodeToString(der) + "\\n-----END PRIVATE KEY-----\\n");',
      "  }",
      "}",
      "",
    ].join("\n"),
  );
  const r = spawnSync(javaBin(settings), [src, keystore, storepass, alias], { encoding: "utf8" });
  if (r.error || r.status !== 0)
    throw new KafkaScriptError(`exporting the client key needs openssl or a JDK (javac's source launcher): ${r.error ? r.error.message : r.stderr.trim()}`);
  return r.stdout;
}

/**
 * Makes (once) the material of the secured listeners with the JDK's keytool: a CA, the broker's
 * keystore (certificate for 127.0.0.1 and localhost signed by the CA), a truststore holding the CA,
 * a client certificate signed by the CA with its key, the CA and the client's certificate and key
 * as PEM files for Node's TLS, and one user's random password. Returns the paths and secrets.
 */
function ensureTlsMaterial(settings, log) {
  const p = tlsPaths(settings);
  if (existsSync(p.secrets)) return { ...p, ...JSON.parse(readFileSync(p.secrets, "utf8")) };
  rmSync(p.dir, { recursive: true, force: true });
  mkdirSync(p.dir, { recursive: true, mode: 0o700 });
  const storepass = randomBytes(12).toString("hex");
  const ca = join(p.dir, "ca.p12");
  const store = (file) => ["-keystore", file, "-storetype", "PKCS12", "-storepass", storepass];
  const san = "SAN=ip:127.0.0.1,dns:localhost";
  runKeytool(settings, ["-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650", "-dname", "CN=ragmeter test CA", "-ext", "bc:c", ...store(ca)]);
  writeFileSync(p.caFile, runKeytool(settings, ["-exportcert", "-rfc", "-alias", "ca", ...store(ca)]));
  /** A key pair in its own keystore, its certificate signed by the CA, the chain imported back. */
  const signed = (alias, file, dname, exts) => {
    runKeytool(settings, ["-genkeypair", "-alias", alias, "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650", "-dname", dname, ...store(file)]);
    const csr = join(p.dir, `${alias}.csr`);
    const crt = join(p.dir, `${alias}.crt`);
    runKeytool(settings, ["-certreq", "-alias", alias, "-file", csr, ...store(file)]);
    runKeytool(settings, ["-gencert", "-alias", "ca", "-infile", csr, "-outfile", crt, "-rfc", "-validity", "3650", ...exts.flatMap((e) => ["-ext", e]), ...store(ca)]);
    runKeytool(settings, ["-importcert", "-alias", "ca", "-file", p.caFile, ...store(file)]);
    runKeytool(settings, ["-importcert", "-alias", alias, "-file", crt, ...store(file)]);
    return crt;
  };
  signed("broker", p.brokerKeystore, "CN=127.0.0.1", [san, "EKU=serverAuth,clientAuth"]);
  runKeytool(settings, ["-importcert", "-alias", "ca", "-file", p.caFile, ...store(p.truststore)]);
  const client = join(p.dir, "client.p12");
  writeFileSync(p.certFile, readFileSync(signed("client", client, "CN=ragmeter-test-client", ["EKU=clientAuth"]), "utf8"));
  writeFileSync(p.keyFile, exportPrivateKey(settings, client, storepass, "client", p.dir), { mode: 0o600 });
  const secrets = { storepass, username: "ragmeter", password: randomBytes(12).toString("hex") };
  writeFileSync(p.secrets, `${JSON.stringify(secrets)}\n`, { mode: 0o600 });
  chmodSync(p.keyFile, 0o600);
  log(`made a CA, the broker's and a client's certificates with keytool in ${p.dir}`);
  return { ...p, ...secrets };
}

/**
 * What a client needs to reach the secured listeners of the broker these settings describe:
 * ports, the CA, a client certificate and key (PEM files) and the user's credentials.
 * @param {{env?: NodeJS.ProcessEnv}} [options]
 */
export function secureMaterial(options = {}) {
  const settings = kafkaSettings(options.env);
  if (!settings.secure) throw new KafkaScriptError("no secured listener: set RAGMETER_KAFKA_SASL_SSL_PORT or RAGMETER_KAFKA_MTLS_PORT");
  const p = tlsPaths(settings);
  if (!existsSync(p.secrets)) throw new KafkaScriptError(`no secured broker material in ${p.dir}: start the broker first`);
  const { username, password } = JSON.parse(readFileSync(p.secrets, "utf8"));
  return { saslSslPort: settings.saslSslPort, mtlsPort: settings.mtlsPort, caFile: p.caFile, certFile: p.certFile, keyFile: p.keyFile, username, password };
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
  const running = async () => {
    await ensureTopics(settings, log);
    log(`Kafka already running on 127.0.0.1:${settings.port}`);
    return { status: "running", pid: readPid(settings), port: settings.port };
  };
  if (await brokerAnswers(settings)) return running();
  // Test files run in parallel and each may start the broker: one process starts it, holding the
  // start lock until it answers; the others wait for the lock, then find it running.
  // The wait includes the holder's first resolution of the jars: minutes, not the answer timeout.
  const release = await takeStartLock(settings, Math.max(timeoutMs, 600_000), log);
  try {
    if (await brokerAnswers(settings)) return running();
    return await startLocked(settings, log, timeoutMs);
  } finally {
    release();
  }
}

/**
 * Takes `<state>/start.lock` (created exclusively, holding this PID); a lock whose process is gone is
 * taken over. Resolves to the function that releases it.
 */
async function takeStartLock(settings, timeoutMs, log) {
  mkdirSync(settings.stateDir, { recursive: true });
  const lock = join(settings.stateDir, "start.lock");
  const deadline = Date.now() + timeoutMs;
  let said = false;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      writeFileSync(lock, `${process.pid}\n`);
      return () => rmSync(lock, { force: true });
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
    }
    let holder;
    try {
      holder = Number(readFileSync(lock, "utf8").trim());
    } catch {
      continue; // released meanwhile
    }
    // an empty file: its creator has not written its PID yet
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (!said) log(`another process (PID ${holder || "?"}) is starting the broker; waiting for it`);
    said = true;
    if (Date.now() > deadline) throw new KafkaScriptError(`${lock} was held for ${timeoutMs} ms by PID ${holder || "?"}; remove it if that process is gone`);
    await sleep(250);
  }
}

async function startLocked(settings, log, timeoutMs) {
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
    const tls = settings.secure ? ensureTlsMaterial(settings, log) : undefined;
    writeFileSync(props, serverProperties(settings, tls), { mode: 0o600 });
    writeFileSync(log4j, LOG4J2);
    const versionFile = join(settings.stateDir, "version");
    // The SCRAM credentials are written when the storage is formatted: a secured broker's storage
    // carries its user (the version file says so), a plain one is formatted again to get it.
    const layout = `${version}${tls ? ` scram:${tls.username}:${createHash("sha256").update(tls.password).digest("hex").slice(0, 8)}` : ""}`;
    const formattedWith = existsSync(versionFile) ? readFileSync(versionFile, "utf8").trim() : undefined;
    if (formattedWith !== undefined && formattedWith !== layout && !(tls === undefined && formattedWith.startsWith(`${version} `))) {
      log(`state was formatted as "${formattedWith}"; reformatting for "${layout}"`);
      rmSync(join(settings.stateDir, "data"), { recursive: true, force: true });
    }
    const cp = `${libs}/*`;
    const javaOpts = [`-Dlog4j2.configurationFile=${log4j}`, "-Djava.awt.headless=true"];
    if (!existsSync(join(settings.stateDir, "data", "meta.properties"))) {
      const uuid = spawnSync(javaBin(settings), [...javaOpts, "-cp", cp, "kafka.tools.StorageTool", "random-uuid"], { encoding: "utf8" });
      const clusterId = uuid.stdout.trim().split("\n").pop();
      if (uuid.status !== 0 || !clusterId) throw new KafkaScriptError(`kafka.tools.StorageTool random-uuid failed: ${uuid.stderr}`);
      const scram = tls ? ["SCRAM-SHA-256", "SCRAM-SHA-512"].flatMap((m) => ["--add-scram", `${m}=[name=${tls.username},password=${tls.password}]`]) : [];
      const fmt = spawnSync(javaBin(settings), [...javaOpts, "-cp", cp, "kafka.tools.StorageTool", "format", "-t", clusterId, "-c", props, ...scram], { encoding: "utf8" });
      if (fmt.status !== 0) throw new KafkaScriptError(`formatting the Kafka storage failed: ${(fmt.stdout + fmt.stderr).trim()}`);
      writeFileSync(versionFile, `${layout}\n`);
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
      rmSync(join(settings.stateDir, "tls"), { recursive: true, force: true });
      defaultLog(`deleted ${join(settings.stateDir, "data")}`);
      return 0;
    }
    default:
      process.stderr.write("usage: node scripts/kafka/kafka.mjs start|stop|status|reset\n");
      return 2;
  }
}

runIfMain(import.meta.url, main, "kafka", KafkaScriptError);
