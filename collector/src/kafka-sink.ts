/**
 * Kafka side of the collector: a producer of @ragmeter/kafka (acks = all, keys partitioned as
 * Kafka's Java client does) behind a small supervisor that replaces the producer after a failure,
 * fails fast for a short back-off while Kafka is down, and answers readiness through an admin
 * client. The parts are in producer/: topics, producer slots, group commit (queue, sender),
 * readiness, warnings, close.
 */

import { explainKafkaError, type KafkaConnection } from "@ragmeter/kafka";
import type { Signal } from "@ragmeter/otlp";
import type { PinoLogger } from "@ragmeter/runtime";
import type { TraceRecord } from "./batching.js";
import type { CollectorConfig } from "./config.js";
import { KafkaUnavailableError, TopicMissingError } from "./errors.js";
import { createAdminHolder } from "./producer/admin.js";
import { closeClients } from "./producer/close.js";
import type { Job } from "./producer/queue.js";
import { createReadiness, type Readiness } from "./producer/readiness.js";
import { type RecordHeaderSet, recordHeaderSet, toProducedRecords } from "./producer/records.js";
import { createSender } from "./producer/sender.js";
import { createProducerSlots } from "./producer/slots.js";
import { inBackoff, newSinkState } from "./producer/state.js";
import { createTopicGuard } from "./producer/topics.js";
import { createWarner } from "./producer/warnings.js";

export type { Readiness } from "./producer/readiness.js";

/** True when `headers` has no own key. */
function noHeaders(headers: Record<string, string>): boolean {
  for (const _ in headers) return false;
  return true;
}

/** Where the collector's records go. Implementations must not resolve before the data is durable. */
export interface RecordSink {
  /**
   * Writes the records; resolves only once Kafka acknowledged all of them (acks = all).
   * @param headers extra headers for every record (the request's trace context)
   * @param release called at most once, when the sink holds no view of the records' bytes any more
   *   (the collector then reuses their buffer); a sink that keeps them, or never says, need not call it
   * @throws KafkaUnavailableError when Kafka cannot be reached or does not acknowledge in time
   */
  send(signal: Signal, records: TraceRecord[], headers: Record<string, string>, release?: () => void): Promise<void>;
  /** True when Kafka answers a metadata request for the topic (bounded wait). */
  ready(): Promise<boolean>;
  /** Why the sink is not ready (Kafka unreachable, or the topic missing); optional for other sinks. */
  readiness?(): Promise<Readiness>;
  /** True while the last attempt failed within the back-off window. */
  degraded(): boolean;
  /** Waits for sends in progress, then disconnects. */
  close(): Promise<void>;
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
  const state = newSinkState();
  const admin = createAdminHolder(connection, config.clientId, timing);
  const topics = createTopicGuard(config, logger, admin, explain);
  const slots = createProducerSlots(connection, config, timing, logger, explain);
  const warn = createWarner(state, logger, explain);
  const sender = createSender(config, { state, slots, topics, warn, explain });
  const readiness = createReadiness(config, { state, admin, topics, logger, explain });

  // Check (and create) the topics as soon as the sink exists, so the first request does not wait for it.
  void topics.ensure().catch((err: unknown) => {
    if (!(err instanceof KafkaUnavailableError)) warn(err, "Kafka is unavailable");
  });

  /** Checks the topics again once the back-off since they were found missing has passed. */
  const ensureTopics = async (): Promise<void> => {
    if (Date.now() - topics.missingSince() < config.kafkaBackoffMs) throw new TopicMissingError(config.topic);
    try {
      await topics.ensure();
    } catch (err) {
      if (err instanceof KafkaUnavailableError) throw err;
      state.lastFailure = Date.now();
      throw new KafkaUnavailableError(`Kafka is unavailable: ${warn(err, "Kafka is unavailable")}`, { cause: err });
    }
  };
  /** Refuses a send while the topics are not known to exist or Kafka failed within the back-off. */
  const admit = async (): Promise<void> => {
    if (!topics.ok()) await ensureTopics();
    if (inBackoff(state, config.kafkaBackoffMs, Date.now())) {
      throw new KafkaUnavailableError(`Kafka is unavailable (recent failure${state.lastCause !== "" ? `: ${state.lastCause}` : ""}); retry later`);
    }
  };

  // The header bytes of a request without trace context headers (most), made once per signal. The
  // producer reads a record's header map and never changes it, so records of many requests share it.
  const signalOnly: Record<Signal, RecordHeaderSet> = { traces: recordHeaderSet("traces", {}), logs: recordHeaderSet("logs", {}) };

  /**
   * A request's job: settles when Kafka acknowledged all its records, or fails after sendTimeoutMs.
   * `release` runs once no produce call holds one of its records (they all settled, or were dropped
   * from the queue unsent), which may be after the job failed.
   */
  const sendRecords = async (signal: Signal, records: TraceRecord[], headers: Record<string, string>, release: (() => void) | undefined): Promise<void> => {
    const set = noHeaders(headers) ? signalOnly[signal] : recordHeaderSet(signal, headers);
    const produced = toProducedRecords(config.topic, signal, headers, records, set);
    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<void>((resolve, reject) => {
      const job: Job = { remaining: records.length, held: records.length, release, done: false, resolve, reject };
      sender.add(produced.map(({ record, size }) => ({ job, record, size })));
      timer = setTimeout(() => {
        if (job.done) return;
        job.done = true;
        state.lastFailure = Date.now();
        state.readyCache = undefined;
        const s = slots.current();
        if (s) s.failed = true;
        state.lastCause = `Kafka did not acknowledge the records within ${config.sendTimeoutMs} ms`;
        reject(new KafkaUnavailableError(state.lastCause));
      }, config.sendTimeoutMs).unref();
    });
    sender.pump();
    try {
      await done;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    async send(signal, records, headers, release) {
      let queued = false;
      try {
        if (state.closed) throw new KafkaUnavailableError("collector is shutting down");
        if (records.length === 0) return;
        // The usual case (topics there, no recent failure) goes on without a turn of the event loop.
        if (!topics.ok() || inBackoff(state, config.kafkaBackoffMs, Date.now())) await admit();
        queued = true;
      } finally {
        if (!queued) release?.();
      }
      await sendRecords(signal, records, headers, release);
    },
    async ready() {
      return (await readiness()).ready;
    },
    readiness,
    degraded: () => inBackoff(state, config.kafkaBackoffMs, Date.now()),
    async close() {
      state.closed = true;
      await closeClients(slots.take(), admin.current(), config.shutdownTimeoutMs, logger);
    },
  };
}
