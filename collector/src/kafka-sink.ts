/**
 * Kafka side of the collector: a kafkajs producer (acks = all) behind a small supervisor that
 * replaces the producer after a failure, fails fast for a short back-off while Kafka is down, and
 * answers readiness through an admin client.
 */

import { deadLetterTopic, recordHeaders, type Signal } from "@ragmeter/otlp";
import type { Admin, Kafka as KafkaClient, LogEntry, Message, Producer } from "kafkajs";
import kafkajs from "kafkajs";
import type { TraceRecord } from "./batching.js";
import type { CollectorConfig } from "./config.js";
import { KafkaUnavailableError, TopicMissingError } from "./errors.js";
import type { PinoLogger } from "./logger.js";

const { Kafka, CompressionTypes, Partitioners, logLevel: KafkaLogLevel } = kafkajs;

/** Where the collector's records go. Implementations must not resolve before the data is durable. */
export interface RecordSink {
  /**
   * Writes the records; resolves only once Kafka acknowledged all of them (acks = all).
   * @param headers extra headers for every record (the request's trace context)
   * @throws KafkaUnavailableError when Kafka cannot be reached or does not acknowledge in time
   */
  send(signal: Signal, records: TraceRecord[], headers: Record<string, string>): Promise<void>;
  /** True when Kafka answers a metadata request for the topic (bounded wait). */
  ready(): Promise<boolean>;
  /** Why the sink is not ready (Kafka unreachable, or the topic missing); optional for other sinks. */
  readiness?(): Promise<Readiness>;
  /** True while the last attempt failed within the back-off window. */
  degraded(): boolean;
  /** Waits for sends in progress, then disconnects. */
  close(): Promise<void>;
}

/** Readiness of a sink: ready, or why not. */
export type Readiness = { ready: true } | { ready: false; reason: "kafka unreachable" } | { ready: false; reason: "topic missing"; topic: string };

/** A kafkajs error (or its cause) saying the topic or partition does not exist. */
function isUnknownTopic(err: unknown): boolean {
  for (let e = err as { type?: string; message?: string; cause?: unknown; originalError?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (e.type === "UNKNOWN_TOPIC_OR_PARTITION" || /does not host this topic-partition/u.test(e.message ?? "")) return true;
    e = (e.cause ?? e.originalError) as typeof e;
  }
  return false;
}

interface ProducerSlot {
  producer: Producer;
  connected: Promise<void>;
  pending: number;
  failed: boolean;
  retired: boolean;
}

function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KafkaUnavailableError(`Kafka did not ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

function toKafkaLog(logger: PinoLogger) {
  return () =>
    ({ level, log }: LogEntry): void => {
      const { message, ...rest } = log;
      const fields: Record<string, unknown> = { kafka: true, ...rest };
      if (level === KafkaLogLevel.ERROR || level === KafkaLogLevel.WARN) logger.warn(fields, `kafkajs: ${message}`);
      else if (level === KafkaLogLevel.INFO) logger.debug(fields, `kafkajs: ${message}`);
    };
}

/**
 * Creates the Kafka sink for `config` (brokers, topic, idempotent, timeouts). Checks (and, when
 * allowed, creates) its topics at once in the background; the producer connects on the first send.
 */
export function createKafkaSink(config: CollectorConfig, logger: PinoLogger): RecordSink {
  const kafka: KafkaClient = new Kafka({
    clientId: config.clientId,
    brokers: config.brokers,
    logLevel: KafkaLogLevel.WARN,
    logCreator: toKafkaLog(logger),
    connectionTimeout: 2_000,
    requestTimeout: config.sendTimeoutMs,
    retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1_000 },
  });
  let slot: ProducerSlot | undefined;
  let lastFailure = 0;
  let closed = false;
  let admin: Admin | undefined;
  let adminConnected: Promise<void> | undefined;
  let readyCache: { at: number; value: boolean } | undefined;

  const getAdmin = (): Promise<Admin> => {
    if (!admin) {
      const a = kafka.admin({ retry: { retries: 0 } });
      admin = a;
      adminConnected = a.connect();
    }
    const a = admin;
    return (adminConnected ?? Promise.resolve()).then(() => a);
  };
  const dropAdmin = (): void => {
    const a = admin;
    admin = undefined;
    adminConnected = undefined;
    a?.disconnect().catch(() => {});
  };

  // Topics: checked once before the first send (and again after Kafka says the topic is gone).
  // Missing ones are created when allowed; otherwise sends answer TopicMissingError until they exist.
  let topicsOk = false;
  let topicCheck: Promise<void> | undefined;
  let missingSince = 0;
  let missingLogged = 0;
  const ensureTopics = (): Promise<void> => {
    topicCheck ??= (async () => {
      const a = await withDeadline(getAdmin(), config.sendTimeoutMs, "connect");
      const existing = new Set(await withDeadline(a.listTopics(), config.sendTimeoutMs, "list its topics"));
      const wanted = config.createTopics ? [config.topic, deadLetterTopic(config.topic)] : [config.topic];
      const missing = wanted.filter((t) => !existing.has(t));
      if (missing.length > 0 && config.createTopics) {
        const create = async (): Promise<void> => {
          try {
            await a.createTopics({ topics: missing.map((topic) => ({ topic, numPartitions: config.topicPartitions })), waitForLeaders: true });
            logger.info({ topics: missing, partitions: config.topicPartitions }, `created Kafka topic${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`);
          } catch (err) {
            if (!/already exists/iu.test((err as Error).message ?? "")) throw err;
          }
        };
        if (missing.includes(config.topic)) await create();
        // Only the dead-letter topic is missing (the scorer writes it): sends need not wait for it.
        else void create().catch((err: unknown) => logger.warn({ error: err instanceof Error ? err.message : String(err) }, `could not create ${missing.join(", ")}`));
      } else if (missing.length > 0) {
        if (Date.now() - missingLogged > 30_000) {
          missingLogged = Date.now();
          logger.warn({ topic: config.topic }, `Kafka topic ${config.topic} does not exist; waiting for it (RAGMETER_KAFKA_CREATE_TOPICS=false)`);
        }
        missingSince = Date.now();
        throw new TopicMissingError(config.topic);
      }
      topicsOk = true;
    })()
      .catch((err: unknown) => {
        if (!(err instanceof TopicMissingError)) dropAdmin(); // reconnect on the next check
        throw err;
      })
      .finally(() => {
        topicCheck = undefined;
      });
    return topicCheck;
  };

  const newSlot = (): ProducerSlot => {
    const producer = kafka.producer({
      allowAutoTopicCreation: false,
      idempotent: config.idempotent,
      ...(config.idempotent ? { maxInFlightRequests: 1 } : {}),
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: config.idempotent ? 5 : 3, initialRetryTime: 100, maxRetryTime: 1_000 },
    });
    const s: ProducerSlot = { producer, connected: producer.connect(), pending: 0, failed: false, retired: false };
    s.connected.catch(() => {
      s.failed = true;
    });
    return s;
  };

  const retire = (s: ProducerSlot): void => {
    if (s.retired || s.pending > 0) return;
    s.retired = true;
    s.producer.disconnect().catch((err: unknown) => logger.debug({ err }, "producer disconnect failed"));
  };

  const acquire = (): ProducerSlot => {
    if (!slot || slot.failed) {
      const old = slot;
      slot = newSlot();
      if (old) retire(old);
    }
    return slot;
  };

  // Group commit: records of concurrent requests share produce calls. A produce call carries at
  // most maxMessageBytes of records, so whatever the partitioning, no record batch can exceed the
  // broker's message limit. A request resolves when every chunk holding its records is acknowledged.
  interface Job {
    remaining: number;
    done: boolean;
    resolve: () => void;
    reject: (err: unknown) => void;
  }
  interface Queued {
    job: Job;
    message: Message;
    size: number;
  }
  const queue: Queued[] = [];
  let active = 0;
  const maxConcurrentSends = config.idempotent ? 1 : 4;

  const fail = (s: ProducerSlot, err: unknown): void => {
    s.failed = true;
    lastFailure = Date.now();
    readyCache = undefined;
    logger.warn({ error: err instanceof Error ? err.message : String(err) }, "Kafka send failed");
  };

  const pump = (): void => {
    while (active < maxConcurrentSends && queue.length > 0) {
      const chunk: Queued[] = [];
      let bytes = 0;
      while (queue.length > 0) {
        const q = queue[0]!;
        if (q.job.done) {
          queue.shift();
          continue;
        }
        if (chunk.length > 0 && bytes + q.size > config.maxMessageBytes) break;
        chunk.push(q);
        bytes += q.size;
        queue.shift();
      }
      if (chunk.length === 0) return;
      const s = acquire();
      s.pending++;
      active++;
      s.connected
        .then(() => s.producer.send({ topic: config.topic, acks: -1, timeout: config.sendTimeoutMs, compression: CompressionTypes.None, messages: chunk.map((q) => q.message) }))
        .then(
          () => {
            readyCache = { at: Date.now(), value: true };
            for (const q of chunk) {
              if (!q.job.done && --q.job.remaining === 0) {
                q.job.done = true;
                q.job.resolve();
              }
            }
          },
          (err: unknown) => {
            if (isUnknownTopic(err)) topicsOk = false;
            fail(s, err);
            const msg = err instanceof Error ? err.message : String(err);
            for (const q of chunk) {
              if (q.job.done) continue;
              q.job.done = true;
              q.job.reject(new KafkaUnavailableError(`Kafka did not acknowledge the records: ${msg}`, { cause: err }));
            }
          },
        )
        .finally(() => {
          active--;
          s.pending--;
          if (s !== slot) retire(s);
          pump();
        });
    }
  };

  let readyCacheDetail: Readiness | undefined;
  const readiness = async (): Promise<Readiness> => {
    if (closed) return { ready: false, reason: "kafka unreachable" };
    if (readyCache && Date.now() - readyCache.at < 1_000) {
      return readyCache.value ? { ready: true } : (readyCacheDetail ?? { ready: false, reason: "kafka unreachable" });
    }
    let value: Readiness;
    try {
      const a = await withDeadline(getAdmin(), 2_000, "connect");
      const topics = await withDeadline(a.listTopics(), 2_000, "answer a metadata request");
      if (topics.includes(config.topic)) value = { ready: true };
      else if (!config.createTopics) value = { ready: false, reason: "topic missing", topic: config.topic };
      else {
        await ensureTopics();
        value = { ready: true };
      }
    } catch (err) {
      logger.debug({ error: err instanceof Error ? err.message : String(err) }, "readiness check failed");
      dropAdmin();
      value = { ready: false, reason: "kafka unreachable" };
    }
    readyCache = { at: Date.now(), value: value.ready };
    readyCacheDetail = value.ready ? undefined : value;
    return value;
  };

  // Check (and create) the topics as soon as the sink exists, so the first request does not wait for it.
  void ensureTopics().catch(() => {});

  const sink: RecordSink = {
    async send(signal, records, headers) {
      if (closed) throw new KafkaUnavailableError("collector is shutting down");
      if (records.length === 0) return;
      if (!topicsOk) {
        if (Date.now() - missingSince < config.kafkaBackoffMs) throw new TopicMissingError(config.topic);
        try {
          await ensureTopics();
        } catch (err) {
          if (err instanceof KafkaUnavailableError) throw err;
          lastFailure = Date.now();
          throw new KafkaUnavailableError(`Kafka is unavailable: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
        }
      }
      if (Date.now() - lastFailure < config.kafkaBackoffMs) {
        throw new KafkaUnavailableError("Kafka is unavailable (recent failure); retry later");
      }
      const allHeaders = recordHeaders(signal, headers);
      let headerBytes = 0;
      for (const [k, v] of Object.entries(allHeaders)) headerBytes += k.length + v.length + 8;
      let timer: NodeJS.Timeout | undefined;
      const done = new Promise<void>((resolve, reject) => {
        const job: Job = { remaining: records.length, done: false, resolve, reject };
        for (const r of records) {
          const message: Message = { key: r.key, value: Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength), headers: allHeaders };
          queue.push({ job, message, size: r.value.byteLength + (r.key?.length ?? 0) + headerBytes + 64 });
        }
        timer = setTimeout(() => {
          if (job.done) return;
          job.done = true;
          lastFailure = Date.now();
          readyCache = undefined;
          if (slot) slot.failed = true;
          reject(new KafkaUnavailableError(`Kafka did not acknowledge the records within ${config.sendTimeoutMs} ms`));
        }, config.sendTimeoutMs).unref();
      });
      pump();
      try {
        await done;
      } finally {
        clearTimeout(timer);
      }
    },

    async ready() {
      return (await readiness()).ready;
    },

    readiness,

    degraded() {
      return Date.now() - lastFailure < config.kafkaBackoffMs;
    },

    async close() {
      closed = true;
      const s = slot;
      slot = undefined;
      const deadline = Date.now() + config.shutdownTimeoutMs;
      while (s && s.pending > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await Promise.allSettled([s?.producer.disconnect(), admin?.disconnect()]);
    },
  };
  return sink;
}
