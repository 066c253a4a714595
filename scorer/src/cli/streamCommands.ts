import { loadCollectorConfig, type RunningCollector, startCollector } from "@ragmeter/collector";
import type { EvaluationSink } from "@ragmeter/core/domain/evaluation";
import { JudgeBudget } from "@ragmeter/core/scoring/budget";
import { createJsonLogger as createLogger, DEFAULT_LISTEN_HOST, readApiRefusal, readSetting, readTlsMaterial, SETTINGS, tlsFilesOf, untilShutdown } from "@ragmeter/runtime";
import type { Store } from "@ragmeter/store/client";
import { loadStreamConfig, type StreamConfig } from "@ragmeter/stream/config";
import { passBatchSize, type ScoringSettings } from "@ragmeter/stream/loop";
import { type ScorerService, startScorerService } from "@ragmeter/stream/service";
import { runtimeTuning, runtimeTuningEnabled } from "@ragmeter/tuning";
import type { Command } from "commander";
import { watchContentCapture } from "./api/contentWatch.js";
import { storeReader } from "./api/reader.js";
import { readApiRoutes, startReadApi } from "./api/server.js";
import { type CommandContext, intArg, kOption } from "./args.js";
import type { Config } from "./config.js";
import { type Io, judgeFor, withEvaluationExport, withStore } from "./context.js";
import { EXIT } from "./evalCommand.js";

/** Flags of `ragmeter scorer` and `ragmeter serve`. */
export interface StreamFlags {
  readonly home?: string;
  readonly brokers?: string;
  readonly quietMs?: number;
  readonly k?: readonly number[];
  readonly port?: number;
  readonly host?: string;
  /** Port of the read API (design §3); `serve` defaults to the OTLP port, `scorer` has none without it. */
  readonly apiPort?: number;
  /** `ragmeter` (ragmeter's collector) or `otelcol` (the OpenTelemetry Collector's Kafka exporter). */
  readonly source?: string;
}

/** The scoring settings of `scorer` and `serve`: live traffic, the stream's sampling and concurrency, batches by judge ({@link passBatchSize}). */
async function liveScoring(
  config: Config,
  flags: StreamFlags,
  stream: StreamConfig,
  evaluations: EvaluationSink | null,
  log: { warn(message: string): void },
): Promise<ScoringSettings> {
  const thread = stream.judgeThread === true ? { onInline: (reason: string) => log.warn(`the heuristic judge runs on the main thread: ${reason}`) } : null;
  const judge = await judgeFor(config, thread);
  return {
    judge,
    ks: flags.k ?? [1, 3, 5, 10],
    quietMs: stream.quietMs,
    liveSampleRate: stream.liveSampleRate,
    ...(stream.liveSampleRates !== undefined ? { liveSampleRates: stream.liveSampleRates } : {}),
    budget: stream.judgeBudget !== undefined ? new JudgeBudget(stream.judgeBudget) : null,
    concurrency: stream.concurrency,
    batchSize: passBatchSize(judge),
    ...(stream.batchWaitMs !== undefined ? { batchWaitMs: stream.batchWaitMs } : {}),
    evaluations,
  };
}

/** The store and the evaluation export (service `ragmeter-scorer`) of `scorer` and `serve`, open for the length of `fn`. */
function withScorerStore(
  io: Io,
  flags: StreamFlags,
  log: { warn(message: string): void },
  fn: (store: Store, config: Config, evaluations: EvaluationSink | null) => Promise<number>,
): Promise<number> {
  return withStore(io, flags, (store, config) =>
    withEvaluationExport(
      config,
      "ragmeter-scorer",
      (m) => log.warn(m),
      (evaluations) => fn(store, config, evaluations),
    ),
  );
}

/**
 * `ragmeter scorer`: consumes `ragmeter.spans` in consumer group `ragmeter-scorer`, stores spans,
 * scores settled traces into ClickHouse; runs until SIGTERM/SIGINT (or `signal`).
 */
export async function scorerCommand(io: Io, flags: StreamFlags, signal?: AbortSignal): Promise<number> {
  const stream = loadStreamConfig(io.env, {
    ...(flags.brokers !== undefined ? { brokers: flags.brokers } : {}),
    ...(flags.quietMs !== undefined ? { quietMs: flags.quietMs } : {}),
    ...(flags.source !== undefined ? { source: flags.source } : {}),
  });
  const brokers = stream.brokers ?? ["127.0.0.1:9092"];
  // HTTPS of the read API: the files checked before anything starts (a bad one is one line naming its setting)
  const tlsFiles = flags.apiPort !== undefined ? tlsFilesOf(readSetting(SETTINGS.RAGMETER_TLS_CERT_FILE, io.env), readSetting(SETTINGS.RAGMETER_TLS_KEY_FILE, io.env)) : null;
  if (tlsFiles !== null) readTlsMaterial(tlsFiles);
  const log = createLogger(process.stderr, "info", "scorer");
  // The scorer is the process's job: its heap kept near the live set (RAGMETER_RUNTIME_TUNING).
  runtimeTuning(runtimeTuningEnabled(io.env)).limitHeapGrowth(stream.heapGrowthPercent);
  return withScorerStore(io, flags, log, async (store, config, evaluations) => {
    const scoring = await liveScoring(config, flags, stream, evaluations, log);
    const service = await startScorerService({
      store,
      stream: { ...stream, brokers },
      consume: true,
      log,
      scoring,
    });
    const reader = storeReader(store, config.prices);
    const token = readSetting(SETTINGS.RAGMETER_COLLECTOR_TOKEN, io.env);
    const apiHost = flags.host ?? DEFAULT_LISTEN_HOST;
    const api = flags.apiPort !== undefined ? await startScorerApi(reader, { host: apiHost, port: flags.apiPort }, token, tlsFiles, log) : null;
    if (api) store.recordApiUrl(api.url);
    const watch = watchContentCapture(reader, log);
    log.info("scorer running", {
      brokers,
      source: stream.source,
      topics: (stream.topics ?? []).map((t) => t.topic),
      group: stream.groupId,
      quiet_ms: stream.quietMs,
      store: store.location,
      retention_days: config.retention,
      ...(api ? { api: api.url } : {}),
    });
    warnAborted(store, log);
    const why = await untilShutdown(signal);
    log.info("scorer stopping", { reason: why });
    watch.stop();
    await api?.close();
    await service.stop();
    await scoring.judge.close?.();
    return EXIT.done;
  });
}

/** The scorer's read API on its own port (HTTPS with `tlsFiles`, the bearer token when set); warns when it answers 403 to the non-loopback clients. */
async function startScorerApi(
  reader: ReturnType<typeof storeReader>,
  at: { host: string; port: number },
  token: string | undefined,
  tlsFiles: ReturnType<typeof tlsFilesOf>,
  log: ReturnType<typeof createLogger>,
): Promise<{ url: string; close(): Promise<void> }> {
  const api = await startReadApi(reader, at, { ...(token !== undefined ? { token } : {}), ...(tlsFiles !== null ? { tls: { files: tlsFiles, log } } : {}) });
  warnRefusal(log, at.host, token !== undefined);
  return api;
}

/** `serve`'s read API on a port of its own (`--api-port`), with the collector's token and TLS files (checked by loadCollectorConfig). */
function startServeApi(
  reader: ReturnType<typeof storeReader>,
  collectorConfig: ReturnType<typeof loadCollectorConfig>,
  port: number,
  log: ReturnType<typeof createLogger>,
): Promise<{ url: string; close(): Promise<void> }> {
  const tlsFiles = tlsFilesOf(collectorConfig.tlsCertFile, collectorConfig.tlsKeyFile);
  const auth = collectorConfig.token !== undefined ? { token: collectorConfig.token } : {};
  return startReadApi(reader, { host: collectorConfig.host, port }, { ...auth, ...(tlsFiles !== null ? { tls: { files: tlsFiles, log } } : {}) });
}

/** `serve`'s collector: spans handed to the scorer in process (`sink`, without Kafka), and the read API's routes on its port (`reader`, unless the API has a port of its own). */
async function startServeCollector(
  collectorConfig: ReturnType<typeof loadCollectorConfig>,
  log: ReturnType<typeof createLogger>,
  sink: ScorerService["sink"] | null,
  reader: ReturnType<typeof storeReader> | null,
): Promise<RunningCollector> {
  const auth = collectorConfig.token !== undefined ? { token: collectorConfig.token } : {};
  return startCollector(collectorConfig, {
    logger: log,
    ...(sink === null ? {} : { sink }),
    ...(reader === null ? {} : { routes: await readApiRoutes(reader, { ...auth, host: collectorConfig.host }) }),
  });
}

/** Stops what `serve` started, in order: the capture watch, the API and the collector (what started), a last scoring, the scorer. */
async function stopServe(watch: { stop(): void }, api: { close(): Promise<void> } | null, collector: RunningCollector | null, service: ScorerService): Promise<void> {
  watch.stop();
  if (api) await api.close();
  if (collector) await collector.close();
  await service.scoreNow().catch(() => 0);
  await service.stop();
}

/** Warns when the read API on `host` answers 403 (see readApiRefusal). */
function warnRefusal(log: ReturnType<typeof createLogger>, host: string, hasToken: boolean): void {
  const refusal = readApiRefusal(host, hasToken);
  if (refusal !== null) log.warn(refusal, { host, answers: 403 });
}

/** Warns of each run left running by a process that died. */
function warnAborted(store: { readonly abortedRuns: readonly string[] }, log: ReturnType<typeof createLogger>): void {
  for (const id of store.abortedRuns) log.warn("run aborted: its process died while running it", { run_id: id });
}

/**
 * `ragmeter serve`: the collector and the scorer in one process on the embedded store — spans are
 * handed over in process, or through Kafka when `KAFKA_BROKERS` is set. Runs until SIGTERM/SIGINT.
 * @param onReady called with the collector URL once listening (tests).
 */
export async function serveCommand(io: Io, flags: StreamFlags, signal?: AbortSignal, onReady?: (url: string) => void): Promise<number> {
  const stream = loadStreamConfig(io.env, {
    ...(flags.brokers !== undefined ? { brokers: flags.brokers } : {}),
    ...(flags.quietMs !== undefined ? { quietMs: flags.quietMs } : {}),
  });
  const collectorConfig = loadCollectorConfig(io.env, {
    ...(flags.port !== undefined ? { port: flags.port } : {}),
    ...(flags.host !== undefined ? { host: flags.host } : {}),
    ...(stream.brokers !== null ? { brokers: [...stream.brokers] } : {}),
  });
  const log = createLogger(process.stderr, collectorConfig.logLevel, "serve");
  runtimeTuning(runtimeTuningEnabled(io.env)).limitHeapGrowth(stream.heapGrowthPercent);
  return withScorerStore(io, flags, log, async (store, config, evaluations) => {
    const useKafka = stream.brokers !== null;
    const scoring = await liveScoring(config, flags, stream, evaluations, log);
    const service: ScorerService = await startScorerService({
      store,
      stream,
      consume: useKafka,
      log,
      scoring,
    });
    let collector: RunningCollector | null = null;
    let api: { url: string; close(): Promise<void> } | null = null;
    const reader = storeReader(store, config.prices);
    const watch = watchContentCapture(reader, log);
    // SIGTERM/SIGINT listened for before the port opens (a signal right after "serve running" stops it gracefully)
    const started = new AbortController(); // releases the listeners when the start fails
    const shutdown = untilShutdown(signal ? AbortSignal.any([signal, started.signal]) : started.signal);
    try {
      const sameport = flags.apiPort === undefined;
      collector = await startServeCollector(collectorConfig, log, useKafka ? null : service.sink, sameport ? reader : null);
      api = sameport ? null : await startServeApi(reader, collectorConfig, flags.apiPort as number, log);
      warnRefusal(log, collectorConfig.host, collectorConfig.token !== undefined);
      const apiUrl = api?.url ?? collector.url;
      store.recordApiUrl(apiUrl);
      log.info("serve running", {
        otlp: collector.url,
        api: apiUrl,
        hand_off: useKafka ? `kafka ${stream.brokers?.join(",")}` : "in process",
        store: store.location,
        retention_days: config.retention,
      });
      warnAborted(store, log);
      onReady?.(collector.url);
      const why = await shutdown;
      log.info("serve stopping", { reason: why });
    } finally {
      started.abort();
      await stopServe(watch, api, collector, service);
      await scoring.judge.close?.();
    }
    return EXIT.done;
  });
}

/** Registers `ragmeter scorer` and `serve`. */
export function registerStreamCommands(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  program
    .command("scorer")
    .description("consume ragmeter.spans (group ragmeter-scorer), store spans, score settled traces into ClickHouse")
    .option("--brokers <list>", "Kafka bootstrap servers (env KAFKA_BROKERS, default 127.0.0.1:9092)")
    .option("--quiet-ms <ms>", "quiet window after a trace's last span (env RAGMETER_QUIET_MS, default 5000)", intArg(0))
    .addOption(kOption())
    .option("--api-port <n>", "serve the read API and the live page on this port (bearer token RAGMETER_COLLECTOR_TOKEN)", intArg(0, 65535))
    .option("--host <addr>", "listen address of the read API (default 127.0.0.1; another address needs RAGMETER_COLLECTOR_TOKEN, else 403)")
    .option("--source <name>", "who writes the topics: ragmeter (ragmeter.spans) or otelcol (the OpenTelemetry Collector's otlp_spans, otlp_logs; env RAGMETER_SOURCE)")
    .addOption(home())
    .action(async (o: { brokers?: string; quietMs?: number; k: number[]; home?: string; apiPort?: number; host?: string; source?: string }) => {
      result.code = await scorerCommand(io, o);
    });

  program
    .command("serve")
    .description("collector + scorer in one process on the embedded store (Kafka only when KAFKA_BROKERS is set)")
    .option("--port <n>", "OTLP/HTTP port (env RAGMETER_COLLECTOR_PORT, default 4318)", intArg(0, 65535))
    .option("--host <addr>", "listen address (env RAGMETER_COLLECTOR_HOST, default 127.0.0.1; 0.0.0.0 for every interface, with RAGMETER_COLLECTOR_TOKEN)")
    .option("--quiet-ms <ms>", "quiet window after a trace's last span (env RAGMETER_QUIET_MS, default 5000)", intArg(0))
    .addOption(kOption())
    .option("--api-port <n>", "read API and live page on their own port (default: the OTLP port)", intArg(0, 65535))
    .addOption(home())
    .action(async (o: { port?: number; host?: string; quietMs?: number; k: number[]; home?: string; apiPort?: number }) => {
      result.code = await serveCommand(io, o);
    });
}
