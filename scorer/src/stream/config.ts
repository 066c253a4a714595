import { kafkaEnvSchema } from "@ragmeter/otlp";
import { z } from "zod";
import { ConfigError } from "../domain/errors.js";

/**
 * Environment of the streaming scorer (design §10): Kafka, quiet window, live sampling. Validated
 * once; flags win over these.
 */
export const streamEnvSchema = kafkaEnvSchema.extend({
  RAGMETER_QUIET_MS: z.coerce.number().int().min(0).default(5000),
  RAGMETER_LIVE_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(1),
  RAGMETER_SCORER_GROUP: z.string().min(1).default("ragmeter-scorer"),
  RAGMETER_KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  RAGMETER_SCORER_CONCURRENCY: z.coerce.number().int().min(1).default(8),
});

/** Validated streaming settings. */
export interface StreamConfig {
  /** Kafka bootstrap servers; null when `KAFKA_BROKERS` is unset (in-process hand-off in `serve`). */
  readonly brokers: readonly string[] | null;
  readonly topic: string;
  readonly quietMs: number;
  readonly liveSampleRate: number;
  readonly groupId: string;
  readonly sessionTimeoutMs: number;
  readonly concurrency: number;
}

/**
 * Parses the streaming environment.
 * @throws ConfigError naming the variable.
 */
export function loadStreamConfig(env: NodeJS.ProcessEnv, flags: { brokers?: string; quietMs?: number } = {}): StreamConfig {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  if (flags.brokers !== undefined) raw["KAFKA_BROKERS"] = flags.brokers;
  if (flags.quietMs !== undefined) raw["RAGMETER_QUIET_MS"] = String(flags.quietMs);
  const p = streamEnvSchema.safeParse(raw);
  if (!p.success) {
    const i = p.error.issues[0];
    throw new ConfigError(`environment variable ${String(i?.path[0])}: ${i?.message ?? "invalid"}`);
  }
  const e = p.data;
  return {
    brokers: e.KAFKA_BROKERS ?? null,
    topic: e.RAGMETER_TOPIC,
    quietMs: e.RAGMETER_QUIET_MS,
    liveSampleRate: e.RAGMETER_LIVE_SAMPLE_RATE,
    groupId: e.RAGMETER_SCORER_GROUP,
    sessionTimeoutMs: e.RAGMETER_KAFKA_SESSION_TIMEOUT_MS,
    concurrency: e.RAGMETER_SCORER_CONCURRENCY,
  };
}
