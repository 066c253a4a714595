/** Closing the sink: wait for sends in progress, then close the Kafka clients, bounded by the shutdown timeout. */
import type { KafkaAdmin } from "@ragmeter/kafka";
import type { PinoLogger } from "@ragmeter/runtime";
import type { ProducerSlot } from "./slots.js";

export async function closeClients(s: ProducerSlot | undefined, admin: KafkaAdmin | undefined, shutdownTimeoutMs: number, logger: PinoLogger): Promise<void> {
  const deadline = Date.now() + shutdownTimeoutMs;
  while (s && s.pending > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  // Bounded too: a client's close() was seen to never settle (an admin client with an idle
  // connection, after a bench:peer round), which kept the process from exiting on SIGTERM.
  let timer: NodeJS.Timeout | undefined;
  const closing = Promise.allSettled([s?.producer.close(), admin?.close()]);
  const late = new Promise<"late">((r) => {
    timer = setTimeout(() => r("late"), Math.max(1_000, deadline - Date.now()));
  });
  if ((await Promise.race([closing, late]).finally(() => clearTimeout(timer))) === "late") {
    logger.warn({ timeoutMs: shutdownTimeoutMs }, "the Kafka clients did not close within the shutdown timeout; leaving them");
  }
}
