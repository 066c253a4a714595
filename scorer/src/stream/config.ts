import { KafkaConfigError, type KafkaSecurity, loadKafkaEnv } from "@ragmeter/kafka";
import type { Signal } from "@ragmeter/otlp";
import { HEAP_GROWTH_PERCENT } from "@ragmeter/runtime";
import { z } from "zod";
import { ConfigError } from "../domain/errors.js";

/**
 * What writes the topics the scorer reads: ragmeter's collector (`ragmeter.spans`, header
 * `ragmeter-signal`) or the OpenTelemetry Collector's Kafka exporter (`otlp_spans` and
 * `otlp_logs`, encoding `otlp_proto`, no ragmeter headers: the topic names the signal).
 */
const SOURCES = ["ragmeter", "otelcol"] as const;
/** See {@link SOURCES}. */
type Source = (typeof SOURCES)[number];

/**
 * Environment of the streaming scorer (design §10): quiet window, live sampling, group, topics.
 * Validated once; flags win over these. The Kafka connection (brokers, topic, TLS, SASL) is the
 * settings the collector shares, read by @ragmeter/kafka's one schema ({@link loadStreamConfig}).
 */
const streamEnvSchema = z.object({
  RAGMETER_QUIET_MS: z.coerce.number().int().min(0).default(5000),
  RAGMETER_LIVE_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(1),
  RAGMETER_SCORER_GROUP: z.string().min(1).default("ragmeter-scorer"),
  RAGMETER_KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  RAGMETER_SCORER_CONCURRENCY: z.coerce.number().int().min(1).default(8),
  RAGMETER_SOURCE: z.enum(SOURCES).default("ragmeter"),
  RAGMETER_OTLP_SPANS_TOPIC: z.string().min(1).default("otlp_spans"),
  RAGMETER_OTLP_LOGS_TOPIC: z.string().min(1).default("otlp_logs"),
  RAGMETER_CREATE_TOPICS: z
    .enum(["1", "0", "true", "false"], { message: "must be 1, 0, true or false" })
    .default("1")
    .transform((v) => v === "1" || v === "true"),
  RAGMETER_TOPIC_PARTITIONS: z.coerce.number().int().min(1).default(3),
  RAGMETER_SCORER_MAX_PENDING: z.coerce.number().int().min(1).default(50_000),
  RAGMETER_SCORER_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(1000).default(HEAP_GROWTH_PERCENT),
});

/** A topic the scorer consumes; `signal` null = read from the record's `ragmeter-signal` header. */
interface SourceTopic {
  readonly topic: string;
  readonly signal: Signal | null;
}

/** Validated streaming settings. */
export interface StreamConfig {
  /** Kafka bootstrap servers; null when `KAFKA_BROKERS` is unset (in-process hand-off in `serve`). */
  readonly brokers: readonly string[] | null;
  /** How to reach them (TLS, SASL); default PLAINTEXT. */
  readonly security?: KafkaSecurity;
  readonly topic: string;
  readonly quietMs: number;
  readonly liveSampleRate: number;
  readonly groupId: string;
  readonly sessionTimeoutMs: number;
  readonly concurrency: number;
  /** Who writes the topics (default `ragmeter`). */
  readonly source?: Source;
  /** The topics consumed (default: `topic`, signal from the header). */
  readonly topics?: readonly SourceTopic[];
  /** Create missing topics (default true) with `partitions` partitions (default 3); otherwise wait. */
  readonly createTopics?: boolean;
  readonly partitions?: number;
  /** Traces written and not yet scored at which consumption pauses (default 50,000). */
  readonly maxPending?: number;
  /**
   * V8 heap growth past the live set, percent (`RAGMETER_SCORER_HEAP_GROWTH_PERCENT`, default
   * @ragmeter/runtime HEAP_GROWTH_PERCENT; 0 = V8's own), applied when runtime tuning is on.
   */
  readonly heapGrowthPercent?: number;
}

/**
 * Parses the streaming environment.
 * @throws ConfigError naming the variable.
 */
export function loadStreamConfig(env: NodeJS.ProcessEnv, flags: { brokers?: string; quietMs?: number; source?: string } = {}): StreamConfig {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  if (flags.brokers !== undefined) raw["KAFKA_BROKERS"] = flags.brokers;
  if (flags.quietMs !== undefined) raw["RAGMETER_QUIET_MS"] = String(flags.quietMs);
  if (flags.source !== undefined) raw["RAGMETER_SOURCE"] = flags.source;
  let kafka: ReturnType<typeof loadKafkaEnv>;
  try {
    kafka = loadKafkaEnv(raw, flags.brokers !== undefined ? { KAFKA_BROKERS: "flag --brokers" } : {});
  } catch (err) {
    if (!(err instanceof KafkaConfigError)) throw err;
    const i = err.issues[0];
    const where = i?.setting.startsWith("flag ") ? i.setting : `environment variable ${i?.setting}`;
    throw new ConfigError(`${where}: ${i?.message ?? "invalid"}`);
  }
  const p = streamEnvSchema.safeParse(raw);
  if (!p.success) {
    const i = p.error.issues[0];
    const name = String(i?.path[0]);
    const where = name === "RAGMETER_SOURCE" && flags.source !== undefined ? "flag --source" : `environment variable ${name}`;
    throw new ConfigError(`${where}: ${i?.message ?? "invalid"}`);
  }
  const e = p.data;
  return {
    brokers: kafka.brokers ?? null,
    security: kafka.security,
    topic: kafka.topic,
    quietMs: e.RAGMETER_QUIET_MS,
    liveSampleRate: e.RAGMETER_LIVE_SAMPLE_RATE,
    groupId: e.RAGMETER_SCORER_GROUP,
    sessionTimeoutMs: e.RAGMETER_KAFKA_SESSION_TIMEOUT_MS,
    concurrency: e.RAGMETER_SCORER_CONCURRENCY,
    source: e.RAGMETER_SOURCE,
    topics:
      e.RAGMETER_SOURCE === "otelcol"
        ? [
            { topic: e.RAGMETER_OTLP_SPANS_TOPIC, signal: "traces" },
            { topic: e.RAGMETER_OTLP_LOGS_TOPIC, signal: "logs" },
          ]
        : [{ topic: kafka.topic, signal: null }],
    createTopics: e.RAGMETER_CREATE_TOPICS,
    partitions: e.RAGMETER_TOPIC_PARTITIONS,
    maxPending: e.RAGMETER_SCORER_MAX_PENDING,
    heapGrowthPercent: e.RAGMETER_SCORER_HEAP_GROWTH_PERCENT,
  };
}
