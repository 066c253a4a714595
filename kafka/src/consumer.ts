/**
 * A consumer group member that hands over batches of records, one partition at a time, and
 * commits a partition's offset only after the handler has stored the batch (store-then-commit,
 * design §6: at least once, nothing lost by a crash at any point).
 *
 * Rebalances: the client (@platformatic/kafka) rejoins the group by itself and its stream starts
 * each newly assigned partition at the group's committed offset. Records still buffered for a
 * partition this member no longer owns are left to the new owner (not handed over, not
 * committed); records a refetch delivers twice are handed over once (the position of each
 * partition is kept). A handler's failure, or a stream that fails (a broker restart outlasting the
 * client's retries), restarts consumption from the committed offsets, or — with
 * `restartOnFailure: false`, a crash in tests — leaves the group.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Consumer, type Message, type MessagesStream, MessagesStreamFallbackModes, MessagesStreamModes } from "@platformatic/kafka";
import { baseOptions, type ClientTiming } from "./clients.js";
import { explainKafkaError, KafkaError } from "./errors.js";
import type { KafkaConnection } from "./settings.js";

/** One consumed record; header names are text, values bytes (the first value of a repeated name). */
export interface ConsumedRecord {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Readonly<Record<string, Buffer>>;
  readonly offset: bigint;
}

/** Consecutive records of one partition, in offset order. */
export interface PartitionBatch {
  readonly topic: string;
  readonly partition: number;
  readonly records: readonly ConsumedRecord[];
}

/** What a handler may ask while it works on a batch. */
export interface BatchContext {
  /** True while the consumer runs and still owns the batch's partition; a handler retrying a write gives up once it is false. */
  owned(): boolean;
}

/**
 * Stores a batch; resolves only once it is durable. Its offset is committed after it resolves;
 * a rejection is a crash: nothing of the batch is committed and consumption restarts from the
 * committed offsets (or stops, see {@link BatchConsumerSettings.restartOnFailure}).
 */
export type BatchHandler = (batch: PartitionBatch, ctx: BatchContext) => Promise<void>;

/** Log sink of the consumer. */
export interface KafkaLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Settings of {@link startBatchConsumer}. */
export interface BatchConsumerSettings extends ClientTiming {
  readonly clientId: string;
  readonly groupId: string;
  readonly topics: readonly string[];
  /** Session timeout, ms: a member silent this long is dropped from the group. */
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  /** Longest rebalance, ms (default max(2 × session timeout, 10 s)). */
  readonly rebalanceTimeoutMs?: number;
  /** Longest wait of a fetch for new records, ms (default 1000). */
  readonly maxWaitTimeMs?: number;
  /** Largest fetch per partition, bytes (default 1 MiB); a fetch is at most max(10 MiB, 3 × this). */
  readonly maxBytesPerPartition?: number;
  /** Where a group without a committed offset starts: the earliest offset (default) or the latest. */
  readonly fromBeginning?: boolean;
  /** Restart after a failure (default true); off, the member leaves the group, as a crashed one would. */
  readonly restartOnFailure?: boolean;
  /** Most records taken from the stream for one round of batches (default 5000). */
  readonly maxRecordsPerRound?: number;
}

/** A running batch consumer. */
export interface BatchConsumer {
  /** Stops fetching and handing over records (the batch in hand finishes) until {@link resume}. */
  pause(): void;
  resume(): void;
  /** Settles once the consumer has stopped for good: after {@link stop}, or a failure with `restartOnFailure` off. */
  readonly stopped: Promise<void>;
  /** Stops consuming (the batch in hand finishes, or is abandoned uncommitted), commits what is owed, leaves the group. */
  stop(): Promise<void>;
}

type Bytes = Buffer;
type Stream = MessagesStream<Bytes, Bytes, Bytes, Bytes>;
type Record_ = Message<Bytes, Bytes, Bytes, Bytes>;

const key = (topic: string, partition: number): string => `${topic}\u0000${partition}`;

function toRecord(m: Record_): ConsumedRecord {
  const headers: Record<string, Buffer> = {};
  for (const [k, v] of m.headerEntries) {
    const name = k.toString("utf8");
    if (!Object.hasOwn(headers, name)) headers[name] = v;
  }
  return { key: m.key ?? null, value: m.value ?? null, headers, offset: m.offset };
}

/** The records readable now, at most `max`. */
function readRound(st: Stream, max: number): Record_[] {
  const got: Record_[] = [];
  while (got.length < max) {
    const m = st.read() as Record_ | null;
    if (m === null) break;
    got.push(m);
  }
  return got;
}

/** Records grouped by topic and partition (keyed by {@link key}), in their order. */
function byPartition(records: readonly Record_[]): Map<string, Record_[]> {
  const groups = new Map<string, Record_[]>();
  for (const m of records) {
    const k = key(m.topic, m.partition);
    let g = groups.get(k);
    if (g === undefined) {
      g = [];
      groups.set(k, g);
    }
    g.push(m);
  }
  return groups;
}

/**
 * Joins `groupId` on `topics` and hands every record to `handle`, partition by partition, committing
 * after each batch (see the module comment).
 * @throws KafkaError (one line naming the setting to check) when the first join or fetch set-up fails
 */
export async function startBatchConsumer(c: KafkaConnection, s: BatchConsumerSettings, handle: BatchHandler, log: KafkaLogger): Promise<BatchConsumer> {
  const restart = s.restartOnFailure ?? true;
  const perPartition = s.maxBytesPerPartition ?? 1_048_576;
  const consumer = new Consumer<Bytes, Bytes, Bytes, Bytes>({
    ...baseOptions(c, s.clientId, s),
    groupId: s.groupId,
    autocommit: false,
    sessionTimeout: s.sessionTimeoutMs,
    heartbeatInterval: s.heartbeatIntervalMs,
    rebalanceTimeout: s.rebalanceTimeoutMs ?? Math.max(s.sessionTimeoutMs * 2, 10_000),
    maxWaitTime: s.maxWaitTimeMs ?? 1_000,
    maxBytesPerPartition: perPartition,
    maxBytes: Math.max(10_485_760, 3 * perPartition),
  });
  const open = (): Promise<Stream> =>
    consumer.consume({
      topics: [...s.topics],
      mode: MessagesStreamModes.COMMITTED,
      fallbackMode: (s.fromBeginning ?? true) ? MessagesStreamFallbackModes.EARLIEST : MessagesStreamFallbackModes.LATEST,
      autocommit: false,
    });

  let stream: Stream;
  try {
    stream = await open();
  } catch (err) {
    await consumer.close(true).catch(() => {});
    throw KafkaError.from(err, c.security, `cannot consume ${s.topics.join(", ")} in group ${s.groupId}`);
  }

  let running = true;
  let paused = false;
  let streamError: unknown;
  // Wakes the loop: records readable, the stream failed or closed, resume, stop.
  let wakeUp: (() => void) | null = null;
  let woken = false;
  const wake = (): void => {
    woken = true;
    const w = wakeUp;
    wakeUp = null;
    w?.();
  };
  const nap = (ms: number): Promise<void> => {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        wakeUp = null;
        resolve();
      }, ms);
      wakeUp = () => {
        clearTimeout(timer);
        woken = false;
        resolve();
      };
    });
  };
  const attach = (st: Stream): void => {
    st.on("readable", wake);
    st.on("error", (err: unknown) => {
      if (st === stream) streamError = err;
      wake();
    });
    st.on("close", wake);
  };
  attach(stream);
  // The client emits `error` when rejoining the group failed and it stopped heartbeating: the member
  // is out of the group, so the stream is replaced (consuming again joins the group again).
  consumer.on("error", (err: unknown) => {
    streamError = err;
    wake();
  });

  const owns = (topic: string, partition: number): boolean => consumer.assignments?.some((a) => a.topic === topic && a.partitions.includes(partition)) ?? false;
  // Next offset to hand over, per partition: records a refetch after a rebalance delivers again are skipped.
  const position = new Map<string, bigint>();
  // Commits that failed (the next batch of the partition supersedes them; stop() tries them once more).
  const owed = new Map<string, { topic: string; partition: number; offset: bigint; leaderEpoch: number }>();

  const commit = async (o: { topic: string; partition: number; offset: bigint; leaderEpoch: number }): Promise<void> => {
    const k = key(o.topic, o.partition);
    // A commit sent mid-rebalance fails and makes the client rejoin once more: wait for the group to settle.
    const until = Date.now() + s.sessionTimeoutMs;
    while (!consumer.isActive() && running && Date.now() < until) await sleep(50);
    if (!owns(o.topic, o.partition)) {
      owed.delete(k); // its new owner starts from the last commit: the records are stored again, never lost
      return;
    }
    try {
      await consumer.commit({ offsets: [o] });
      owed.delete(k);
    } catch (err) {
      owed.set(k, o);
      log.warn("offset commit failed; the next commit of the partition covers it", { topic: o.topic, partition: o.partition, error: explainKafkaError(err, c.security) });
    }
  };

  const handOver = async (records: Record_[]): Promise<void> => {
    for (const [k, g] of byPartition(records)) {
      if (!running) return;
      const first = g[0]!;
      const { topic, partition } = first;
      if (!owns(topic, partition)) continue; // revoked meanwhile: the new owner reads it from the committed offset
      const from = position.get(k) ?? -1n;
      const fresh = g.filter((m) => m.offset >= from);
      const last = fresh[fresh.length - 1];
      if (last === undefined) continue;
      await handle({ topic, partition, records: fresh.map(toRecord) }, { owned: () => running && owns(topic, partition) });
      position.set(k, last.offset + 1n);
      await commit({ topic, partition, offset: last.offset + 1n, leaderEpoch: last.leaderEpoch });
    }
  };

  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((r) => {
    resolveStopped = r;
  });
  const leave = async (): Promise<void> => {
    await consumer.close(true).catch((err: unknown) => log.warn("consumer close failed", { error: explainKafkaError(err, c.security) }));
  };

  /** After a failure: a new stream from the committed offsets (retried until it opens or stop()), or leave the group. */
  const recover = async (err: unknown, what: string): Promise<void> => {
    const old = stream;
    streamError = undefined;
    old.destroy();
    if (!running) return;
    if (!restart) {
      log.error(`${what}; the consumer stops (restartOnFailure off)`, { error: explainKafkaError(err, c.security) });
      running = false;
      await leave();
      return;
    }
    log.warn(`${what}; consuming again from the committed offsets`, { error: explainKafkaError(err, c.security) });
    for (let attempt = 0; running; attempt++) {
      await sleep(Math.min(10_000, 250 * 2 ** Math.min(attempt, 6)));
      if (!running || (await reopen(attempt))) return;
    }
  };
  /** Opens a new stream in place of the failed one; false when opening failed (logged). */
  const reopen = async (attempt: number): Promise<boolean> => {
    try {
      const next = await open();
      if (!running) {
        next.destroy();
        return true;
      }
      stream = next;
      attach(next);
      if (paused) next.pause();
      return true;
    } catch (e) {
      log.warn("consumer restart failed; retrying", { attempt, error: explainKafkaError(e, c.security) });
      return false;
    }
  };

  /** Nothing to read: a failed or closed stream is replaced, else the loop naps until woken. */
  const idle = async (st: Stream): Promise<void> => {
    if (streamError !== undefined || st.destroyed || st.readableEnded) await recover(streamError ?? new Error("the consumer's stream closed"), "the consumer's stream failed");
    else await nap(1_000);
  };

  const maxRound = s.maxRecordsPerRound ?? 5_000;
  const loop = (async () => {
    while (running) {
      if (paused) {
        await nap(1_000);
        continue;
      }
      const st = stream;
      const got = readRound(st, maxRound);
      if (got.length === 0) {
        await idle(st);
        continue;
      }
      try {
        await handOver(got);
      } catch (err) {
        if (!running) break;
        await recover(err, "a batch could not be stored");
      }
    }
  })().finally(() => resolveStopped());

  return {
    pause() {
      if (paused) return;
      paused = true;
      stream.pause();
    },
    resume() {
      if (!paused) return;
      paused = false;
      stream.resume();
      wake();
    },
    stopped,
    async stop() {
      const wasRunning = running;
      running = false;
      wake();
      await loop;
      if (!wasRunning) return;
      for (const o of [...owed.values()]) {
        if (owns(o.topic, o.partition)) await consumer.commit({ offsets: [o] }).catch(() => {});
      }
      await leave();
    },
  };
}
