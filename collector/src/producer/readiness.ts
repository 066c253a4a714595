/** The sink's readiness: Kafka answers a metadata request and the topic exists (or is created), cached for a second. */
import type { PinoLogger } from "@ragmeter/runtime";
import type { CollectorConfig } from "../config.js";
import type { AdminHolder } from "./admin.js";
import { withDeadline } from "./deadline.js";
import type { SinkState } from "./state.js";
import type { TopicGuard } from "./topics.js";

/** Readiness of a sink: ready, or why not. */
export type Readiness = { ready: true } | { ready: false; reason: "kafka unreachable" } | { ready: false; reason: "topic missing"; topic: string };

/** How long a measured readiness is answered again without asking Kafka. */
const READY_CACHE_MS = 1_000;

export function createReadiness(
  config: Pick<CollectorConfig, "topic" | "createTopics">,
  parts: { state: SinkState; admin: AdminHolder; topics: TopicGuard; logger: PinoLogger; explain: (err: unknown) => string },
): () => Promise<Readiness> {
  const { state, admin, topics, logger, explain } = parts;
  let detail: Readiness | undefined;
  /** Asks Kafka: the topic is listed, or created when allowed. */
  const measure = async (): Promise<Readiness> => {
    try {
      const names = await withDeadline(admin.get().listTopics(), 2_000, "answer a metadata request");
      if (names.includes(config.topic)) return { ready: true };
      if (!config.createTopics) return { ready: false, reason: "topic missing", topic: config.topic };
      await topics.ensure();
      return { ready: true };
    } catch (err) {
      logger.debug({ error: explain(err) }, "readiness check failed");
      admin.drop();
      return { ready: false, reason: "kafka unreachable" };
    }
  };
  return async () => {
    if (state.closed) return { ready: false, reason: "kafka unreachable" };
    const cached = state.readyCache;
    if (cached && Date.now() - cached.at < READY_CACHE_MS) {
      return cached.value ? { ready: true } : (detail ?? { ready: false, reason: "kafka unreachable" });
    }
    const value = await measure();
    state.readyCache = { at: Date.now(), value: value.ready };
    detail = value.ready ? undefined : value;
    return value;
  };
}
