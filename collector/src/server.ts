/**
 * The OTLP/HTTP receiver: POST /v1/traces and /v1/logs (protobuf or JSON, gzip or not), GET
 * /healthz and /readyz. Answers 200 only after Kafka acknowledged every record of the request.
 * Served by `node:http` directly (no web framework: fastify alone was ≈ 10–15 MiB of the
 * stand-alone collector's RSS); other paths go to `deps.routes` when given (`ragmeter serve`'s read
 * API, on fastify in the scorer), else 404. The parts are in http/: routes, preflight checks, body,
 * decoding, the in-flight budget, responses, readiness, the export handler and the socket.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { type ListenerSettings, type Logger, openListenerWarning, type PinoLogger, pinoOf, readTlsMaterial, reloadTlsOnChange, silentLogger, tlsFilesOf } from "@ragmeter/runtime";
import { type CollectorConfig, limitsOf } from "./config.js";
import { createInflightBudget } from "./http/budget.js";
import { createExportHandler } from "./http/export.js";
import { baseUrlOf, closeServer, listen } from "./http/listen.js";
import { expectedAuthorization } from "./http/preflight.js";
import { readinessAnswer } from "./http/readiness.js";
import { createResponder, JSON_TYPE } from "./http/respond.js";
import { notFoundBody, routeOf } from "./http/routes.js";
import { createKafkaSink, type RecordSink } from "./kafka-sink.js";

/** Injected dependencies; everything has a default. */
export interface CollectorDeps {
  /** Structured logger (default: silent). */
  logger?: Logger | PinoLogger;
  /** Record sink (default: a Kafka producer built from the config, kafka-sink.ts). An injected sink is not closed by `close()`. */
  sink?: RecordSink;
  /**
   * More routes on the same port (e.g. the scorer's read API): every request that is not
   * `POST /v1/traces`, `POST /v1/logs`, `GET|HEAD /healthz` or `GET|HEAD /readyz` goes to it (else 404).
   */
  routes?: HttpRoutes;
  /**
   * Run once the collector is set up, just before its socket listens: the stand-alone command
   * returns its startup pages here, so the process answers no request before that is done.
   */
  beforeListen?: () => Promise<void>;
  /**
   * The settings the start-up warning names when the collector listens on an address other than
   * loopback without a token (default: `--host`/`RAGMETER_COLLECTOR_HOST`, `RAGMETER_COLLECTOR_TOKEN`;
   * `eval --via-traces` names `--otlp-host` and no token).
   */
  listener?: ListenerSettings;
}

/** Requests the collector does not serve itself, e.g. a fastify instance's `routing` (scorer/src/cli/api/server.ts). */
export interface HttpRoutes {
  /** Answers one request (it owns `res`). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Called once when the collector closes, after the server stopped. */
  close?(): Promise<void>;
}

/** Counters of a running collector (since start). */
export interface CollectorStats {
  requests: number;
  acceptedItems: number;
  rejectedItems: number;
  records: number;
  kafkaFailures: number;
  inflightBytes: number;
  peakInflightBytes: number;
}

/** A running collector. */
export interface RunningCollector {
  /** Base URL, e.g. `http://127.0.0.1:4318` (`https://` with TLS; 0.0.0.0 is reported as 127.0.0.1). */
  url: string;
  /** Current counters. */
  stats(): CollectorStats;
  /** Stops accepting, finishes requests in flight, then disconnects from Kafka. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts an OTLP/HTTP collector on `config.host:config.port` (port 0 picks a free port), over
 * HTTPS when `config.tlsCertFile` and `config.tlsKeyFile` are set (served again when they change).
 * Kafka is not needed to start; requests get 503 until it is reachable.
 * @returns the URL and a `close()` for graceful shutdown
 */
export async function startCollector(config: CollectorConfig, deps: CollectorDeps = {}): Promise<RunningCollector> {
  const logger = deps.logger ? pinoOf(deps.logger) : silentLogger();
  const ownSink = deps.sink === undefined;
  const sink = deps.sink ?? createKafkaSink(config, logger);
  const routes = deps.routes;
  const stats: CollectorStats = { requests: 0, acceptedItems: 0, rejectedItems: 0, records: 0, kafkaFailures: 0, inflightBytes: 0, peakInflightBytes: 0 };
  let closing = false;
  const responder = createResponder(() => closing, config.retryAfterSeconds);
  const budget = createInflightBudget(stats, config.maxInflightBytes, () => sink.degraded());
  const exportRequest = createExportHandler({
    config,
    limits: limitsOf(config),
    expectedToken: expectedAuthorization(config.token),
    sink,
    budget,
    counters: stats,
    responder,
    logger,
    closing: () => closing,
  });

  const readiness = async (res: ServerResponse): Promise<void> => {
    const { status, body } = await readinessAnswer(closing, sink);
    responder.send(res, status, JSON_TYPE, JSON.stringify(body));
  };

  const handler: RequestListener = (req, res) => {
    const route = routeOf(req.method, req.url);
    if (route.kind === "export") {
      void exportRequest(route.signal, req, res);
      return;
    }
    if (route.kind === "healthz") return responder.send(res, 200, JSON_TYPE, '{"status":"ok"}');
    if (route.kind === "readyz") {
      readiness(res).catch((err: unknown) => {
        logger.error({ error: (err as Error).message ?? String(err) }, "readiness check failed");
        responder.send(res, 503, JSON_TYPE, JSON.stringify({ status: "readiness check failed" }));
      });
      return;
    }
    if (routes) return routes.handle(req, res);
    responder.send(res, 404, JSON_TYPE, notFoundBody(route.method, route.path));
  };
  // HTTPS from the configured files (checked when the configuration loaded; read again here), else plain HTTP.
  const tlsFiles = tlsFilesOf(config.tlsCertFile, config.tlsKeyFile);
  const tls = tlsFiles === null ? null : readTlsMaterial(tlsFiles);
  const secure = tls === null ? null : createHttpsServer({ cert: tls.cert, key: tls.key }, handler);
  const server: Server = secure ?? createServer(handler);
  server.keepAliveTimeout = 10_000;

  await deps.beforeListen?.();
  await listen(server, config.port, config.host);
  server.on("error", (err) => logger.error({ error: err.message }, "server error"));
  const base = baseUrlOf(server.address() as AddressInfo, tls === null ? "http" : "https");
  const reloading = secure !== null && tlsFiles !== null && tls !== null ? reloadTlsOnChange(secure, tlsFiles, tls, logger) : null;
  if (tls !== null) logger.info({ subject: tls.subject, valid_to: tls.validTo, fingerprint256: tls.fingerprint256 }, "collector serving TLS");
  // With a sink of the caller's (serve's in-process hand-off) Kafka is not used: say so, not its settings.
  logger.info(ownSink ? { url: base, topic: config.topic, brokers: config.brokers, idempotent: config.idempotent } : { url: base, sink: "in process" }, "collector listening");
  const open = openListenerWarning(config.host, config.token !== undefined, "can send spans and logs to it", deps.listener);
  if (open !== null) logger.warn({ host: config.host, port: (server.address() as AddressInfo).port }, open);

  let closed: Promise<void> | undefined;
  return {
    url: base,
    stats: () => ({ ...stats }),
    close() {
      closed ??= (async () => {
        closing = true;
        reloading?.close();
        logger.info("collector closing: finishing requests in flight");
        await closeServer(server, config.shutdownTimeoutMs, logger);
        if (routes?.close) await routes.close();
        if (ownSink) await sink.close();
        logger.info({ ...stats }, "collector closed");
      })();
      return closed;
    },
  };
}
