/**
 * The producer and the admin client, built from a {@link KafkaConnection} (brokers, TLS, SASL) so
 * every client of ragmeter reaches a secured broker the same way.
 *
 * Keys are partitioned as Kafka's Java client does — `toPositive(murmur2(key)) % partitions`, the
 * sign bit cleared — as the client's own `compatibilityPartitioner` does, not its default (`murmur2
 * >>> 0`, which puts about half the keys elsewhere), in integer arithmetic (./partitioner.ts): one
 * trace id keeps its partition whichever producer wrote it (ragmeter's collector, the OpenTelemetry
 * Collector's exporter, a Java client).
 */
import { Admin, type MessageToProduce, ProduceAcks, Producer } from "@platformatic/kafka";
import { javaCompatiblePartitioner } from "./partitioner.js";
import { clientOptions, type KafkaConnection } from "./settings.js";

/** Timeouts and retries of a client. */
export interface ClientTiming {
  /** TCP (and TLS, SASL) connection bound, ms (default 5000). */
  readonly connectTimeoutMs?: number;
  /** Wait for a response to one request, ms; also the broker-side timeout of requests that carry one (default 30000). */
  readonly requestTimeoutMs?: number;
  /** Retries of a failed operation (default 3); 0 fails at the first error. */
  readonly retries?: number;
  /** Wait between retries, ms (default 250). */
  readonly retryDelayMs?: number;
}

/** Options every client shares: identity, connection, timing. */
export function baseOptions(c: KafkaConnection, clientId: string, t: ClientTiming = {}) {
  return {
    clientId,
    ...clientOptions(c),
    connectTimeout: t.connectTimeoutMs ?? 5_000,
    requestTimeout: t.requestTimeoutMs ?? 30_000,
    timeout: t.requestTimeoutMs ?? 30_000,
    retries: t.retries ?? 3,
    retryDelay: t.retryDelayMs ?? 250,
  };
}

/** The admin client of @platformatic/kafka (topics, offsets, metadata). */
export type KafkaAdmin = Admin;

/** An admin client (topics, offsets, metadata). */
export function createAdmin(c: KafkaConnection, clientId: string, t: ClientTiming = {}): Admin {
  return new Admin(baseOptions(c, clientId, t));
}

/** Keys, values and header names and values as bytes: what ragmeter produces. */
export type BytesProducer = Producer<Buffer, Buffer, Buffer, Buffer>;

/** A record as {@link BytesProducer.send} takes it. */
export type ProducedRecord = MessageToProduce<Buffer, Buffer, Buffer, Buffer>;

/** Options of {@link createProducer}. */
export interface ProducerSettings extends ClientTiming {
  readonly clientId: string;
  /**
   * Idempotent producer: the broker drops a retried batch it already has (sequence numbers per
   * partition). It needs one produce request in flight per partition at a time.
   */
  readonly idempotent?: boolean;
}

/**
 * A producer that waits for every in-sync replica (acks = all), never creates topics by producing
 * to them (topics come from {@link setUpTopics}), sends uncompressed and partitions keys as
 * Kafka's Java client does (see the module comment).
 */
export function createProducer(c: KafkaConnection, s: ProducerSettings): BytesProducer {
  return new Producer<Buffer, Buffer, Buffer, Buffer>({
    ...baseOptions(c, s.clientId, s),
    idempotent: s.idempotent ?? false,
    acks: ProduceAcks.ALL,
    autocreateTopics: false,
    compression: "none",
    partitioner: javaCompatiblePartitioner,
  });
}
