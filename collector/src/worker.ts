/**
 * Entry point of a collector worker process (Node cluster, forked by ./cluster.ts): runs one
 * collector on the listening socket the primary shares, with the configuration the primary passes
 * (its share of the in-flight budget), reports when it listens and its counters every second, and
 * closes gracefully when the primary asks (or goes away).
 */
import cluster from "node:cluster";
import { createLogger } from "@ragmeter/runtime";
import { type PrimaryMessage, WORKER_CONFIG_ENV, type WorkerMessage } from "./cluster.js";
import { collectorConfigSchema } from "./config.js";
import { startCollector } from "./server.js";
import { releaseStartupPagesOnce } from "./startupPages.js";

async function main(): Promise<void> {
  const raw = process.env[WORKER_CONFIG_ENV];
  if (!cluster.isWorker || raw === undefined) throw new Error(`collector/dist/worker.js is started by the collector's cluster primary (${WORKER_CONFIG_ENV} is not set)`);
  const config = collectorConfigSchema.parse(JSON.parse(raw));
  const logger = createLogger({ level: config.logLevel }).child({ worker: cluster.worker?.id ?? 0 });
  const send = (m: WorkerMessage): void => void process.send?.(m);
  const collector = await startCollector(config, { logger, beforeListen: () => releaseStartupPagesOnce(config, logger) });
  send({ type: "listening", url: collector.url });
  const report = setInterval(() => send({ type: "stats", stats: collector.stats() }), 1_000);
  report.unref();
  await new Promise<void>((resolve) => {
    process.on("message", (m: PrimaryMessage) => {
      if (m?.type === "shutdown") resolve();
    });
    process.once("disconnect", () => resolve()); // the primary is gone
    process.once("SIGTERM", () => resolve());
    process.on("SIGINT", () => {}); // Ctrl-C reaches the whole process group: the primary decides
  });
  clearInterval(report);
  await collector.close();
  send({ type: "stats", stats: collector.stats() });
  if (process.connected) process.disconnect();
}

main().catch((err: unknown) => {
  process.stderr.write(`ragmeter collector worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
  if (process.connected) process.disconnect();
});
