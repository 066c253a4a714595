/**
 * Collector configuration: one zod schema, read once from flags, then environment, then defaults.
 */
import { brokerListSchema, DEFAULT_BROKERS, DEFAULT_TOPIC, KafkaConfigError, kafkaSecuritySchema, loadKafkaEnv, PLAINTEXT, topicSchema } from "@ragmeter/kafka";
import type { OtlpLimits } from "@ragmeter/otlp";
import { ALL_SETTINGS, rawSettings, readTlsMaterial, SETTINGS as S, type Setting, TlsSettingsError, tlsFilesOf } from "@ragmeter/runtime";
import * as z from "zod"; // a namespace import lets a bundler drop what is not used (the locales, JSON Schema): collector bundle −430 KiB
import { CollectorConfigError } from "./errors.js";

/** Schema of the collector configuration (all fields after defaults), its fields the settings of the one catalog (@ragmeter/runtime). */
export const collectorConfigSchema = z.object({
  /** Address to listen on. Env RAGMETER_COLLECTOR_HOST, default 127.0.0.1 (loopback: closed by default, issue 39). */
  host: S.RAGMETER_COLLECTOR_HOST.type,
  /** OTLP/HTTP port (0 = any free port). Env RAGMETER_COLLECTOR_PORT, default 4318. */
  port: S.RAGMETER_COLLECTOR_PORT.type,
  /** Kafka bootstrap servers, host:port. Env KAFKA_BROKERS (comma-separated), default 127.0.0.1:9092. */
  brokers: brokerListSchema.default([...DEFAULT_BROKERS]),
  /** Topic for spans and log events. Env RAGMETER_TOPIC, default ragmeter.spans. */
  topic: topicSchema.default(DEFAULT_TOPIC),
  /**
   * How to reach the brokers: TLS, SASL (PLAIN, SCRAM-SHA-256/512). Read from the environment by the
   * Kafka settings the scorer shares (@ragmeter/kafka: RAGMETER_KAFKA_SECURITY_PROTOCOL,
   * RAGMETER_KAFKA_SASL_*, RAGMETER_KAFKA_SSL_*), default PLAINTEXT.
   */
  security: kafkaSecuritySchema.default(PLAINTEXT),
  /** Bearer token required on /v1/*, when set. Env RAGMETER_COLLECTOR_TOKEN. */
  token: S.RAGMETER_COLLECTOR_TOKEN.type,
  /**
   * PEM certificate (chain) and its unencrypted key: with both, the receiver serves HTTPS, reading
   * them again when either changes; checked when the configuration loads. Env RAGMETER_TLS_CERT_FILE,
   * RAGMETER_TLS_KEY_FILE, default unset (plain HTTP).
   */
  tlsCertFile: S.RAGMETER_TLS_CERT_FILE.type,
  tlsKeyFile: S.RAGMETER_TLS_KEY_FILE.type,
  /** Largest request body, compressed and decompressed, in bytes (413 above). Env RAGMETER_COLLECTOR_BODY_LIMIT_BYTES, default 16 MiB. */
  bodyLimitBytes: S.RAGMETER_COLLECTOR_BODY_LIMIT_BYTES.type,
  /** Bytes of request bodies being processed at once; beyond it 429 (503 while Kafka is down). Env RAGMETER_COLLECTOR_MAX_INFLIGHT_BYTES, default 128 MiB. */
  maxInflightBytes: S.RAGMETER_COLLECTOR_MAX_INFLIGHT_BYTES.type,
  /** Spans or log records of one request (400 above). Env RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST, default 100000. */
  maxItemsPerRequest: S.RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST.type,
  /** Attributes of one span, event, link, log record, resource or scope; events and links of a span; entries of a value. Env RAGMETER_OTLP_MAX_ATTRIBUTES, default 10000. */
  maxAttributes: S.RAGMETER_OTLP_MAX_ATTRIBUTES.type,
  /** Bytes of one string or bytes value. Env RAGMETER_OTLP_MAX_VALUE_BYTES, default 8 MiB. */
  maxValueBytes: S.RAGMETER_OTLP_MAX_VALUE_BYTES.type,
  /** Levels of one attribute value or log body. Env RAGMETER_OTLP_MAX_VALUE_DEPTH, default 32. */
  maxValueDepth: S.RAGMETER_OTLP_MAX_VALUE_DEPTH.type,
  /** Largest Kafka record value in bytes; bigger traces are split. Keep below the broker's message.max.bytes. Env RAGMETER_KAFKA_MAX_MESSAGE_BYTES, default 1000000. */
  maxMessageBytes: S.RAGMETER_KAFKA_MAX_MESSAGE_BYTES.type,
  /** How long a request waits for Kafka's acknowledgement before answering 503, in ms. Env RAGMETER_KAFKA_SEND_TIMEOUT_MS, default 10000. */
  sendTimeoutMs: S.RAGMETER_KAFKA_SEND_TIMEOUT_MS.type,
  /** After a Kafka failure, answer 503 at once for this long (ms) before trying again. Env RAGMETER_KAFKA_BACKOFF_MS, default 1000. */
  kafkaBackoffMs: S.RAGMETER_KAFKA_BACKOFF_MS.type,
  /** Retry-After value on 429/503, in seconds. Env RAGMETER_COLLECTOR_RETRY_AFTER_SECONDS, default 2. */
  retryAfterSeconds: S.RAGMETER_COLLECTOR_RETRY_AFTER_SECONDS.type,
  /**
   * Idempotent producer (one produce call at a time with group commit; the producer is replaced
   * after a failure, so no sequence errors across a broker restart). Measured (with the client the
   * collector had before @platformatic/kafka) faster than the non-idempotent producer with 4
   * concurrent produce calls.
   * Env RAGMETER_KAFKA_IDEMPOTENT, default true.
   */
  idempotent: S.RAGMETER_KAFKA_IDEMPOTENT.type,
  /** Kafka client id. Env RAGMETER_KAFKA_CLIENT_ID, default ragmeter-collector. */
  clientId: S.RAGMETER_KAFKA_CLIENT_ID.type,
  /** Longest graceful shutdown, in ms. Env RAGMETER_COLLECTOR_SHUTDOWN_TIMEOUT_MS, default 15000. */
  shutdownTimeoutMs: S.RAGMETER_COLLECTOR_SHUTDOWN_TIMEOUT_MS.type,
  /** Create the topic and `<topic>.dlq` when they do not exist (else wait for them, answering 503 naming the topic). Env RAGMETER_KAFKA_CREATE_TOPICS, default true. */
  createTopics: S.RAGMETER_KAFKA_CREATE_TOPICS.type,
  /** Partitions of topics the collector creates. Env RAGMETER_KAFKA_TOPIC_PARTITIONS, default 3. */
  topicPartitions: S.RAGMETER_KAFKA_TOPIC_PARTITIONS.type,
  /**
   * Worker processes (Node cluster, one listening socket shared by all), each with its own Kafka
   * producer and an equal share of maxInflightBytes; 1 = one process, no cluster; `auto` = the
   * available cores. Env RAGMETER_COLLECTOR_WORKERS, default 1: measured with bench:peer on a 2-core
   * machine that also runs the broker, 2 workers accepted fewer spans/s at 1 and 8 clients than one
   * process (0.30× vs 0.85× the Go collector at 8) and doubled the peak RSS; use more on a host
   * where the collector has cores of its own.
   */
  workers: S.RAGMETER_COLLECTOR_WORKERS.type,
  /**
   * Just before listening, return to the kernel the pages of code and read-only data only the start
   * touched (@ragmeter/runtime releaseStartupPages; figures in bench/README.md, "Runtime tuning").
   * Env RAGMETER_RELEASE_STARTUP_PAGES, default true.
   */
  releaseStartupPages: S.RAGMETER_RELEASE_STARTUP_PAGES.type,
  /**
   * Runtime tuning of the process (@ragmeter/runtime runtimeTuning): with it off, no startup page is
   * released whatever releaseStartupPages says. Env RAGMETER_RUNTIME_TUNING, default on (design §10).
   */
  runtimeTuning: S.RAGMETER_RUNTIME_TUNING.type,
  /** Log level. Env RAGMETER_LOG_LEVEL, default info. */
  logLevel: S.RAGMETER_LOG_LEVEL.type,
});

const SETTING_BY_NAME = new Map(ALL_SETTINGS.map((s) => [s.name, s]));

/** Validated collector configuration. */
export type CollectorConfig = z.infer<typeof collectorConfigSchema>;

/** The limits of one export request (@ragmeter/otlp's OtlpLimits) from the configuration. */
export function limitsOf(config: Pick<CollectorConfig, "maxItemsPerRequest" | "maxAttributes" | "maxValueBytes" | "maxValueDepth">): OtlpLimits {
  return { maxItems: config.maxItemsPerRequest, maxAttributes: config.maxAttributes, maxValueBytes: config.maxValueBytes, maxDepth: config.maxValueDepth };
}

/** Flags a CLI may pass; each wins over its environment variable. */
export type CollectorFlags = Partial<z.input<typeof collectorConfigSchema>>;

/**
 * Environment variable of each setting (`security` is several variables, read by the shared Kafka
 * settings: @ragmeter/kafka's KAFKA_ENV).
 */
export const COLLECTOR_ENV: Record<Exclude<keyof CollectorConfig, "security">, string> = {
  host: "RAGMETER_COLLECTOR_HOST",
  port: "RAGMETER_COLLECTOR_PORT",
  brokers: "KAFKA_BROKERS",
  topic: "RAGMETER_TOPIC",
  token: "RAGMETER_COLLECTOR_TOKEN",
  tlsCertFile: "RAGMETER_TLS_CERT_FILE",
  tlsKeyFile: "RAGMETER_TLS_KEY_FILE",
  bodyLimitBytes: "RAGMETER_COLLECTOR_BODY_LIMIT_BYTES",
  maxInflightBytes: "RAGMETER_COLLECTOR_MAX_INFLIGHT_BYTES",
  maxItemsPerRequest: "RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST",
  maxAttributes: "RAGMETER_OTLP_MAX_ATTRIBUTES",
  maxValueBytes: "RAGMETER_OTLP_MAX_VALUE_BYTES",
  maxValueDepth: "RAGMETER_OTLP_MAX_VALUE_DEPTH",
  maxMessageBytes: "RAGMETER_KAFKA_MAX_MESSAGE_BYTES",
  sendTimeoutMs: "RAGMETER_KAFKA_SEND_TIMEOUT_MS",
  kafkaBackoffMs: "RAGMETER_KAFKA_BACKOFF_MS",
  retryAfterSeconds: "RAGMETER_COLLECTOR_RETRY_AFTER_SECONDS",
  idempotent: "RAGMETER_KAFKA_IDEMPOTENT",
  clientId: "RAGMETER_KAFKA_CLIENT_ID",
  shutdownTimeoutMs: "RAGMETER_COLLECTOR_SHUTDOWN_TIMEOUT_MS",
  createTopics: "RAGMETER_KAFKA_CREATE_TOPICS",
  topicPartitions: "RAGMETER_KAFKA_TOPIC_PARTITIONS",
  workers: "RAGMETER_COLLECTOR_WORKERS",
  releaseStartupPages: "RAGMETER_RELEASE_STARTUP_PAGES",
  runtimeTuning: "RAGMETER_RUNTIME_TUNING",
  logLevel: "RAGMETER_LOG_LEVEL",
};

/**
 * Builds the configuration: each flag wins over its environment variable (see {@link COLLECTOR_ENV}),
 * which wins over the default. Empty environment values count as unset; a deprecated name of a
 * variable is read when the variable is unset, with one warning through `warn`.
 * @throws CollectorConfigError naming each invalid setting and where it came from
 */
export function loadCollectorConfig(
  env: Record<string, string | undefined> = process.env,
  flags: CollectorFlags = {},
  warn: (line: string) => void = (line) => process.emitWarning(line, "DeprecationWarning"),
): CollectorConfig {
  const raw: Record<string, unknown> = {};
  const source: Record<string, string> = {};
  const issues: string[] = [];
  readSharedKafka(env, flags, raw, issues);
  readOwnSettings(env, flags, warn, raw, source);
  const r = collectorConfigSchema.safeParse(raw);
  if (!r.success) {
    issues.push(
      ...r.error.issues.map((i) => {
        const key = String(i.path[0] ?? "");
        return `${source[key] ?? key}: ${i.message}`;
      }),
    );
  }
  if (r.success) issues.push(...tlsIssues(r.data));
  if (issues.length > 0 || !r.success) throw new CollectorConfigError(issues);
  return r.data;
}

/**
 * Brokers, topic and security: the settings the scorer shares, read by their one schema into `raw`
 * (a flag stands in for its variable there); their problems go to `issues`.
 */
function readSharedKafka(env: Record<string, string | undefined>, flags: CollectorFlags, raw: Record<string, unknown>, issues: string[]): void {
  const shared: Record<string, string | undefined> = { ...env };
  const flagOf: Record<string, string> = {};
  if (flags.brokers !== undefined) {
    shared["KAFKA_BROKERS"] = Array.isArray(flags.brokers) ? flags.brokers.join(",") : flags.brokers;
    flagOf["KAFKA_BROKERS"] = "flag --brokers";
  }
  if (flags.topic !== undefined) {
    shared["RAGMETER_TOPIC"] = flags.topic;
    flagOf["RAGMETER_TOPIC"] = "flag --topic";
  }
  try {
    const kafka = loadKafkaEnv(shared, flagOf);
    if (kafka.brokers !== undefined) raw["brokers"] = kafka.brokers;
    raw["topic"] = kafka.topic;
    raw["security"] = kafka.security;
  } catch (err) {
    if (!(err instanceof KafkaConfigError)) throw err;
    issues.push(...err.issues.map((i) => `${i.setting}: ${i.message}`));
  }
}

/**
 * The other settings into `raw`: flag, then the variable (or a deprecated name of it, with one
 * warning); `source` names where each value came from.
 */
function readOwnSettings(
  env: Record<string, string | undefined>,
  flags: CollectorFlags,
  warn: (line: string) => void,
  raw: Record<string, unknown>,
  source: Record<string, string>,
): void {
  const keys = (Object.keys(COLLECTOR_ENV) as (keyof typeof COLLECTOR_ENV)[]).filter((k) => k !== "brokers" && k !== "topic");
  const settings: Setting[] = keys.map((k) => SETTING_BY_NAME.get(COLLECTOR_ENV[k]) as Setting);
  const flagValues = Object.fromEntries(keys.map((k) => [COLLECTOR_ENV[k], { value: flags[k], flag: `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` }]));
  const read = rawSettings(settings, env, flagValues);
  for (const w of read.warnings) warn(w);
  for (const k of keys) {
    const name = COLLECTOR_ENV[k];
    const src = read.sources[name];
    if (name in read.raw) raw[k] = read.raw[name];
    if (src?.kind === "flag") source[k] = `flag ${src.flag}`;
    else if (src?.kind === "environment") source[k] = src.variable;
  }
}

/** The TLS files: both or neither, readable, a certificate and its key (one line each, naming the setting). */
function tlsIssues(config: CollectorConfig): string[] {
  try {
    const files = tlsFilesOf(config.tlsCertFile, config.tlsKeyFile);
    if (files !== null) readTlsMaterial(files);
    return [];
  } catch (err) {
    if (!(err instanceof TlsSettingsError)) throw err;
    return [...err.issues];
  }
}
