import {
  type BatchConsumer,
  type BytesProducer,
  createAdmin,
  createProducer,
  ensureTopics,
  groupLag,
  type KafkaAdmin,
  type KafkaConnection,
  KafkaError,
  type KafkaSecurity,
  type PartitionBatch,
  PLAINTEXT,
  startBatchConsumer,
  type TopicPolicy,
} from "@ragmeter/kafka";
import { deadLetterHeaders, deadLetterTopic, type OtlpLimits, type Signal } from "@ragmeter/otlp";
import { retry } from "@ragmeter/runtime";
import type { Store } from "@ragmeter/store/client";
import { storeFailure } from "@ragmeter/store/errors";
import { type DecodedRecord, decodeMessage, type IngestResult, UndecodableMessageError, writeRecords } from "./ingest.js";
import type { IngestionStats } from "./stats.js";
import { DEFAULT_WRITE_BATCH, type ItemWeights, splitBatches, type WriteBatchLimits } from "./writeBatcher.js";

/** Settings of the span consumer. */
export interface ConsumerSettings {
  readonly brokers: readonly string[];
  /** How to reach the brokers (TLS, SASL); default PLAINTEXT. */
  readonly security?: KafkaSecurity;
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
   * Largest fetch per partition, bytes (default 1 MiB): a partition's records of a fetch are one
   * batch, and a batch is one insert per table. Larger fetches store faster but do not score faster:
   * in bench:scorer at 100,000 traces, 4 MiB gave the same 3,960 traces/s as 1 MiB at 806 MiB peak
   * RSS against 542.
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
  /** Bounds of the work of one record (the RAGMETER_OTLP_MAX_* settings; default @ragmeter/otlp's DEFAULT_OTLP_LIMITS). */
  readonly limits?: OtlpLimits;
  /** Bounds of one span write: a partition's records of a fetch are written in as many writes as they need (default @ragmeter/runtime's SCORER_WRITE_BATCH; the wait is not used). */
  readonly writeBatch?: Pick<WriteBatchLimits, "maxCount" | "maxBytes">;
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
 * (design §6: at least once, no loss; @ragmeter/kafka's batch consumer). A failing write is
 * retried with backoff, and nothing is committed until it succeeds. An undecodable message goes to
 * the dead-letter topic with the error in the `ragmeter-error` header, and the partition moves on.
 * @param onWritten told what each batch stored (the scoring loop's dirty set and held traces).
 * @throws KafkaError (one line naming the setting to check) when the first connection fails.
 */
export async function startSpanConsumer(
  store: Store,
  settings: ConsumerSettings,
  stats: IngestionStats,
  log: ConsumerLogger,
  onWritten: (written: IngestResult, at: number) => void = () => {},
): Promise<SpanConsumer> {
  const connection: KafkaConnection = { brokers: settings.brokers, security: settings.security ?? PLAINTEXT };
  let running = true;
  const admin: KafkaAdmin = createAdmin(connection, settings.clientId);
  const producer: BytesProducer = createProducer(connection, { clientId: settings.clientId });
  const closeClients = async (): Promise<void> => {
    await Promise.allSettled([producer.close(), admin.close()]);
  };
  const sources = settings.topics ?? [{ topic: settings.topic, signal: null }];
  const signalOf = new Map(sources.map((s) => [s.topic, s.signal] as const));
  const dlqOf = (topic: string): string => (topic === settings.topic && settings.dlqTopic !== undefined ? settings.dlqTopic : deadLetterTopic(topic));
  const names = sources.map((s) => s.topic);
  let ready: boolean;
  try {
    ready = await ensureTopics(admin, [...names, ...names.map(dlqOf)], settings.topicPolicy ?? { create: true, partitions: 3 }, log, () => running);
  } catch (err) {
    await closeClients();
    throw KafkaError.from(err, connection.security, `cannot set up the topics ${names.join(", ")}`);
  }
  if (!ready) {
    await closeClients();
    throw new Error(`topics ${names.join(", ")} did not appear`);
  }

  const handle = async (batch: PartitionBatch, ctx: { owned(): boolean }): Promise<void> => {
    const { decoded, dead } = decodeBatch(batch, signalOf.get(batch.topic) ?? null, settings.limits);
    const last = (batch.records[batch.records.length - 1]?.offset ?? 0n).toString();
    const keepGoing = (): boolean => running && ctx.owned();
    // Retried while the partition is ours, as long as the failure can pass (the one retry helper reads
    // `retriable`); one that cannot fails the batch, and the consumer starts again from the committed offsets.
    // A fetch's records in writes bounded by the span and byte limits (the time bound is the fetch's own
    // wait); every write is durable before the offset is committed.
    for (const part of splitBatches(decoded, settings.writeBatch ?? DEFAULT_WRITE_BATCH, RECORD_WEIGHTS)) {
      const records = part.map((p) => p.record);
      const written = await retry(
        () => writeRecords(store, records, { partition: batch.partition, offset: last }, Date.now()).catch((err: unknown) => Promise.reject(storeFailure(err))),
        {
          retries: Number.POSITIVE_INFINITY,
          keepGoing,
          onError: (err, attempt) => log.warn("span write failed; retrying before committing", { attempt: attempt - 1, partition: batch.partition, error: (err as Error).message }),
        },
      );
      const at = Date.now();
      stats.spans(written.spans, at);
      stats.forgotten(written.dropped, at);
      onWritten(written, at);
      pauseIfFull();
    }
    if (dead.length > 0) {
      await retry(
        () => sendDeadLetters(producer, dead, batch, dlqOf(batch.topic)).catch((err: unknown) => Promise.reject(KafkaError.from(err, connection.security, "dead-letter send"))),
        {
          retries: Number.POSITIVE_INFINITY,
          keepGoing,
          onError: (err, attempt) => log.warn("dead-letter send failed; retrying", { attempt: attempt - 1, error: (err as Error).message }),
        },
      );
      log.warn("messages sent to the dead-letter topic (undecodable, or some items refused)", { count: dead.length, partition: batch.partition, first_error: dead[0]?.error });
    }
    stats.dlq(dead.length, Date.now());
    await settings.beforeCommit?.(batch.partition, last);
  };

  const max = settings.maxPending;
  const pending = settings.pending;
  let paused = false;
  let consumer: BatchConsumer | undefined;
  const pauseIfFull = (): void => {
    if (max === undefined || pending === undefined || paused || pending() < max) return;
    paused = true;
    consumer?.pause();
    log.info("pending traces at the bound; consumption paused until the scorer catches up", { pending: pending(), max_pending: max });
  };
  try {
    consumer = await startBatchConsumer(
      connection,
      {
        clientId: settings.clientId,
        groupId: settings.groupId,
        topics: names,
        sessionTimeoutMs: settings.sessionTimeoutMs,
        heartbeatIntervalMs: settings.heartbeatIntervalMs,
        ...(settings.maxWaitTimeMs !== undefined ? { maxWaitTimeMs: settings.maxWaitTimeMs } : {}),
        ...(settings.maxBytesPerPartition !== undefined ? { maxBytesPerPartition: settings.maxBytesPerPartition } : {}),
        fromBeginning: settings.fromBeginning ?? true,
        restartOnFailure: settings.restartOnFailure ?? true,
      },
      handle,
      log,
    );
  } catch (err) {
    running = false;
    await closeClients();
    throw err;
  }
  const c = consumer;
  if (paused) c.pause(); // the bound was reached before the consumer was handed back
  const resumeTimer =
    max !== undefined && pending !== undefined
      ? setInterval(() => {
          if (!paused || pending() >= max / 2) return;
          paused = false;
          c.resume();
          log.info("consumption resumed", { pending: pending(), max_pending: max });
        }, settings.pendingCheckMs ?? 200)
      : null;
  resumeTimer?.unref();
  return {
    lag: () => groupLag(admin, settings.groupId, names),
    async stop() {
      running = false;
      if (resumeTimer) clearInterval(resumeTimer);
      await c.stop();
      await closeClients();
    },
  };
}

/** A decoded record with the bytes of its message (what the write batch's byte limit counts). */
interface SizedRecord {
  readonly record: DecodedRecord;
  readonly bytes: number;
}

const RECORD_WEIGHTS: ItemWeights<SizedRecord> = { count: (r) => r.record.spans.length + r.record.logs.length, bytes: (r) => r.bytes };

/** A record bound for the dead-letter topic, with the reason. */
interface DeadLetter {
  readonly value: Buffer | null;
  readonly key: Buffer | null;
  readonly error: string;
  readonly offset: string;
}

/**
 * A batch's records decoded, and those that go to the dead-letter topic: the undecodable ones, and
 * those with some items left out (bad ids, over a limit) — their valid items are stored, the record
 * also goes to the dead-letter topic with the reason, so nothing is dropped unseen.
 */
function decodeBatch(batch: PartitionBatch, signal: Signal | null, limits: OtlpLimits | undefined): { decoded: SizedRecord[]; dead: DeadLetter[] } {
  const decoded: SizedRecord[] = [];
  const dead: DeadLetter[] = [];
  for (const m of batch.records) {
    try {
      const d = decodeMessage(m.headers, m.value, signal, limits);
      decoded.push({ record: d, bytes: m.value?.byteLength ?? 0 });
      if (d.refused !== undefined) dead.push({ value: m.value, key: m.key, error: d.refused, offset: m.offset.toString() });
    } catch (err) {
      if (!(err instanceof UndecodableMessageError)) throw err;
      dead.push({ value: m.value, key: m.key, error: err.message, offset: m.offset.toString() });
    }
  }
  return { decoded, dead };
}

/** Sends a batch's dead letters to `topic`, each with the record contract's headers (the error and where the record came from). */
async function sendDeadLetters(producer: BytesProducer, dead: readonly DeadLetter[], batch: PartitionBatch, topic: string): Promise<void> {
  await producer.send({
    messages: dead.map((d) => ({
      topic,
      ...(d.key !== null ? { key: d.key } : {}),
      value: d.value as Buffer, // a null value stays null (the client writes length -1)
      headers: new Map(
        Object.entries(deadLetterHeaders(d.error, { topic: batch.topic, partition: batch.partition, offset: d.offset })).map(([k, v]) => [Buffer.from(k), Buffer.from(v)]),
      ),
    })),
  });
}
