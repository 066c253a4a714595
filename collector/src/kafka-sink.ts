/**
 * Kafka side of the collector: a producer of @ragmeter/kafka (acks = all, keys partitioned as
 * Kafka's Java client does) behind a small supervisor that replaces the producer after a failure,
 * fails fast for a short back-off while Kafka is down, and answers readiness through an admin
 * client.
 */

import {
  type BytesProducer,
  createAdmin,
  createProducer,
  explainKafkaError,
  isUnknownTopic,
  type KafkaAdmin,
  type KafkaConnection,
  type ProducedRecord,
  setUpTopics,
} from "@ragmeter/kafka";
import { deadLetterTopic, recordHeaders, type Signal } from "@ragmeter/otlp";
import type { PinoLogger } from "@ragmeter/runtime";
import type { TraceRecord } from "./batching.js";
import type { CollectorConfig } from "./config.js";
import { KafkaUnavailableError, TopicMissingError } from "./errors.js";

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

/** Records as the producer takes them: key, value and header names and values already bytes. */
type Record_ = ProducedRecord;

interface ProducerSlot {
  producer: BytesProducer;
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

/**
 * Creates the Kafka sink for `config` (brokers, security, topic, idempotent, timeouts). Checks
 * (and, when allowed, creates) its topics at once in the background; the producer connects on the
 * first send. Keys go to partitions as Kafka's Java client places them (murmur2, sign bit cleared,
 * modulo the partition count), so one trace keeps one partition.
 */
export function createKafkaSink(config: CollectorConfig, logger: PinoLogger): RecordSink {
  const connection: KafkaConnection = { brokers: config.brokers, security: config.security };
  const timing = { connectTimeoutMs: 2_000, requestTimeoutMs: config.sendTimeoutMs, retryDelayMs: 250 };
  const explain = (err: unknown): string => explainKafkaError(err, config.security);
  let slot: ProducerSlot | undefined;
  let lastFailure = 0;
  let closed = false;
  let admin: KafkaAdmin | undefined;
  let readyCache: { at: number; value: boolean } | undefined;

  const getAdmin = (): KafkaAdmin => {
    admin ??= createAdmin(connection, config.clientId, { ...timing, retries: 0 });
    return admin;
  };
  const dropAdmin = (): void => {
    const a = admin;
    admin = undefined;
    a?.close().catch(() => {});
  };

  // Topics: checked once before the first send (and again after Kafka says the topic is gone).
  // Missing ones are created when allowed; otherwise sends answer TopicMissingError until they exist.
  let topicsOk = false;
  let topicCheck: Promise<void> | undefined;
  let missingSince = 0;
  let missingLogged = 0;
  const ensureTopics = (): Promise<void> => {
    topicCheck ??= (async () => {
      const a = getAdmin();
      const existing = new Set(await withDeadline(a.listTopics(), config.sendTimeoutMs, "list its topics"));
      const dlq = deadLetterTopic(config.topic);
      const setUp = async (topics: string[]): Promise<void> => {
        const r = await withDeadline(
          setUpTopics(a, topics, { create: config.createTopics, partitions: config.topicPartitions, leaderTimeoutMs: config.sendTimeoutMs }),
          2 * config.sendTimeoutMs,
          "set up the topics",
        );
        if (r.created.length > 0)
          logger.info({ topics: r.created, partitions: config.topicPartitions }, `created Kafka topic${r.created.length > 1 ? "s" : ""} ${r.created.join(", ")}`);
        if (r.refused !== undefined) throw r.refused.error;
        // A topic just created (here, or by a sibling cluster worker a moment ago) may still have partitions without a leader: a send now would fail (503).
        if (r.leaderless.length > 0) throw new KafkaUnavailableError(`partitions of ${r.leaderless.join(", ")} have no leader after ${config.sendTimeoutMs} ms`);
      };
      if (!existing.has(config.topic) && !config.createTopics) {
        if (Date.now() - missingLogged > 30_000) {
          missingLogged = Date.now();
          logger.warn({ topic: config.topic }, `Kafka topic ${config.topic} does not exist; waiting for it (RAGMETER_KAFKA_CREATE_TOPICS=false)`);
        }
        missingSince = Date.now();
        throw new TopicMissingError(config.topic);
      }
      if (!existing.has(config.topic)) await setUp(config.createTopics ? [config.topic, dlq] : [config.topic]);
      else {
        await setUp([config.topic]);
        // Only the dead-letter topic is missing (the scorer writes it): sends need not wait for it.
        if (config.createTopics && !existing.has(dlq)) void setUp([dlq]).catch((err: unknown) => logger.warn({ error: explain(err) }, `could not create ${dlq}`));
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
    // The idempotent producer keeps one produce request in flight per connection; retries of a
    // request reuse its sequence numbers, so the broker drops a duplicate.
    const producer = createProducer(connection, { clientId: config.clientId, ...timing, idempotent: config.idempotent, retries: config.idempotent ? 5 : 3 });
    return { producer, pending: 0, failed: false, retired: false };
  };

  const retire = (s: ProducerSlot): void => {
    if (s.retired || s.pending > 0) return;
    s.retired = true;
    s.producer.close().catch((err: unknown) => logger.debug({ error: explain(err) }, "producer close failed"));
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
    record: Record_;
    size: number;
  }
  const queue: Queued[] = [];
  let active = 0;
  // The idempotent producer numbers the batches of a partition as it encodes them: one produce
  // call at a time keeps those numbers in the order the broker receives them.
  const maxConcurrentSends = config.idempotent ? 1 : 4;

  // One warning per cause while it lasts (refused credentials would repeat it at every back-off);
  // the cause is the explanation without the client's detail, which names the failed operation.
  let lastWarning = { cause: "", at: 0 };
  let lastCause = "";
  const warnOnce = (err: unknown, msg: string): string => {
    const line = explain(err);
    lastCause = line;
    const cause = line.replace(/ \[.*\]$/su, "");
    if (cause !== lastWarning.cause || Date.now() - lastWarning.at > 60_000) {
      lastWarning = { cause, at: Date.now() };
      logger.warn({ error: line }, msg);
    }
    return line;
  };
  const fail = (s: ProducerSlot, err: unknown): void => {
    s.failed = true;
    lastFailure = Date.now();
    readyCache = undefined;
    warnOnce(err, "Kafka send failed");
  };

  const pump = (): void => {
    while (active < maxConcurrentSends && queue.length > 0) {
      const chunk: Queued[] = [];
      let bytes = 0;
      let skip = 0;
      while (skip < queue.length) {
        const q = queue[skip]!;
        if (q.job.done) {
          skip++;
          continue;
        }
        if (chunk.length > 0 && bytes + q.size > config.maxMessageBytes) break;
        chunk.push(q);
        bytes += q.size;
        skip++;
      }
      queue.splice(0, skip);
      if (chunk.length === 0) return;
      const s = acquire();
      s.pending++;
      active++;
      const records = chunk.map((q) => q.record);
      s.producer
        .send({ messages: records })
        .then(
          () => {
            readyCache = { at: Date.now(), value: true };
            lastWarning = { cause: "", at: 0 };
            lastCause = "";
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
            const msg = explain(err);
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
      const topics = await withDeadline(getAdmin().listTopics(), 2_000, "answer a metadata request");
      if (topics.includes(config.topic)) value = { ready: true };
      else if (!config.createTopics) value = { ready: false, reason: "topic missing", topic: config.topic };
      else {
        await ensureTopics();
        value = { ready: true };
      }
    } catch (err) {
      logger.debug({ error: explain(err) }, "readiness check failed");
      dropAdmin();
      value = { ready: false, reason: "kafka unreachable" };
    }
    readyCache = { at: Date.now(), value: value.ready };
    readyCacheDetail = value.ready ? undefined : value;
    return value;
  };

  // Check (and create) the topics as soon as the sink exists, so the first request does not wait for it.
  void ensureTopics().catch((err: unknown) => {
    if (!(err instanceof KafkaUnavailableError)) warnOnce(err, "Kafka is unavailable");
  });

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
          throw new KafkaUnavailableError(`Kafka is unavailable: ${warnOnce(err, "Kafka is unavailable")}`, { cause: err });
        }
      }
      if (Date.now() - lastFailure < config.kafkaBackoffMs) {
        throw new KafkaUnavailableError(`Kafka is unavailable (recent failure${lastCause !== "" ? `: ${lastCause}` : ""}); retry later`);
      }
      // The same header bytes for every record of the request, in recordHeaders' order.
      const recordHeaderBytes = new Map<Buffer, Buffer>();
      let headerBytes = 0;
      for (const [k, v] of Object.entries(recordHeaders(signal, headers))) {
        const kb = Buffer.from(k, "utf8");
        const vb = Buffer.from(v, "utf8");
        recordHeaderBytes.set(kb, vb);
        headerBytes += kb.length + vb.length + 8;
      }
      let timer: NodeJS.Timeout | undefined;
      const done = new Promise<void>((resolve, reject) => {
        const job: Job = { remaining: records.length, done: false, resolve, reject };
        for (const r of records) {
          const key = r.key === null ? undefined : Buffer.from(r.key, "utf8");
          const record: Record_ = { topic: config.topic, value: Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength), headers: recordHeaderBytes };
          if (key !== undefined) record.key = key;
          queue.push({ job, record, size: r.value.byteLength + (key?.length ?? 0) + headerBytes + 64 });
        }
        timer = setTimeout(() => {
          if (job.done) return;
          job.done = true;
          lastFailure = Date.now();
          readyCache = undefined;
          if (slot) slot.failed = true;
          lastCause = `Kafka did not acknowledge the records within ${config.sendTimeoutMs} ms`;
          reject(new KafkaUnavailableError(lastCause));
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
      // Bounded too: a client's close() was seen to never settle (an admin client with an idle
      // connection, after a bench:peer round), which kept the process from exiting on SIGTERM.
      let timer: NodeJS.Timeout | undefined;
      const closing = Promise.allSettled([s?.producer.close(), admin?.close()]);
      const late = new Promise<"late">((r) => {
        timer = setTimeout(() => r("late"), Math.max(1_000, deadline - Date.now()));
      });
      if ((await Promise.race([closing, late]).finally(() => clearTimeout(timer))) === "late") {
        logger.warn({ timeoutMs: config.shutdownTimeoutMs }, "the Kafka clients did not close within the shutdown timeout; leaving them");
      }
    },
  };
  return sink;
}
