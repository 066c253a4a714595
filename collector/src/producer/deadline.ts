/** A promise bounded in time: Kafka calls that may never settle. */
import { KafkaUnavailableError } from "../errors.js";

/** `p`, or a KafkaUnavailableError "Kafka did not `what` within `ms` ms" if it has not settled by then. */
export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KafkaUnavailableError(`Kafka did not ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
