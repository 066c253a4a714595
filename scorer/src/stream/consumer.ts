import { deadLetterHeaders, deadLetterTopic, type Signal } from "@ragmeter/otlp";
import kafkajs, { type Admin, type Consumer, type Producer } from "kafkajs";
import type { Store } from "../store/client.js";
import { type DecodedRecord, decodeMessage, type IngestResult, UndecodableMessageError, writeRecords } from "./ingest.js";
import { retryUntil } from "./retry.js";
import type { IngestionStats } from "./stats.js";
import { ensureTopics, type TopicPolicy } from "./topics.js";

const { Kafka, logLevel } = kafkajs;

/** Settings of the span consumer. */
export interface ConsumerSettings {
  readonly brokers: readonly string[];
  readonly topic: string;
  /**
   * All topics consumed, each with its signal (null = from the `ragmeter-signal` header); default
   * `topic` alone, signal from the header. The OpenTelemetry Collector's topics carry no header.
   */
  readonly topics?: readonly { readonly topic: string; readonly signal: Signal | null }[];
  /** Missing topics (consumed and dead-letter): create (default, 3 partitions) or wait for them. */
  readonly topicPolicy?: TopicPolicy;
  /** Dead-letter topic (default `<topic>.dlq`, the record contract's {@link deadLetterTopic}). */
  readonly dlqTopic?: string;
  /** Consumer group (design: `ragmeter-scorer`). */
  readonly groupId: string;
  readonly clientId: string;
  /** Session timeout, ms (short in tests). */
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  /**
   * Largest fetch per partition, bytes (kafkajs default 1 MiB): a fetch is one batch, and a batch
   * is one insert per table. Larger fetches store faster but do not score faster: in bench:scorer
   * at 100,000 traces, 4 MiB gave the same 3,960 traces/s as 1 MiB at 806 MiB peak RSS against 542.
   */
  readonly maxBytesPerPartition?: number;
  /** Longest wait of a fetch for new messages, ms (default 1000). */
  readonly maxWaitTimeMs?: number;
  /**
   * Test seam: runs after a batch is written and before its offset is committed (a throw here
   * leaves the batch uncommitted, as a crash would).
   */
  readonly beforeCommit?: (partition: number, lastOffset: string) => Promise<void>;
  /** Where a new consumer group starts: the earliest offset (default, design §6) or the latest. */
  readonly fromBeginning?: boolean;
  /**
   * Bound on traces written and not yet scored (`pending()`): at or above it the consumer pauses
   * its topics, and resumes once the scoring loop brought them under half of it — memory and the
   * unscored backlog stay bounded under a full topic. Unset: no bound.
   */
  readonly maxPending?: number;
  /** Traces written and not yet scored (the scoring loop's dirty set); read with `maxPending`. */
  readonly pending?: () => number;
  /** How often a paused consumer checks `pending()`, ms (default 200). */
  readonly pendingCheckMs?: number;
  /** Restart the consumer after a crash (default true); tests turn it off to simulate a dead instance. */
  readonly restartOnFailure?: boolean;
}

/** Log sink of the consumer. */
export interface ConsumerLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** A running span consumer. */
export interface SpanConsumer {
  /** Messages behind the high watermark over all partitions (consumer lag). */
  lag(): Promise<number>;
  /** Stops consuming (the current batch finishes or is abandoned uncommitted), disconnects. */
  stop(): Promise<void>;
}

/**
 * Consumes `topic` in consumer group `groupId` (a new group starts at the earliest offset) and
 * writes each batch's spans and log records to the store **before** committing its offsets
 * (design §6: at least once, no loss). A failing write is retried with backoff, heartbeating, and
 * nothing is committed until it succeeds. An undecodable message goes to the dead-letter topic
 * with the error in the `ragmeter-error` header, and the partition moves on.
 * @param onWritten told what each batch stored (the scoring loop's dirty set and held traces).
 * @throws the kafkajs error when the first connection fails.
 */
export async function startSpanConsumer(
  store: Store,
  settings: ConsumerSettings,
  stats: IngestionStats,
  log: ConsumerLogger,
  onWritten: (written: IngestResult, at: number) => void = () => {},
): Promise<SpanConsumer> {
  const restart = settings.restartOnFailure ?? true;
  const kafka = new Kafka({
    clientId: settings.clientId,
    brokers: [...settings.brokers],
    logLevel: logLevel.NOTHING,
    retry: { retries: restart ? 5 : 0, restartOnFailure: async () => restart },
  });
  const consumer: Consumer = kafka.consumer({
    groupId: settings.groupId,
    sessionTimeout: settings.sessionTimeoutMs,
    heartbeatInterval: settings.heartbeatIntervalMs,
    rebalanceTimeout: Math.max(settings.sessionTimeoutMs * 2, 10_000),
    maxWaitTimeInMs: settings.maxWaitTimeMs ?? 1000,
    ...(settings.maxBytesPerPartition !== undefined
      ? { maxBytesPerPartition: settings.maxBytesPerPartition, maxBytes: Math.max(10_485_760, 3 * settings.maxBytesPerPartition) }
      : {}),
  });
  const producer: Producer = kafka.producer({ allowAutoTopicCreation: false });
  const admin: Admin = kafka.admin();
  let running = true;
  await Promise.all([consumer.connect(), producer.connect(), admin.connect()]);
  const sources = settings.topics ?? [{ topic: settings.topic, signal: null }];
  const signalOf = new Map(sources.map((s) => [s.topic, s.signal] as const));
  const dlqOf = (topic: string): string => (topic === settings.topic && settings.dlqTopic !== undefined ? settings.dlqTopic : deadLetterTopic(topic));
  const names = sources.map((s) => s.topic);
  const ready = await ensureTopics(admin, [...names, ...names.map(dlqOf)], settings.topicPolicy ?? { create: true, partitions: 3 }, log, () => running);
  if (!ready) {
    await Promise.allSettled([consumer.disconnect(), producer.disconnect(), admin.disconnect()]);
    throw new Error(`topics ${names.join(", ")} did not appear`);
  }
  await consumer.subscribe({ topics: names, fromBeginning: settings.fromBeginning ?? true });
  const max = settings.maxPending;
  const pending = settings.pending;
  let paused = false;
  const pauseIfFull = (): void => {
    if (max === undefined || pending === undefined || paused || pending() < max) return;
    paused = true;
    consumer.pause(names.map((topic) => ({ topic })));
    log.info("pending traces at the bound; consumption paused until the scorer catches up", { pending: pending(), max_pending: max });
  };
  const resumeTimer =
    max !== undefined && pending !== undefined
      ? setInterval(() => {
          if (!paused || pending() >= max / 2) return;
          paused = false;
          consumer.resume(names.map((topic) => ({ topic })));
          log.info("consumption resumed", { pending: pending(), max_pending: max });
        }, settings.pendingCheckMs ?? 200)
      : null;
  resumeTimer?.unref();
  await consumer.run({
    autoCommit: false,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      if (batch.messages.length === 0) return;
      const decoded: DecodedRecord[] = [];
      const dead: { value: Buffer | null; key: Buffer | null; error: string; offset: string }[] = [];
      for (const m of batch.messages) {
        try {
          decoded.push(decodeMessage(m.headers, m.value, signalOf.get(batch.topic) ?? null));
        } catch (err) {
          if (!(err instanceof UndecodableMessageError)) throw err;
          dead.push({ value: m.value, key: m.key, error: err.message, offset: m.offset });
        }
      }
      const last = batch.messages[batch.messages.length - 1]?.offset as string;
      const keepGoing = (): boolean => running && isRunning() && !isStale();
      const written = await retryUntil(
        async () => {
          await heartbeat();
          return writeRecords(store, decoded, { partition: batch.partition, offset: last }, Date.now());
        },
        keepGoing,
        (err, attempt) => log.warn("span write failed; retrying before committing", { attempt, partition: batch.partition, error: (err as Error).message }),
      );
      if (dead.length > 0) {
        await retryUntil(
          () =>
            producer.send({
              topic: dlqOf(batch.topic),
              acks: -1,
              messages: dead.map((d) => ({
                key: d.key,
                value: d.value,
                headers: deadLetterHeaders(d.error, { topic: batch.topic, partition: batch.partition, offset: d.offset }),
              })),
            }),
          keepGoing,
          (err, attempt) => log.warn("dead-letter send failed; retrying", { attempt, error: (err as Error).message }),
        );
        log.warn("undecodable messages sent to the dead-letter topic", { count: dead.length, partition: batch.partition, first_error: dead[0]?.error });
      }
      const now = Date.now();
      stats.spans(written.spans, now);
      stats.forgotten(written.dropped, now);
      onWritten(written, now);
      pauseIfFull();
      stats.dlq(dead.length, now);
      await settings.beforeCommit?.(batch.partition, last);
      resolveOffset(last);
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() }]);
      await heartbeat();
    },
  });
  return {
    async lag() {
      const committed = await admin.fetchOffsets({ groupId: settings.groupId, topics: names });
      let lag = 0n;
      for (const topic of names) {
        const high = await admin.fetchTopicOffsets(topic);
        const mine = committed.find((c) => c.topic === topic)?.partitions ?? [];
        const done = new Map(mine.map((p) => [p.partition, BigInt(p.offset === "-1" ? "0" : p.offset)] as const));
        for (const p of high) lag += BigInt(p.high) - (done.get(p.partition) ?? 0n);
      }
      return Number(lag);
    },
    async stop() {
      running = false;
      if (resumeTimer) clearInterval(resumeTimer);
      await consumer.disconnect();
      await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
    },
  };
}
