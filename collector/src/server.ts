/**
 * The OTLP/HTTP receiver: POST /v1/traces and /v1/logs (protobuf or JSON, gzip or not), GET
 * /healthz and /readyz. Answers 200 only after Kafka acknowledged every record of the request.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { gunzip, inflate } from "node:zlib";
import {
  CONTENT_TYPES,
  decodeLogsRequest,
  decodeTraceRequest,
  encodeErrorStatus,
  encodeExportResponse,
  encodingOf,
  type OtlpEncoding,
  type Signal,
  splitTraceRequestProtobuf,
} from "@ragmeter/otlp";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import Fastify, { LogController } from "fastify";
import { type Batch, batchLogs, batchTraces, countLogRecords, countSpans } from "./batching.js";
import type { CollectorConfig } from "./config.js";
import {
  CollectorError,
  fromOtlpError,
  KafkaUnavailableError,
  OtlpDecodeError,
  OtlpError,
  OverloadedError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from "./errors.js";
import { createKafkaSink, type RecordSink } from "./kafka-sink.js";
import { type Logger, type PinoLogger, pinoOf, silentLogger } from "./logger.js";

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

/** Injected dependencies; everything has a default. */
export interface CollectorDeps {
  /** Structured logger (default: silent). */
  logger?: Logger | PinoLogger;
  /** Record sink (default: a Kafka producer built from the config, kafka-sink.ts). An injected sink is not closed by `close()`. */
  sink?: RecordSink;
  /** More routes on the same port (e.g. the scorer's read API), registered as an encapsulated plugin with its own error handler. */
  routes?: FastifyPluginAsync;
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
  /** Base URL, e.g. `http://127.0.0.1:4318` (0.0.0.0 is reported as 127.0.0.1). */
  url: string;
  /** Current counters. */
  stats(): CollectorStats;
  /** Stops accepting, finishes requests in flight, then disconnects from Kafka. Idempotent. */
  close(): Promise<void>;
}

/** gRPC status codes used in google.rpc.Status error bodies, by HTTP status. */
const GRPC_CODE: Record<number, number> = { 400: 3, 401: 16, 413: 8, 415: 3, 429: 8, 500: 13, 503: 14 };

interface RequestState {
  reserved: number;
  released: boolean;
}

function digest(s: string): Buffer {
  return createHash("sha256").update(s, "utf8").digest();
}

function summarise(errors: string[], max = 5): string {
  const head = errors.slice(0, max).join("; ");
  return errors.length > max ? `${head}; and ${errors.length - max} more` : head;
}

const TRACE_CONTEXT_HEADERS = ["traceparent", "tracestate", "baggage"] as const;

/**
 * Starts an OTLP/HTTP collector on `config.host:config.port` (port 0 picks a free port).
 * Kafka is not needed to start; requests get 503 until it is reachable.
 * @returns the URL and a `close()` for graceful shutdown
 */
export async function startCollector(config: CollectorConfig, deps: CollectorDeps = {}): Promise<RunningCollector> {
  const logger = deps.logger ? pinoOf(deps.logger) : silentLogger();
  const ownSink = deps.sink === undefined;
  const sink = deps.sink ?? createKafkaSink(config, logger);
  const expectedToken = config.token === undefined ? undefined : digest(`Bearer ${config.token}`);
  const stats: CollectorStats = { requests: 0, acceptedItems: 0, rejectedItems: 0, records: 0, kafkaFailures: 0, inflightBytes: 0, peakInflightBytes: 0 };
  const states = new WeakMap<FastifyRequest, RequestState>();
  let closing = false;

  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }), // no per-request lines on the hot path
    bodyLimit: config.bodyLimitBytes,
    return503OnClosing: true,
    forceCloseConnections: "idle",
    keepAliveTimeout: 10_000,
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  const release = (req: FastifyRequest): void => {
    const st = states.get(req);
    if (!st || st.released) return;
    st.released = true;
    stats.inflightBytes -= st.reserved;
  };

  const reserve = (req: FastifyRequest, bytes: number): void => {
    let st = states.get(req);
    if (!st) {
      st = { reserved: 0, released: false };
      states.set(req, st);
    }
    if (stats.inflightBytes + bytes > config.maxInflightBytes && stats.inflightBytes > 0) {
      if (sink.degraded()) throw new KafkaUnavailableError("Kafka is unavailable and the collector's in-flight budget is used up");
      throw new OverloadedError(`the collector is busy (${stats.inflightBytes} bytes in flight, limit ${config.maxInflightBytes}); retry later`);
    }
    st.reserved += bytes;
    stats.inflightBytes += bytes;
    if (stats.inflightBytes > stats.peakInflightBytes) stats.peakInflightBytes = stats.inflightBytes;
  };

  const guessEncoding = (req: FastifyRequest): OtlpEncoding => {
    try {
      return encodingOf(req.headers["content-type"]);
    } catch {
      return "json";
    }
  };

  const sendError = (reply: FastifyReply, encoding: OtlpEncoding, err: CollectorError): FastifyReply => {
    if (err.status === 429 || err.status === 503) reply.header("retry-after", String(config.retryAfterSeconds));
    return reply
      .code(err.status)
      .header("content-type", CONTENT_TYPES[encoding])
      .send(Buffer.from(encodeErrorStatus(encoding, GRPC_CODE[err.status] ?? 2, err.message)));
  };

  const toCollectorError = (err: unknown): CollectorError => {
    if (err instanceof CollectorError) return err;
    if (err instanceof OtlpError) return fromOtlpError(err);
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.code === "FST_ERR_CTP_BODY_TOO_LARGE") return new PayloadTooLargeError(`request body is over the limit of ${config.bodyLimitBytes} bytes`);
    if (typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500) {
      return new CollectorError(e.message ?? "bad request", e.statusCode, false);
    }
    logger.error({ error: e.message ?? String(err) }, "unexpected error");
    return new CollectorError("internal error", 500, true);
  };

  app.setErrorHandler((err, req, reply) => {
    release(req);
    return sendError(reply, guessEncoding(req), toCollectorError(err));
  });
  app.addHook("onResponse", async (req) => release(req));
  app.addHook("onRequestAbort", async (req) => release(req));

  const preflight = async (req: FastifyRequest): Promise<void> => {
    if (expectedToken) {
      // The auth scheme is case-insensitive (RFC 9110 §11.1); the token is compared as sent.
      const got = digest((req.headers.authorization ?? "").replace(/^bearer(?= )/iu, "Bearer"));
      if (!timingSafeEqual(got, expectedToken)) throw new UnauthorizedError("missing or invalid bearer token in the Authorization header");
    }
    encodingOf(req.headers["content-type"]);
    const ce = (req.headers["content-encoding"] ?? "identity").toLowerCase().trim();
    if (ce !== "identity" && ce !== "gzip" && ce !== "deflate" && ce !== "") {
      throw new UnsupportedMediaTypeError(`unsupported content encoding ${JSON.stringify(ce)}: send gzip or identity`);
    }
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > config.bodyLimitBytes) {
      throw new PayloadTooLargeError(`request body of ${declared} bytes is over the limit of ${config.bodyLimitBytes} bytes`);
    }
    reserve(req, Number.isFinite(declared) && declared > 0 ? declared : Math.min(config.bodyLimitBytes, 64 * 1024));
  };

  const decompress = async (req: FastifyRequest, body: Buffer): Promise<Buffer> => {
    const ce = (req.headers["content-encoding"] ?? "identity").toLowerCase().trim();
    if (ce !== "gzip" && ce !== "deflate") return body;
    try {
      const out = await (ce === "gzip" ? gunzipAsync : inflateAsync)(body, { maxOutputLength: config.bodyLimitBytes });
      reserve(req, out.length);
      return out;
    } catch (err) {
      if (err instanceof CollectorError) throw err;
      const code = (err as { code?: string }).code;
      if (code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError) {
        throw new PayloadTooLargeError(`decompressed body is over the limit of ${config.bodyLimitBytes} bytes`);
      }
      throw new OtlpDecodeError("body", `not valid ${ce} data: ${(err as Error).message}`, { cause: err });
    }
  };

  const handle = (signal: Signal) => async (req: FastifyRequest, reply: FastifyReply) => {
    stats.requests++;
    const encoding = encodingOf(req.headers["content-type"]);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    try {
      const body = await decompress(req, raw);
      let batch: Batch;
      let rejected: number;
      let errors: string[];
      let total: number;
      const split = signal === "traces" && encoding === "protobuf" ? splitTraceRequestProtobuf(body, config.maxMessageBytes) : null;
      if (split) {
        // Hot path: validated and split while walking the bytes, no object per span.
        total = split.total;
        if (split.invalid > 0 && split.invalid === total) throw decodeFailure(split.errors, "span");
        batch = { records: split.records, rejected: split.rejected - split.invalid, errors: split.errors.slice(split.invalid) };
        rejected = split.rejected;
        errors = split.errors;
      } else if (signal === "traces") {
        // JSON, or a protobuf body the walk leaves to the decoder (malformed: it names the fault).
        const d = decodeTraceRequest(body, encoding === "protobuf" ? CONTENT_TYPES.protobuf : CONTENT_TYPES.json);
        total = countSpans(d.request) + d.rejected;
        if (d.rejected > 0 && d.rejected === total) throw decodeFailure(d.errors, "span");
        batch = batchTraces(d.request, config.maxMessageBytes);
        rejected = d.rejected + batch.rejected;
        errors = [...d.errors, ...batch.errors];
      } else {
        const d = decodeLogsRequest(body, encoding === "protobuf" ? CONTENT_TYPES.protobuf : CONTENT_TYPES.json);
        total = countLogRecords(d.request) + d.rejected;
        if (d.rejected > 0 && d.rejected === total) throw decodeFailure(d.errors, "log record");
        batch = batchLogs(d.request, config.maxMessageBytes);
        rejected = d.rejected + batch.rejected;
        errors = [...d.errors, ...batch.errors];
      }
      if (total > 0 && rejected === total) throw new PayloadTooLargeError(summarise(errors));
      const headers: Record<string, string> = {};
      for (const h of TRACE_CONTEXT_HEADERS) {
        const v = req.headers[h];
        if (typeof v === "string" && v !== "") headers[h] = v;
      }
      try {
        await sink.send(signal, batch.records, headers);
      } catch (err) {
        stats.kafkaFailures++;
        throw err;
      }
      stats.records += batch.records.length;
      stats.acceptedItems += total - rejected;
      stats.rejectedItems += rejected;
      if (rejected > 0) logger.info({ signal, rejected, first: errors[0] }, "partial success");
      return reply
        .code(200)
        .header("content-type", CONTENT_TYPES[encoding])
        .send(Buffer.from(encodeExportResponse(signal, encoding, rejected, rejected > 0 ? summarise(errors) : "")));
    } catch (err) {
      const ce = toCollectorError(err);
      if (ce.status < 500) logger.debug({ status: ce.status, error: ce.message }, "request refused");
      return sendError(reply, encoding, ce);
    } finally {
      release(req);
    }
  };

  app.post("/v1/traces", { onRequest: preflight }, handle("traces"));
  app.post("/v1/logs", { onRequest: preflight }, handle("logs"));
  app.get("/healthz", async (_req, reply) => reply.code(200).send({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    if (closing) return reply.code(503).send({ status: "closing" });
    if (sink.readiness) {
      const r = await sink.readiness();
      if (r.ready) return reply.code(200).send({ status: "ready" });
      return reply.code(503).send(r.reason === "topic missing" ? { status: r.reason, topic: r.topic } : { status: r.reason });
    }
    const ok = await sink.ready();
    return reply.code(ok ? 200 : 503).send({ status: ok ? "ready" : "kafka unreachable" });
  });

  if (deps.routes) await app.register(deps.routes);

  const address = await app.listen({ host: config.host, port: config.port });
  const url = new URL(address);
  if (url.hostname === "0.0.0.0" || url.hostname === "[::]") url.hostname = "127.0.0.1";
  const base = url.origin;
  // With a sink of the caller's (serve's in-process hand-off) Kafka is not used: say so, not its settings.
  logger.info(ownSink ? { url: base, topic: config.topic, brokers: config.brokers, idempotent: config.idempotent } : { url: base, sink: "in process" }, "collector listening");

  let closed: Promise<void> | undefined;
  return {
    url: base,
    stats: () => ({ ...stats }),
    close() {
      closed ??= (async () => {
        closing = true;
        logger.info("collector closing: finishing requests in flight");
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          app.close(),
          new Promise<void>((resolve) => {
            timer = setTimeout(() => {
              logger.warn("shutdown timeout reached with requests still in flight");
              resolve();
            }, config.shutdownTimeoutMs);
          }),
        ]).finally(() => clearTimeout(timer));
        if (ownSink) await sink.close();
        logger.info({ ...stats }, "collector closed");
      })();
      return closed;
    },
  };
}

function decodeFailure(errors: string[], what: string): OtlpDecodeError {
  const first = errors[0] ?? "";
  const i = first.indexOf(": ");
  const field = i > 0 ? first.slice(0, i) : "body";
  const detail = i > 0 ? first.slice(i + 2) : first;
  const rest = errors.length > 1 ? ` (every ${what} of the request is invalid; ${summarise(errors.slice(1), 4)})` : ` (every ${what} of the request is invalid)`;
  return new OtlpDecodeError(field, detail + rest);
}
