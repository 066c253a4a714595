/**
 * The Kafka settings shared by the collector and the scorer, validated by one zod piece
 * (design §12): `KAFKA_BROKERS` (comma-separated host:port) and `RAGMETER_TOPIC`.
 */
import * as z from "zod"; // a namespace import lets a bundler drop what is not used (the locales, JSON Schema): collector bundle −430 KiB

/** Default topic of spans and log events. */
export const DEFAULT_TOPIC = "ragmeter.spans";

/** Broker list: `a:9092,b:9092` or an array of `host:port`; at least one. */
export const brokerListSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(",")).map((s) => s.trim()).filter((s) => s !== ""))
  .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/u, "must be host:port")).min(1, "needs at least one host:port"));

/** Topic name (non-empty). */
export const topicSchema = z.string().min(1);

/** The shared Kafka environment: `KAFKA_BROKERS` (optional here; each process picks its default) and `RAGMETER_TOPIC`. */
export const kafkaEnvSchema = z.object({
  KAFKA_BROKERS: brokerListSchema.optional(),
  RAGMETER_TOPIC: topicSchema.default(DEFAULT_TOPIC),
});

/** Validated shared Kafka environment. */
export type KafkaEnv = z.infer<typeof kafkaEnvSchema>;
