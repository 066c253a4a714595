/**
 * `ragmeter collector`: one commander definition, registered by the `ragmeter` CLI and by the
 * stand-alone entry point (`collector/dist/main.js`). Starts the collector from flags and
 * environment and stops it gracefully on SIGTERM/SIGINT.
 */

import { createLogger, type Logger, type PinoLogger, pinoOf, untilShutdown } from "@ragmeter/runtime";
import type { Command } from "commander";
import { startCluster, workerEntry } from "./cluster.js";
import { type CollectorFlags, loadCollectorConfig } from "./config.js";
import type { RunningCollector } from "./server.js";
import { releaseStartupPagesOnce } from "./startupPages.js";
import { type ExecHost, execCollectorBundle } from "./tuning.js";

/** Options of {@link runCollectorCommand}, mainly for tests. */
export interface CollectorCommandOptions {
  /** Environment to read (default process.env). */
  env?: Record<string, string | undefined>;
  /** Logger (default: pino, JSON lines on stderr at the configured level). */
  logger?: Logger | PinoLogger;
  /** Called once the collector listens. */
  onListening?: (collector: RunningCollector) => void;
  /** Stops the collector when aborted (in addition to SIGTERM and SIGINT). */
  signal?: AbortSignal;
  /** Set when the collector runs in this process although the command asked for the bundle (./tuning.ts): why; logged at start. */
  untuned?: string;
}

/**
 * Runs the collector until SIGTERM, SIGINT or `options.signal` aborts, then shuts it down
 * gracefully. Resolves once it is closed.
 * @throws CollectorConfigError on invalid configuration (the CLI exits with code 2); errors from listen (e.g. EADDRINUSE)
 */
export async function runCollectorCommand(flags: CollectorFlags = {}, options: CollectorCommandOptions = {}): Promise<void> {
  const config = loadCollectorConfig(options.env ?? process.env, flags);
  // Listening for SIGTERM/SIGINT before the port opens: a signal sent as soon as "collector
  // listening" is logged (a supervisor, a test) stops the collector gracefully instead of killing it.
  const failed = new AbortController(); // releases the signal listeners when the start fails
  const shutdown = untilShutdown(options.signal ? AbortSignal.any([options.signal, failed.signal]) : failed.signal);
  const logger = options.logger ? pinoOf(options.logger) : createLogger({ level: config.logLevel });
  if (options.untuned !== undefined) logger.warn({ reason: options.untuned }, "running the collector in this process, without the bundle and its Node settings");
  const entry = config.workers > 1 ? workerEntry() : undefined;
  if (config.workers > 1 && entry === undefined) logger.warn({ workers: config.workers }, "collector/dist/worker.js is not built: running one process");
  let collector: RunningCollector;
  try {
    if (entry !== undefined) {
      collector = await startCluster(config, logger, entry);
      await releaseStartupPagesOnce(config, logger);
      logger.info({ url: collector.url, workers: config.workers, topic: config.topic, brokers: config.brokers, idempotent: config.idempotent }, "collector listening");
    } else {
      // Loaded here so that a cluster primary does not load the HTTP server, the Kafka client and the codecs.
      const { startCollector } = await import("./server.js");
      collector = await startCollector(config, { logger, beforeListen: () => releaseStartupPagesOnce(config, logger) });
    }
  } catch (err) {
    failed.abort();
    throw err;
  }
  options.onListening?.(collector);
  const why = await shutdown;
  logger.info({ reason: why }, "shutting down");
  await collector.close();
}

/** Flags of `ragmeter collector` as commander parses them. */
interface CommandFlags {
  port?: string;
  host?: string;
  brokers?: string;
  topic?: string;
  workers?: string;
}

/**
 * Registers `collector` on `program`: flags `--port`, `--host`, `--brokers`, `--topic`, `--workers` (each wins
 * over its environment variable; validated by the collector configuration schema).
 * @param onDone called after the collector has shut down (the CLI records its exit code)
 * @param execBundle the process to replace with the collector's bundle and Node settings (./tuning.ts)
 *   before anything else runs: `ragmeter collector` passes `process`; the bundle's own entry none
 */
export function registerCollectorCommand(
  program: Command,
  options: Omit<CollectorCommandOptions, "onListening" | "untuned"> & { onDone?: () => void; execBundle?: ExecHost } = {},
): Command {
  const { onDone, execBundle, ...run } = options;
  return program
    .command("collector")
    .description("OTLP/HTTP receiver (POST /v1/traces, /v1/logs) that forwards one Kafka message per trace")
    .option("--port <n>", "listen port (env RAGMETER_COLLECTOR_PORT, default 4318)")
    .option("--host <addr>", "listen address (env RAGMETER_COLLECTOR_HOST, default 127.0.0.1; 0.0.0.0 for every interface, with RAGMETER_COLLECTOR_TOKEN)")
    .option("--brokers <list>", "Kafka bootstrap servers host:port,… (env KAFKA_BROKERS, default 127.0.0.1:9092)")
    .option("--topic <name>", "topic (env RAGMETER_TOPIC, default ragmeter.spans)")
    .option("--workers <n>", "worker processes sharing the port, each with its own producer (env RAGMETER_COLLECTOR_WORKERS, default 1 = one process; auto = the available cores)")
    .action(async (o: CommandFlags) => {
      const given = Object.entries(o).filter(([, v]) => v !== undefined) as [string, string][];
      const flags = Object.fromEntries(given) as CollectorFlags;
      // `ragmeter collector`: this process becomes the bundle with its Node settings (no return), else says why not.
      // a bad flag: the CLI's one line and exit 2, before any exec (deprecation warnings: once, by the process that runs the collector)
      if (execBundle) loadCollectorConfig(run.env ?? process.env, flags, () => undefined);
      const untuned = execBundle
        ? execCollectorBundle(
            given.flatMap(([k, v]) => [`--${k}`, v]),
            run.env ?? process.env,
            execBundle,
          )
        : undefined;
      await runCollectorCommand(flags, { ...run, ...(untuned === undefined ? {} : { untuned }) });
      onDone?.();
    });
}
