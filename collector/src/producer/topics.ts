/**
 * The sink's topics: checked once before the first send (and again after Kafka says the topic is
 * gone). Missing ones are created when allowed; otherwise sends answer TopicMissingError until they exist.
 */
import { type KafkaAdmin, setUpTopics } from "@ragmeter/kafka";
import { deadLetterTopic } from "@ragmeter/otlp";
import type { PinoLogger } from "@ragmeter/runtime";
import type { CollectorConfig } from "../config.js";
import { KafkaUnavailableError, TopicMissingError } from "../errors.js";
import type { AdminHolder } from "./admin.js";
import { withDeadline } from "./deadline.js";

export interface TopicGuard {
  /** Checks (and, when allowed, creates) the topics; concurrent calls share one check. */
  ensure(): Promise<void>;
  /** True once a check passed, until `forget()`. */
  ok(): boolean;
  /** Kafka said the topic is unknown: check again before the next send. */
  forget(): void;
  /** `Date.now()` of the last check that found the topic missing (0: none). */
  missingSince(): number;
}

type TopicConfig = Pick<CollectorConfig, "topic" | "createTopics" | "topicPartitions" | "sendTimeoutMs">;

/** Sets up `topics` (creating them when allowed) and fails unless every partition has a leader. */
async function setUp(a: KafkaAdmin, topics: string[], config: TopicConfig, logger: PinoLogger): Promise<void> {
  const r = await withDeadline(
    setUpTopics(a, topics, { create: config.createTopics, partitions: config.topicPartitions, leaderTimeoutMs: config.sendTimeoutMs }),
    2 * config.sendTimeoutMs,
    "set up the topics",
  );
  if (r.created.length > 0) logger.info({ topics: r.created, partitions: config.topicPartitions }, `created Kafka topic${r.created.length > 1 ? "s" : ""} ${r.created.join(", ")}`);
  if (r.refused !== undefined) throw r.refused.error;
  // A topic just created (here, or by a sibling cluster worker a moment ago) may still have partitions without a leader: a send now would fail (503).
  if (r.leaderless.length > 0) throw new KafkaUnavailableError(`partitions of ${r.leaderless.join(", ")} have no leader after ${config.sendTimeoutMs} ms`);
}

export function createTopicGuard(config: TopicConfig, logger: PinoLogger, admin: AdminHolder, explain: (err: unknown) => string): TopicGuard {
  let topicsOk = false;
  let topicCheck: Promise<void> | undefined;
  let missingSince = 0;
  let missingLogged = 0;

  /** The topic is missing and may not be created: warns at most every 30 s and throws. */
  const missing = (): never => {
    if (Date.now() - missingLogged > 30_000) {
      missingLogged = Date.now();
      logger.warn({ topic: config.topic }, `Kafka topic ${config.topic} does not exist; waiting for it (RAGMETER_KAFKA_CREATE_TOPICS=false)`);
    }
    missingSince = Date.now();
    throw new TopicMissingError(config.topic);
  };

  const check = async (): Promise<void> => {
    const a = admin.get();
    const existing = new Set(await withDeadline(a.listTopics(), config.sendTimeoutMs, "list its topics"));
    const dlq = deadLetterTopic(config.topic);
    if (!existing.has(config.topic) && !config.createTopics) missing();
    if (!existing.has(config.topic)) await setUp(a, config.createTopics ? [config.topic, dlq] : [config.topic], config, logger);
    else {
      await setUp(a, [config.topic], config, logger);
      // Only the dead-letter topic is missing (the scorer writes it): sends need not wait for it.
      if (config.createTopics && !existing.has(dlq)) void setUp(a, [dlq], config, logger).catch((err: unknown) => logger.warn({ error: explain(err) }, `could not create ${dlq}`));
    }
    topicsOk = true;
  };

  return {
    ensure() {
      topicCheck ??= check()
        .catch((err: unknown) => {
          if (!(err instanceof TopicMissingError)) admin.drop(); // reconnect on the next check
          throw err;
        })
        .finally(() => {
          topicCheck = undefined;
        });
      return topicCheck;
    },
    ok: () => topicsOk,
    forget() {
      topicsOk = false;
    },
    missingSince: () => missingSince,
  };
}
