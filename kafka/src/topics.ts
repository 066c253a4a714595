/**
 * Topic setup, the one place ragmeter creates topics (the collector, the scorer and the local
 * broker script all come here): missing topics are created when allowed, and a topic counts as
 * ready once every partition has a leader — a send or a subscription to a topic created a moment
 * ago fails before that ("does not host this topic-partition").
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Admin } from "@platformatic/kafka";
import { isTopicExists } from "./errors.js";

/** What one {@link setUpTopics} pass found and did. */
export interface TopicSetup {
  /** Topics that do not exist (not allowed to create them, or the creation was refused). */
  readonly missing: readonly string[];
  /** Topics that exist but have a partition without a leader after the wait. */
  readonly leaderless: readonly string[];
  /** Topics this pass created. */
  readonly created: readonly string[];
  /** The creation the broker refused (no permission, a policy), with its error; absent otherwise. */
  readonly refused?: { readonly topics: readonly string[]; readonly error: unknown };
}

/** Options of {@link setUpTopics}. */
export interface TopicSetupOptions {
  /** Create the topics that do not exist. */
  readonly create: boolean;
  /** Partitions of a topic created here. */
  readonly partitions: number;
  /** Longest wait for the partitions' leaders, ms. */
  readonly leaderTimeoutMs: number;
}

/** Topics of `topics` whose every partition has a leader, waiting up to `timeoutMs` for the rest. */
async function withLeaders(admin: Admin, topics: readonly string[], timeoutMs: number): Promise<Set<string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = topics.length === 0 ? undefined : await admin.metadata({ topics: [...topics], forceUpdate: true }).catch(() => undefined);
    const ready = new Set(
      topics.filter((t) => {
        const parts = m?.topics.get(t)?.partitions ?? [];
        return parts.length > 0 && parts.every((p) => p.leader >= 0);
      }),
    );
    if (ready.size === topics.length || Date.now() >= deadline) return ready;
    await sleep(100);
  }
}

/**
 * One pass: lists the topics, creates the missing ones when `create` (another process creating
 * one at the same moment is fine), and waits, bounded, for the leaders of those that exist.
 * @throws the client's error when the broker cannot be reached (listing the topics failed)
 */
export async function setUpTopics(admin: Admin, topics: readonly string[], o: TopicSetupOptions): Promise<TopicSetup> {
  const existing = new Set(await admin.listTopics());
  const absent = topics.filter((t) => !existing.has(t));
  let created: string[] = [];
  let refused: TopicSetup["refused"];
  if (absent.length > 0 && o.create) {
    try {
      await admin.createTopics({ topics: absent, partitions: o.partitions });
      created = absent;
    } catch (err) {
      // Another process (a sibling collector worker, a second scorer) created one meanwhile: fine.
      if (!isTopicExists(err)) refused = { topics: absent, error: err };
    }
  }
  const present = topics.filter((t) => existing.has(t) || (o.create && refused === undefined));
  const ready = await withLeaders(admin, present, o.leaderTimeoutMs);
  return {
    missing: topics.filter((t) => !present.includes(t)),
    leaderless: present.filter((t) => !ready.has(t)),
    created,
    ...(refused !== undefined ? { refused } : {}),
  };
}

/** How a long-running reader gets its topics: create them or wait for them. */
export interface TopicPolicy {
  /** Create a missing topic (else wait for it). */
  readonly create: boolean;
  /** Partitions of a topic created here. */
  readonly partitions: number;
  /** Poll interval while waiting, ms (default 2000). */
  readonly pollMs?: number;
}

/** Log sink of {@link ensureTopics}. */
export interface TopicLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Makes sure `topics` exist with leaders before a consumer subscribes: creates the missing ones
 * when `policy.create` (logging `created topics`); otherwise — or once the broker refused a
 * creation — waits for them, logging `waiting for topic <names> to exist` whenever the missing set
 * changes, until they exist or `keepWaiting()` turns false.
 * @returns true when every topic is ready, false when waiting was given up
 */
export async function ensureTopics(admin: Admin, topics: readonly string[], policy: TopicPolicy, log: TopicLogger, keepWaiting: () => boolean = () => true): Promise<boolean> {
  let create = policy.create;
  let announced = "";
  for (;;) {
    const r = await setUpTopics(admin, topics, { create, partitions: policy.partitions, leaderTimeoutMs: 10_000 });
    if (r.created.length > 0) log.info("created topics", { topics: r.created, partitions: policy.partitions });
    if (r.refused !== undefined) {
      log.warn("could not create topics; waiting for them instead", { topics: r.refused.topics, error: (r.refused.error as Error).message });
      create = false;
    }
    const waiting = [...r.missing, ...r.leaderless];
    if (waiting.length === 0) return true;
    const names = topics.filter((t) => waiting.includes(t)).join(", ");
    if (names !== announced) {
      log.info(`waiting for topic ${names} to exist`, { topics: waiting });
      announced = names;
    }
    if (!keepWaiting()) return false;
    await sleep(policy.pollMs ?? 2000);
  }
}

/** Low (first kept) and high (next to be written) offsets of each partition of `topic`. */
export async function topicOffsets(admin: Admin, topic: string): Promise<{ partition: number; low: bigint; high: bigint }[]> {
  const m = await admin.metadata({ topics: [topic], forceUpdate: true });
  const count = m.topics.get(topic)?.partitionsCount ?? 0;
  // ListOffsets timestamps: -1 the latest offset, -2 the earliest.
  const at = async (timestamp: bigint): Promise<Map<number, bigint>> => {
    const listed = await admin.listOffsets({ topics: [{ name: topic, partitions: Array.from({ length: count }, (_, partitionIndex) => ({ partitionIndex, timestamp })) }] });
    return new Map((listed[0]?.partitions ?? []).map((p) => [p.partitionIndex, p.offset]));
  };
  const [high, low] = await Promise.all([at(-1n), at(-2n)]);
  return [...high].map(([partition, h]) => ({ partition, low: low.get(partition) ?? 0n, high: h })).sort((a, b) => a.partition - b.partition);
}

/** Offsets the group committed on `topic`, per partition (absent: none committed). */
export async function committedOffsets(admin: Admin, groupId: string, topic: string): Promise<Map<number, bigint>> {
  const groups = await admin.listConsumerGroupOffsets({ groups: [groupId] });
  const out = new Map<number, bigint>();
  for (const t of groups[0]?.topics ?? []) {
    if (t.name !== topic) continue;
    for (const p of t.partitions) if (p.committedOffset >= 0n) out.set(p.partitionIndex, p.committedOffset);
  }
  return out;
}

/** Messages of `topics` the group has not committed yet, over all partitions (a partition with no commit counts from offset 0). */
export async function groupLag(admin: Admin, groupId: string, topics: readonly string[]): Promise<number> {
  let lag = 0n;
  for (const topic of topics) {
    const [high, done] = await Promise.all([topicOffsets(admin, topic), committedOffsets(admin, groupId, topic)]);
    for (const p of high) lag += p.high - (done.get(p.partition) ?? 0n);
  }
  return Number(lag);
}
