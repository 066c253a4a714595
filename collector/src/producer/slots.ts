/**
 * The sink's producer: one current producer, replaced after a failure; a replaced one is closed
 * once its sends in progress are done.
 */
import { type BytesProducer, createProducer, type KafkaConnection } from "@ragmeter/kafka";
import type { PinoLogger } from "@ragmeter/runtime";
import type { CollectorConfig } from "../config.js";

/** A producer and its sends in progress. */
export interface ProducerSlot {
  producer: BytesProducer;
  pending: number;
  failed: boolean;
  retired: boolean;
}

export interface ProducerSlots {
  /** The current producer, a new one if there is none or it failed (the failed one is retired). */
  acquire(): ProducerSlot;
  /** Closes `s` once it has no send in progress (at most once). */
  retire(s: ProducerSlot): void;
  /** The current producer, if any. */
  current(): ProducerSlot | undefined;
  /** Forgets the current producer and returns it (for close). */
  take(): ProducerSlot | undefined;
}

type Timing = { connectTimeoutMs: number; requestTimeoutMs: number; retryDelayMs: number };

export function createProducerSlots(
  connection: KafkaConnection,
  config: Pick<CollectorConfig, "clientId" | "idempotent">,
  timing: Timing,
  logger: PinoLogger,
  explain: (err: unknown) => string,
): ProducerSlots {
  let slot: ProducerSlot | undefined;
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
  return {
    acquire() {
      if (!slot || slot.failed) {
        const old = slot;
        slot = newSlot();
        if (old) retire(old);
      }
      return slot;
    },
    retire,
    current: () => slot,
    take() {
      const s = slot;
      slot = undefined;
      return s;
    },
  };
}
