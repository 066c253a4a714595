/**
 * `ragmeter collector`: start the collector from flags and environment, stop on SIGTERM/SIGINT.
 */
import { loadCollectorConfig, type CollectorFlags } from "./config.js";
import { createJsonLogger, type Logger } from "./logger.js";
import { startCollector, type RunningCollector } from "./server.js";

/** Options of {@link runCollectorCommand}, mainly for tests. */
export interface CollectorCommandOptions {
  /** Environment to read (default process.env). */
  env?: Record<string, string | undefined>;
  /** Logger (default: JSON lines on stderr at the configured level). */
  logger?: Logger;
  /** Called once the collector listens. */
  onListening?: (collector: RunningCollector) => void;
  /** Stops the collector when aborted (in addition to SIGTERM and SIGINT). */
  signal?: AbortSignal;
}

/**
 * Runs the collector until SIGTERM, SIGINT or `options.signal` aborts, then shuts it down
 * gracefully. Resolves once it is closed.
 * @throws CollectorConfigError on invalid configuration (the CLI exits with code 2); errors from listen (e.g. EADDRINUSE)
 */
export async function runCollectorCommand(flags: CollectorFlags = {}, options: CollectorCommandOptions = {}): Promise<void> {
  const config = loadCollectorConfig(options.env ?? process.env, flags);
  const logger = options.logger ?? createJsonLogger(process.stderr, config.logLevel);
  const collector = await startCollector(config, { logger });
  options.onListening?.(collector);
  await new Promise<void>((resolve, reject) => {
    const stop = (why: string): void => {
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      options.signal?.removeEventListener("abort", onAbort);
      logger.info("shutting down", { reason: why });
      collector.close().then(resolve, reject);
    };
    const onTerm = (): void => stop("SIGTERM");
    const onInt = (): void => stop("SIGINT");
    const onAbort = (): void => stop("abort");
    process.once("SIGTERM", onTerm);
    process.once("SIGINT", onInt);
    if (options.signal?.aborted) stop("abort");
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
