import { setTimeout as sleep } from "node:timers/promises";
import type { Admin } from "kafkajs";

/** How the scorer gets the topics it reads and dead-letters to. */
export interface TopicPolicy {
  /** Create a missing topic (`RAGMETER_CREATE_TOPICS`, default on); otherwise wait for it. */
  readonly create: boolean;
  /** Partitions of a topic the scorer creates (`RAGMETER_TOPIC_PARTITIONS`, default 3). */
  readonly partitions: number;
  /** Poll interval while waiting for a topic, ms (default 2000). */
  readonly pollMs?: number;
}

/** Log sink of {@link ensureTopics}. */
interface TopicLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

/** Topics that exist and have a leader for every partition. */
async function readyTopics(admin: Admin, topics: readonly string[]): Promise<Set<string>> {
  const existing = new Set(await admin.listTopics());
  const present = topics.filter((t) => existing.has(t));
  if (present.length === 0) return new Set();
  const meta = await admin.fetchTopicMetadata({ topics: present }).catch(() => ({ topics: [] as { name: string; partitions: { leader: number }[] }[] }));
  return new Set(meta.topics.filter((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0)).map((t) => t.name));
}

/**
 * Makes sure `topics` exist before the consumer subscribes (a subscription to a missing topic
 * fails with "This server does not host this topic-partition"): creates the missing ones with
 * `policy.partitions` partitions when `policy.create` (and the broker allows it), otherwise — or
 * when creation is refused — waits for them, logging the missing topic names, until they exist or
 * `keepWaiting()` turns false.
 * @returns true when every topic is ready, false when waiting was given up.
 */
export async function ensureTopics(admin: Admin, topics: readonly string[], policy: TopicPolicy, log: TopicLogger, keepWaiting: () => boolean = () => true): Promise<boolean> {
  let create = policy.create;
  let announced = "";
  for (;;) {
    const ready = await readyTopics(admin, topics);
    const missing = topics.filter((t) => !ready.has(t));
    if (missing.length === 0) return true;
    if (create) {
      const existing = new Set(await admin.listTopics());
      const absent = missing.filter((t) => !existing.has(t));
      if (absent.length > 0) {
        try {
          await admin.createTopics({ topics: absent.map((topic) => ({ topic, numPartitions: policy.partitions })), waitForLeaders: true });
          log.info("created topics", { topics: absent, partitions: policy.partitions });
        } catch (err) {
          // Another process may have created it meanwhile; anything else (no permission, policy): wait.
          if ((err as { type?: string }).type !== "TOPIC_ALREADY_EXISTS") {
            log.warn("could not create topics; waiting for them instead", { topics: absent, error: (err as Error).message });
            create = false;
          }
        }
        continue;
      }
    }
    const names = missing.join(", ");
    if (names !== announced) {
      log.info(`waiting for topic ${names} to exist`, { topics: missing });
      announced = names;
    }
    if (!keepWaiting()) return false;
    await sleep(policy.pollMs ?? 2000);
  }
}
