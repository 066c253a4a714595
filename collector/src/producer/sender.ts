/**
 * Group commit, the sending part: takes chunks off the queue while fewer than the allowed produce
 * calls are in progress, and settles their requests with Kafka's answer.
 */
import { isUnknownTopic } from "@ragmeter/kafka";
import type { CollectorConfig } from "../config.js";
import { KafkaUnavailableError } from "../errors.js";
import { acknowledge, failChunk, type Queued, takeChunk } from "./queue.js";
import type { ProducerSlot, ProducerSlots } from "./slots.js";
import type { SinkState } from "./state.js";
import type { TopicGuard } from "./topics.js";

export interface Sender {
  /** Queues records; their jobs settle when Kafka answers. */
  add(items: readonly Queued[]): void;
  /** Starts produce calls for queued records while fewer than the allowed number are in progress. */
  pump(): void;
}

export interface SenderParts {
  state: SinkState;
  slots: ProducerSlots;
  topics: TopicGuard;
  warn: (err: unknown, msg: string) => string;
  explain: (err: unknown) => string;
}

export function createSender(config: Pick<CollectorConfig, "idempotent" | "maxMessageBytes">, parts: SenderParts): Sender {
  const { state, slots, topics, warn, explain } = parts;
  const queue: Queued[] = [];
  let active = 0;
  // The idempotent producer numbers the batches of a partition as it encodes them: one produce
  // call at a time keeps those numbers in the order the broker receives them.
  const maxConcurrentSends = config.idempotent ? 1 : 4;

  const succeeded = (chunk: Queued[]): void => {
    state.readyCache = { at: Date.now(), value: true };
    state.lastWarning = { cause: "", at: 0 };
    state.lastCause = "";
    acknowledge(chunk);
  };
  const failed = (s: ProducerSlot, chunk: Queued[], err: unknown): void => {
    if (isUnknownTopic(err)) topics.forget();
    s.failed = true;
    state.lastFailure = Date.now();
    state.readyCache = undefined;
    warn(err, "Kafka send failed");
    const msg = explain(err);
    failChunk(chunk, (cause) => new KafkaUnavailableError(`Kafka did not acknowledge the records: ${msg}`, { cause }), err);
  };

  const pump = (): void => {
    while (active < maxConcurrentSends && queue.length > 0) {
      const chunk = takeChunk(queue, config.maxMessageBytes);
      if (chunk.length === 0) return;
      const s = slots.acquire();
      s.pending++;
      active++;
      s.producer
        .send({ messages: chunk.map((q) => q.record) })
        .then(
          () => succeeded(chunk),
          (err: unknown) => failed(s, chunk, err),
        )
        .finally(() => {
          active--;
          s.pending--;
          if (s !== slots.current()) slots.retire(s);
          pump();
        });
    }
  };

  return {
    add(items) {
      for (const q of items) queue.push(q);
    },
    pump,
  };
}
