/**
 * Reading the errors of the Kafka client (@platformatic/kafka): they nest (an AggregateError of
 * retries, each with its protocol errors and causes), so the collector walks the tree to tell a
 * missing topic from an unreachable broker and to log one line that names the root cause.
 */

interface ErrorNode {
  message?: unknown;
  apiId?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** Every error in the tree under `err` (itself first, then `errors` and `cause`, breadth first, bounded). */
function walk(err: unknown, max = 64): ErrorNode[] {
  const out: ErrorNode[] = [];
  const queue: unknown[] = [err];
  const seen = new Set<unknown>();
  while (queue.length > 0 && out.length < max) {
    const e = queue.shift();
    if (e === null || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const node = e as ErrorNode;
    out.push(node);
    if (Array.isArray(node.errors)) queue.push(...node.errors);
    if (node.cause !== undefined) queue.push(node.cause);
  }
  return out;
}

/** True when the error (or one nested in it) says the topic or one of its partitions does not exist. */
export function isUnknownTopic(err: unknown): boolean {
  return walk(err).some(
    (e) =>
      e.apiId === "UNKNOWN_TOPIC_OR_PARTITION" ||
      e.apiId === "UNKNOWN_TOPIC_ID" ||
      (typeof e.message === "string" && /^Unknown topic |does not host this topic-partition/u.test(e.message)),
  );
}

/** True when the error (or one nested in it) says the topic already exists. */
export function isTopicExists(err: unknown): boolean {
  return walk(err).some((e) => e.apiId === "TOPIC_ALREADY_EXISTS" || (typeof e.message === "string" && /already exists/iu.test(e.message)));
}

/**
 * One line for a log or an error body: the top message, then the distinct messages nested in it
 * (e.g. `initProducerId failed 3 times: Cannot connect to any broker: Connection to 127.0.0.1:1 failed.`).
 */
export function describeKafkaError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts: string[] = [];
  for (const e of walk(err, 16)) {
    const m = typeof e.message === "string" ? e.message.trim().replace(/\.$/u, "") : "";
    if (m !== "" && !parts.includes(m)) parts.push(m);
  }
  return parts.length > 0 ? parts.slice(0, 4).join(": ") : err.name;
}
