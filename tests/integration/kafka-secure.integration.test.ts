// The Kafka that teams run (issue 29): a broker with a SASL_SSL listener (TLS with a CA made by the
// JDK's keytool at test time; SASL PLAIN and SCRAM-SHA-256/512, the SCRAM user made when the storage
// is formatted) and an SSL listener requiring a client certificate (scripts/kafka/kafka.mjs). The
// collector and the scorer read one set of RAGMETER_KAFKA_* settings; traces go collector → Kafka
// → scorer → ClickHouse engine through the secured listener; refused credentials are one line
// naming the setting, the collector answers 503 (never 200) and what it accepted is on the topic.
// Runs its own broker (127.0.0.1:19192, SASL_SSL 19194, mutual TLS 19195) so the shared one on 9092
// is never disturbed.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCollectorConfig } from "../../collector/src/config.js";
import { type RunningCollector, startCollector } from "../../collector/src/server.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { type KafkaAdmin, type KafkaError, topicOffsets } from "../../kafka/src/index.js";
import { decodeErrorStatus } from "../../otlp/src/codec.js";
import { createLogger } from "../../runtime/src/logger.js";
import { secureMaterial, startKafka, stopKafka } from "../../scripts/kafka/kafka.mjs";
import { openStore, type Store } from "../../store/src/client.js";
import { migrate } from "../../store/src/migrations.js";
import { loadStreamConfig } from "../../stream/src/config.js";
import { type ScorerService, startScorerService } from "../../stream/src/service.js";
import { consume, dropTopics, post, testAdmin } from "../helpers/collector-kafka-helpers.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { DOCS as docs, rows, waitFor } from "../helpers/streaming.js";

const root = path.resolve(import.meta.dirname, "../..");
const PORT = Number(process.env["RAGMETER_TEST_SECURE_KAFKA_PORT"] ?? "19192");
const brokerEnv = {
  ...process.env,
  RAGMETER_KAFKA_PORT: String(PORT),
  RAGMETER_KAFKA_CONTROLLER_PORT: String(PORT + 1),
  RAGMETER_KAFKA_SASL_SSL_PORT: String(PORT + 2),
  RAGMETER_KAFKA_MTLS_PORT: String(PORT + 3),
  RAGMETER_KAFKA_HEAP: "512m",
};
const quiet = { env: brokerEnv, log: () => {} };
const PB = { "content-type": "application/x-protobuf" };
const PLAIN_BROKER = `127.0.0.1:${PORT}`;

let material: ReturnType<typeof secureMaterial>;
let home: string;
let passwordFile: string;
let store: Store;
let admin: KafkaAdmin;
const topics: string[] = [];
const running: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  await startKafka(quiet);
  material = secureMaterial({ env: brokerEnv });
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-kafka-secure-"));
  passwordFile = path.join(home, "kafka-password");
  await writeFile(passwordFile, `${material.password}\n`, { mode: 0o600 });
  const base = await openStore({ kind: "embedded", home, database: "ragmeter" });
  const database = `t_${randomUUID().replace(/-/gu, "").slice(0, 12)}`;
  await migrate(base.client, database);
  store = { ...base, database };
  admin = testAdmin(PLAIN_BROKER); // the plaintext listener, to look at what arrived
}, 180_000);

afterAll(async () => {
  for (const r of running.reverse()) await r.close().catch(() => {});
  if (admin) {
    await dropTopics(
      admin,
      topics.flatMap((t) => [t, `${t}.dlq`]),
    );
    await admin.close();
  }
  await store?.close();
  if (home) await rm(home, { recursive: true, force: true });
  await stopKafka(quiet);
}, 60_000);

/** The shared settings for the SASL_SSL listener with `mechanism` (the password from its file unless given). */
function saslEnv(topic: string, mechanism: string, password?: string): Record<string, string> {
  return {
    KAFKA_BROKERS: `127.0.0.1:${material.saslSslPort}`,
    RAGMETER_TOPIC: topic,
    RAGMETER_KAFKA_SECURITY_PROTOCOL: "SASL_SSL",
    RAGMETER_KAFKA_SASL_MECHANISM: mechanism,
    RAGMETER_KAFKA_SASL_USERNAME: material.username,
    ...(password !== undefined ? { RAGMETER_KAFKA_SASL_PASSWORD: password } : { RAGMETER_KAFKA_SASL_PASSWORD_FILE: passwordFile }),
    RAGMETER_KAFKA_SSL_CA_FILE: material.caFile,
  };
}

function newTopic(): string {
  const t = `ragmeter.test.secure.${randomUUID()}`;
  topics.push(t);
  return t;
}

async function collector(env: Record<string, string>, lines?: string[]): Promise<RunningCollector> {
  const config = loadCollectorConfig({ ...env, RAGMETER_KAFKA_SEND_TIMEOUT_MS: "5000", RAGMETER_KAFKA_BACKOFF_MS: "100" }, { host: "127.0.0.1", port: 0 });
  const logger = createLogger({ level: "warn", destination: { write: (line: string) => void lines?.push(line) } });
  const c = await startCollector(config, { logger });
  running.push(c);
  return c;
}

const ragBody = (t: string, question = "Which port does Postgres listen on?") => {
  const { retrieval, generation } = ragSpans({ traceId: t, question, docs, answer: "PostgreSQL listens on port 5432." });
  return protobufOf(traceRequest([retrieval, generation]));
};

describe("secured brokers: TLS, SASL PLAIN and SCRAM-SHA-256/512 (issue 29)", () => {
  it("collector and scorer exchange traces through the SASL_SSL listener (SCRAM-SHA-512, password from a file, the CA from a file): stored and scored once", async () => {
    const topic = newTopic();
    const env = saslEnv(topic, "SCRAM-SHA-512");
    const stream = loadStreamConfig({ ...env, RAGMETER_QUIET_MS: "800", RAGMETER_KAFKA_SESSION_TIMEOUT_MS: "6000" });
    expect(stream.security?.protocol).toBe("SASL_SSL");
    // The scorer starts first: it creates its topic and dead-letter topic over SASL_SSL.
    const svc: ScorerService = await startScorerService({
      store,
      stream,
      consume: true,
      log: { info: () => {}, warn: () => {}, error: () => {} },
      scoring: { judge: createHeuristicJudge(), ks: [1, 5], quietMs: 800, liveSampleRate: 1, concurrency: 4, batchSize: 100 },
      intervalMs: 200,
      consumer: { maxWaitTimeMs: 200 },
    });
    running.push({ close: () => svc.stop() });
    const c = await collector(env);
    const ids = [traceId(), traceId(), traceId()];
    for (const t of ids) expect((await post(`${c.url}/v1/traces`, ragBody(t), PB)).status).toBe(200);
    const scored = async () =>
      rows<{ trace_id: string; status: string }>(store, "SELECT trace_id, status FROM DB.interactions FINAL WHERE trace_id IN {ids:Array(String)}", { ids });
    await waitFor(async () => (await scored()).length === 3, 30_000);
    expect((await scored()).map((r) => [r.trace_id, r.status]).sort()).toEqual(ids.map((t) => [t, "ok"]).sort());
    const grounding = await rows<{ trace_id: string; value: number; n: string }>(
      store,
      "SELECT trace_id, any(value) AS value, count() AS n FROM DB.scores FINAL WHERE metric = 'grounding' AND trace_id IN {ids:Array(String)} GROUP BY trace_id",
      { ids },
    );
    // The answer's one claim ("port 5432") is in the first chunk: grounding 1, one score per trace.
    expect(grounding.map((g) => [g.trace_id, g.value, g.n]).sort()).toEqual(ids.map((t) => [t, 1, "1"]).sort());
    expect(await rows(store, "SELECT count() AS c FROM DB.spans FINAL WHERE trace_id IN {ids:Array(String)}", { ids })).toEqual([{ c: "6" }]);
    // One record per trace on the topic (seen through the plaintext listener of the same broker).
    const offsets = await topicOffsets(admin, topic);
    expect(offsets.reduce((n, p) => n + Number(p.high - p.low), 0)).toBe(3);
    expect(offsets).toHaveLength(3);
  }, 120_000);

  it.each(["SCRAM-SHA-256", "PLAIN"])(
    "SASL %s: the collector's records are acknowledged and read back through the same listener",
    async (mechanism) => {
      const topic = newTopic();
      const env = saslEnv(topic, mechanism, material.password);
      const c = await collector({ ...env, RAGMETER_KAFKA_TOPIC_PARTITIONS: "1" });
      const t = traceId();
      expect((await post(`${c.url}/v1/traces`, ragBody(t), PB)).status).toBe(200);
      const stream = loadStreamConfig(env);
      const got = await consume(topic, (m) => m.length > 0, 20_000, env["KAFKA_BROKERS"], stream.security);
      expect(got.map((m) => [m.key, m.headers["ragmeter-signal"]])).toEqual([[t, "traces"]]);
    },
    60_000,
  );

  it("mutual TLS: with the client certificate and key (PEM files) the SSL listener takes the records; without them the collector answers 503 saying what to check", async () => {
    const topic = newTopic();
    const env = {
      KAFKA_BROKERS: `127.0.0.1:${material.mtlsPort}`,
      RAGMETER_TOPIC: topic,
      RAGMETER_KAFKA_SECURITY_PROTOCOL: "SSL",
      RAGMETER_KAFKA_SSL_CA_FILE: material.caFile,
    };
    const withCert = await collector({
      ...env,
      RAGMETER_KAFKA_SSL_CERT_FILE: material.certFile,
      RAGMETER_KAFKA_SSL_KEY_FILE: material.keyFile,
      RAGMETER_KAFKA_TOPIC_PARTITIONS: "1",
    });
    const t = traceId();
    expect((await post(`${withCert.url}/v1/traces`, ragBody(t), PB)).status).toBe(200);
    expect((await consume(topic, (m) => m.length > 0, 20_000, PLAIN_BROKER)).map((m) => m.key)).toEqual([t]);

    const lines: string[] = [];
    const without = await collector(env, lines);
    const res = await post(`${without.url}/v1/traces`, ragBody(traceId()), PB);
    expect(res.status).toBe(503);
    expect(decodeErrorStatus(res.body).message).toContain("or it requires a client certificate (RAGMETER_KAFKA_SSL_CERT_FILE, RAGMETER_KAFKA_SSL_KEY_FILE)");
  }, 60_000);

  it("a wrong password: one line naming the settings; the collector answers 503 + Retry-After, never 200; what the right settings accept afterwards is all on the topic", async () => {
    const topic = newTopic();
    const lines: string[] = [];
    const wrong = await collector({ ...saslEnv(topic, "SCRAM-SHA-512", "not-the-password"), RAGMETER_KAFKA_TOPIC_PARTITIONS: "1" }, lines);
    const ids = Array.from({ length: 6 }, () => traceId());
    const refused: string[] = [];
    for (const t of ids) {
      const res = await post(`${wrong.url}/v1/traces`, ragBody(t), PB);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("2");
      refused.push(decodeErrorStatus(res.body).message);
      await new Promise((r) => setTimeout(r, 150)); // past the back-off: each request tries Kafka again
    }
    const explained =
      'Kafka refused the SASL credentials (SCRAM-SHA-512 as user "ragmeter"): check RAGMETER_KAFKA_SASL_USERNAME, RAGMETER_KAFKA_SASL_PASSWORD (or RAGMETER_KAFKA_SASL_PASSWORD_FILE) and RAGMETER_KAFKA_SASL_MECHANISM';
    expect(refused.every((m) => m.includes(explained) && !m.includes("\n") && !m.includes("not-the-password"))).toBe(true);
    // The collector's log: one warning for the cause, not one per request.
    const warnings = lines.map((l) => JSON.parse(l) as { msg: string; error?: string }).filter((l) => l.error?.includes(explained));
    expect(warnings).toHaveLength(1);
    expect(["Kafka is unavailable", "Kafka send failed"]).toContain(warnings[0]?.msg);
    expect(await admin.listTopics()).not.toContain(topic); // it could not even create its topic

    // The exporter retries what was refused, to a collector with the right password: every trace lands.
    const right = await collector({ ...saslEnv(topic, "SCRAM-SHA-512"), RAGMETER_KAFKA_TOPIC_PARTITIONS: "1" });
    for (const t of ids) expect((await post(`${right.url}/v1/traces`, ragBody(t), PB)).status).toBe(200);
    const got = await consume(topic, (m) => m.length >= ids.length, 20_000, PLAIN_BROKER);
    expect(got.map((m) => m.key).sort()).toEqual([...ids].sort());

    // The scorer with the wrong password does not start: one line naming the settings.
    const stream = loadStreamConfig(saslEnv(topic, "SCRAM-SHA-512", "not-the-password"));
    const failed = await startScorerService({
      store,
      stream,
      consume: true,
      log: { info: () => {}, warn: () => {}, error: () => {} },
      scoring: { judge: createHeuristicJudge(), ks: [1], quietMs: 800, liveSampleRate: 1, concurrency: 1, batchSize: 10 },
    }).then(
      () => null,
      (err: unknown) => err,
    );
    expect((failed as Error).name).toBe("KafkaError"); // the scorer's copy of the class (its package's build), not this file's
    expect([(failed as KafkaError).kind, (failed as KafkaError).retriable]).toEqual(["authentication", false]);
    expect((failed as Error).message).toMatch(new RegExp(`^cannot set up the topics ${topic.replaceAll(".", "\\.")}: ${explained.replace(/[()]/gu, "\\$&")} \\[[^\\n]*\\]$`, "u"));
  }, 90_000);

  it("ragmeter scorer with a wrong password exits 2 with one ragmeter: line naming the settings", async () => {
    const topic = newTopic();
    const cliHome = await mkdtemp(path.join(tmpdir(), "ragmeter-kafka-secure-cli-"));
    try {
      const r = spawnSync(process.execPath, [path.join(root, "scorer/bin/ragmeter.js"), "scorer", "--home", cliHome], {
        env: { ...process.env, ...saslEnv(topic, "SCRAM-SHA-256", "not-the-password"), OPENAI_BASE_URL: "" },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(2);
      const errors = r.stderr.split("\n").filter((l) => l.startsWith("ragmeter:"));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^ragmeter: KafkaError: cannot set up the topics .*: Kafka refused the SASL credentials \(SCRAM-SHA-256 as user "ragmeter"\): check RAGMETER_KAFKA_SASL_USERNAME, RAGMETER_KAFKA_SASL_PASSWORD/u,
      );
      expect(r.stderr).not.toContain("not-the-password");
    } finally {
      await rm(cliHome, { recursive: true, force: true });
    }
  }, 90_000);
});
