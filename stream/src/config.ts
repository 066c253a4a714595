import { ConfigError } from "@ragmeter/core/domain/errors";
import type { HourlyCap } from "@ragmeter/core/scoring/budget";
import { KafkaConfigError, type KafkaSecurity, loadKafkaEnv } from "@ragmeter/kafka";
import type { OtlpLimits, Signal } from "@ragmeter/otlp";
import { rawSettings, type SCORER_SOURCES, SETTINGS, schemaOf } from "@ragmeter/runtime";
import type { z } from "zod";
import type { WriteBatchLimits } from "./writeBatcher.js";

/**
 * What writes the topics the scorer reads: ragmeter's collector (`ragmeter.spans`, header
 * `ragmeter-signal`) or the OpenTelemetry Collector's Kafka exporter (`otlp_spans` and
 * `otlp_logs`, encoding `otlp_proto`, no ragmeter headers: the topic names the signal).
 */
type Source = (typeof SCORER_SOURCES)[number];

/**
 * Settings of the streaming scorer (design §10), built from the one settings catalog
 * (@ragmeter/runtime): quiet window, live sampling, group, topics. Validated once; flags win over
 * these. The Kafka connection (brokers, topic, TLS, SASL) is read by @ragmeter/kafka's schema,
 * which adds the checks across its variables ({@link loadStreamConfig}).
 */
const STREAM_SETTINGS = [
  SETTINGS.RAGMETER_QUIET_MS,
  SETTINGS.RAGMETER_LIVE_SAMPLE_RATE,
  SETTINGS.RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE,
  SETTINGS.RAGMETER_JUDGE_CALLS_PER_HOUR,
  SETTINGS.RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE,
  SETTINGS.RAGMETER_JUDGE_TOKENS_PER_HOUR,
  SETTINGS.RAGMETER_JUDGE_TOKENS_PER_HOUR_BY_SERVICE,
  SETTINGS.RAGMETER_SCORER_GROUP,
  SETTINGS.RAGMETER_KAFKA_SESSION_TIMEOUT_MS,
  SETTINGS.RAGMETER_SCORER_CONCURRENCY,
  SETTINGS.RAGMETER_SOURCE,
  SETTINGS.RAGMETER_OTLP_SPANS_TOPIC,
  SETTINGS.RAGMETER_OTLP_LOGS_TOPIC,
  SETTINGS.RAGMETER_KAFKA_CREATE_TOPICS,
  SETTINGS.RAGMETER_KAFKA_TOPIC_PARTITIONS,
  SETTINGS.RAGMETER_SCORER_MAX_PENDING,
  SETTINGS.RAGMETER_SCORER_HEAP_GROWTH_PERCENT,
  SETTINGS.RAGMETER_SCORER_WRITE_MAX_SPANS,
  SETTINGS.RAGMETER_SCORER_WRITE_MAX_BYTES,
  SETTINGS.RAGMETER_SCORER_WRITE_MAX_WAIT_MS,
  SETTINGS.RAGMETER_SCORER_WRITE_GAP_MS,
  SETTINGS.RAGMETER_SCORER_BATCH_MAX_WAIT_MS,
  SETTINGS.RAGMETER_JUDGE_THREAD,
  SETTINGS.RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST,
  SETTINGS.RAGMETER_OTLP_MAX_ATTRIBUTES,
  SETTINGS.RAGMETER_OTLP_MAX_VALUE_BYTES,
  SETTINGS.RAGMETER_OTLP_MAX_VALUE_DEPTH,
] as const;
const streamEnvSchema = schemaOf(STREAM_SETTINGS);
type StreamEnv = z.infer<typeof streamEnvSchema>;

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
  /** Per-service overrides of `liveSampleRate` (`RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE`). */
  readonly liveSampleRates?: Readonly<Record<string, number>>;
  /** The judge budget of live traffic per service and hour (`RAGMETER_JUDGE_CALLS_PER_HOUR`, `_TOKENS_PER_HOUR` and their `_BY_SERVICE`). */
  readonly judgeBudget?: { readonly calls: HourlyCap; readonly tokens: HourlyCap };
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
  /** Bounds of the work of one record (the RAGMETER_OTLP_MAX_* settings; default @ragmeter/otlp's DEFAULT_OTLP_LIMITS). */
  readonly limits?: OtlpLimits;
  /** Bounds of one span write (`RAGMETER_SCORER_WRITE_MAX_SPANS`, `_MAX_BYTES`, `_MAX_WAIT_MS`, `_GAP_MS`; default @ragmeter/runtime's SCORER_WRITE_BATCH). */
  readonly writeBatch?: WriteBatchLimits;
  /** How long a due trace waits at most for others to share its scoring batch, ms (`RAGMETER_SCORER_BATCH_MAX_WAIT_MS`; default 0 here, the setting's default where the CLI reads it). */
  readonly batchWaitMs?: number;
  /** The heuristic judge on a thread of its own (`RAGMETER_JUDGE_THREAD`, default on where the CLI reads it). */
  readonly judgeThread?: boolean;
}

/**
 * Parses the streaming environment.
 * @throws ConfigError naming the variable.
 */
export function loadStreamConfig(
  env: NodeJS.ProcessEnv,
  flags: { brokers?: string; quietMs?: number; source?: string } = {},
  warn: (line: string) => void = (line) => process.emitWarning(line, "DeprecationWarning"),
): StreamConfig {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  if (flags.brokers !== undefined) raw["KAFKA_BROKERS"] = flags.brokers;
  const kafka = kafkaSettings(raw, flags.brokers !== undefined);
  const e = streamSettings(raw, flags, warn);
  return {
    brokers: kafka.brokers ?? null,
    security: kafka.security,
    topic: kafka.topic,
    quietMs: e.RAGMETER_QUIET_MS,
    liveSampleRate: e.RAGMETER_LIVE_SAMPLE_RATE,
    liveSampleRates: e.RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE ?? {},
    judgeBudget: {
      calls: { perService: e.RAGMETER_JUDGE_CALLS_PER_HOUR ?? null, byService: e.RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE ?? {} },
      tokens: { perService: e.RAGMETER_JUDGE_TOKENS_PER_HOUR ?? null, byService: e.RAGMETER_JUDGE_TOKENS_PER_HOUR_BY_SERVICE ?? {} },
    },
    groupId: e.RAGMETER_SCORER_GROUP,
    sessionTimeoutMs: e.RAGMETER_KAFKA_SESSION_TIMEOUT_MS,
    concurrency: e.RAGMETER_SCORER_CONCURRENCY,
    source: e.RAGMETER_SOURCE,
    topics: topicsOf(e, kafka.topic),
    createTopics: e.RAGMETER_KAFKA_CREATE_TOPICS,
    partitions: e.RAGMETER_KAFKA_TOPIC_PARTITIONS,
    maxPending: e.RAGMETER_SCORER_MAX_PENDING,
    heapGrowthPercent: e.RAGMETER_SCORER_HEAP_GROWTH_PERCENT,
    batchWaitMs: e.RAGMETER_SCORER_BATCH_MAX_WAIT_MS,
    judgeThread: e.RAGMETER_JUDGE_THREAD,
    writeBatch: {
      maxCount: e.RAGMETER_SCORER_WRITE_MAX_SPANS,
      maxBytes: e.RAGMETER_SCORER_WRITE_MAX_BYTES,
      maxWaitMs: e.RAGMETER_SCORER_WRITE_MAX_WAIT_MS,
      gapMs: e.RAGMETER_SCORER_WRITE_GAP_MS,
    },
    limits: {
      maxItems: e.RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST,
      maxAttributes: e.RAGMETER_OTLP_MAX_ATTRIBUTES,
      maxValueBytes: e.RAGMETER_OTLP_MAX_VALUE_BYTES,
      maxDepth: e.RAGMETER_OTLP_MAX_VALUE_DEPTH,
    },
  };
}

/**
 * The Kafka settings (brokers, security, topic), `KAFKA_BROKERS` from the --brokers flag when given.
 * @throws ConfigError naming the flag or variable.
 */
function kafkaSettings(raw: Record<string, string | undefined>, brokersFlag: boolean): ReturnType<typeof loadKafkaEnv> {
  try {
    return loadKafkaEnv(raw, brokersFlag ? { KAFKA_BROKERS: "flag --brokers" } : {});
  } catch (err) {
    if (!(err instanceof KafkaConfigError)) throw err;
    const i = err.issues[0];
    const where = i?.setting.startsWith("flag ") ? i.setting : `environment variable ${i?.setting}`;
    throw new ConfigError(`${where}: ${i?.message ?? "invalid"}`);
  }
}

/**
 * The stream's own settings (the flags win over their variables), deprecation warnings given to `warn`.
 * @throws ConfigError naming the flag or variable.
 */
function streamSettings(raw: Record<string, string | undefined>, flags: { quietMs?: number; source?: string }, warn: (line: string) => void): StreamEnv {
  const settings = rawSettings(STREAM_SETTINGS, raw, {
    RAGMETER_QUIET_MS: { value: flags.quietMs, flag: "--quiet-ms" },
    RAGMETER_SOURCE: { value: flags.source, flag: "--source" },
  });
  for (const w of settings.warnings) warn(w);
  const p = streamEnvSchema.safeParse(settings.raw);
  if (p.success) return p.data;
  const i = p.error.issues[0];
  const src = settings.sources[String(i?.path[0])];
  const where = src?.kind === "flag" ? `flag ${src.flag}` : src?.kind === "environment" ? `environment variable ${src.variable}` : String(i?.path[0]);
  throw new ConfigError(`${where}: ${i?.message ?? "invalid"}`);
}

/** The topics consumed: the collector's OTLP spans and logs topics (`otelcol`), else the ragmeter topic with the signal in each record's header. */
function topicsOf(e: StreamEnv, topic: string): SourceTopic[] {
  if (e.RAGMETER_SOURCE !== "otelcol") return [{ topic, signal: null }];
  return [
    { topic: e.RAGMETER_OTLP_SPANS_TOPIC, signal: "traces" },
    { topic: e.RAGMETER_OTLP_LOGS_TOPIC, signal: "logs" },
  ];
}
