/**
 * The collector on every core: a Node cluster primary forks `config.workers` worker processes
 * (./worker.ts) that share one listening socket; each has its own Kafka producer and an equal share
 * of `maxInflightBytes`, so the bound on bytes in flight holds for the whole collector. The primary
 * holds no producer and parses no request; it restarts a worker that dies, sums their counters, and
 * on shutdown asks each to close gracefully and waits for them (bounded by the shutdown timeout).
 */
import cluster, { type Worker } from "node:cluster";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { PinoLogger } from "@ragmeter/runtime";
import { RagmeterError } from "@ragmeter/runtime";
import type { CollectorConfig } from "./config.js";
import type { CollectorStats, RunningCollector } from "./server.js";

/** Environment variable carrying a worker's configuration (JSON) from the primary. */
export const WORKER_CONFIG_ENV = "RAGMETER_COLLECTOR_WORKER_CONFIG";

/** Messages from a worker to the primary. */
export type WorkerMessage = { type: "listening"; url: string } | { type: "stats"; stats: CollectorStats };
/** Messages from the primary to a worker. */
export type PrimaryMessage = { type: "shutdown" };

const ZERO: CollectorStats = { requests: 0, acceptedItems: 0, rejectedItems: 0, records: 0, kafkaFailures: 0, inflightBytes: 0, peakInflightBytes: 0 };

/** Path of the worker entry point next to this module, or undefined when it is not built (e.g. running from sources). */
export function workerEntry(): string | undefined {
  const path = fileURLToPath(new URL("./worker.js", import.meta.url));
  return existsSync(path) ? path : undefined;
}

/** A worker that exited before it listened (bad address, port in use, …). */
export class WorkerStartError extends RagmeterError {
  override readonly name = "WorkerStartError";
  constructor(message: string) {
    super(message, { code: "environment" });
  }
}

/** Adds an exited worker's last counters to `retired` (the in-flight gauges are not counters). */
function addRetired(retired: CollectorStats, s: CollectorStats | undefined): void {
  if (!s) return;
  for (const k of Object.keys(retired) as (keyof CollectorStats)[]) if (k !== "inflightBytes" && k !== "peakInflightBytes") retired[k] += s[k];
}

/**
 * Starts the workers and resolves once every one listens.
 * @param entry the worker entry point ({@link workerEntry})
 * @throws WorkerStartError when a worker exits before listening (the others are stopped)
 */
export async function startCluster(config: CollectorConfig, logger: PinoLogger, entry: string): Promise<RunningCollector> {
  const share: CollectorConfig = { ...config, workers: 1, maxInflightBytes: Math.max(1, Math.floor(config.maxInflightBytes / config.workers)) };
  cluster.setupPrimary({ exec: entry, args: [], silent: false });
  const env = { [WORKER_CONFIG_ENV]: JSON.stringify(share) };
  const workers = new Set<Worker>();
  const lastStats = new Map<number, CollectorStats>();
  const retired: CollectorStats = { ...ZERO }; // counters of workers that exited
  let stopping = false;

  const url = await new Promise<string>((resolve, reject) => {
    let up = 0;
    let failed = false;
    const fork = (): void => {
      const w = cluster.fork(env);
      workers.add(w);
      let listened = false;
      w.on("message", (m: WorkerMessage) => {
        if (m?.type === "stats") lastStats.set(w.id, m.stats);
        else if (m?.type === "listening" && !listened) {
          listened = true;
          if (++up === config.workers) resolve(m.url);
        }
      });
      /** A worker that exits before listening fails the start once: the others are stopped. */
      const failStart = (code: number, signal: string): void => {
        if (failed) return;
        failed = true;
        stopping = true;
        for (const other of workers) other.process.kill("SIGTERM");
        reject(new WorkerStartError(`a collector worker exited (${signal ?? `code ${code}`}) before listening; see its error above`));
      };
      w.on("exit", (code, signal) => {
        workers.delete(w);
        addRetired(retired, lastStats.get(w.id));
        lastStats.delete(w.id);
        if (stopping) return;
        if (!listened) return failStart(code, signal);
        logger.warn({ code, signal }, "collector worker exited; starting another");
        fork();
      });
    };
    for (let i = 0; i < config.workers; i++) fork();
  });

  let closed: Promise<void> | undefined;
  const running: RunningCollector = {
    url,
    stats() {
      const total: CollectorStats = { ...retired };
      for (const s of lastStats.values()) for (const k of Object.keys(total) as (keyof CollectorStats)[]) total[k] += s[k];
      return total;
    },
    close() {
      closed ??= (async () => {
        stopping = true;
        const exits = [...workers].map((w) => new Promise<void>((r) => (w.isDead() ? r() : w.once("exit", () => r()))));
        for (const w of workers) if (w.isConnected()) w.send({ type: "shutdown" } satisfies PrimaryMessage);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all(exits),
          new Promise<void>((r) => {
            timer = setTimeout(() => {
              logger.warn({ workers: workers.size }, "collector workers did not exit within the shutdown timeout; killing them");
              for (const w of workers) w.process.kill("SIGKILL");
              r();
            }, config.shutdownTimeoutMs + 5_000);
          }),
        ]).finally(() => clearTimeout(timer));
        logger.info({ ...running.stats() }, "collector closed");
      })();
      return closed;
    },
  };
  return running;
}
