/**
 * The OTLP/HTTP receiver: POST /v1/traces and /v1/logs (protobuf or JSON, gzip or not), GET
 * /healthz and /readyz. Answers 200 only after Kafka acknowledged every record of the request.
 * Served by `node:http` directly (no web framework: fastify alone was ≈ 10–15 MiB of the
 * stand-alone collector's RSS); other paths go to `deps.routes` when given (`ragmeter serve`'s read
 * API, on fastify in the scorer), else 404.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
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
import { type Logger, type PinoLogger, pinoOf, silentLogger } from "@ragmeter/runtime";
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

const gunzipAsync = promisify(gunzip);
const inflateAsync = promisify(inflate);

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
  /** Base URL, e.g. `http://127.0.0.1:4318` (0.0.0.0 is reported as 127.0.0.1). */
  url: string;
  /** Current counters. */
  stats(): CollectorStats;
  /** Stops accepting, finishes requests in flight, then disconnects from Kafka. Idempotent. */
  close(): Promise<void>;
}

/** gRPC status codes used in google.rpc.Status error bodies, by HTTP status. */
const GRPC_CODE: Record<number, number> = { 400: 3, 401: 16, 413: 8, 415: 3, 429: 8, 500: 13, 503: 14 };

/** Bytes of the in-flight budget one request holds. */
interface RequestState {
  reserved: number;
  released: boolean;
}

const JSON_TYPE = "application/json; charset=utf-8";

function digest(s: string): Buffer {
  return createHash("sha256").update(s, "utf8").digest();
}

function summarise(errors: string[], max = 5): string {
  const head = errors.slice(0, max).join("; ");
  return errors.length > max ? `${head}; and ${errors.length - max} more` : head;
}

const TRACE_CONTEXT_HEADERS = ["traceparent", "tracestate", "baggage"] as const;

/** Path of a request target without its query string. */
function pathOf(url: string | undefined): string {
  const u = url ?? "/";
  const q = u.indexOf("?");
  return q < 0 ? u : u.slice(0, q);
}

/**
 * Starts an OTLP/HTTP collector on `config.host:config.port` (port 0 picks a free port).
 * Kafka is not needed to start; requests get 503 until it is reachable.
 * @returns the URL and a `close()` for graceful shutdown
 */
export async function startCollector(config: CollectorConfig, deps: CollectorDeps = {}): Promise<RunningCollector> {
  const logger = deps.logger ? pinoOf(deps.logger) : silentLogger();
  const ownSink = deps.sink === undefined;
  const sink = deps.sink ?? createKafkaSink(config, logger);
  const routes = deps.routes;
  const expectedToken = config.token === undefined ? undefined : digest(`Bearer ${config.token}`);
  const stats: CollectorStats = { requests: 0, acceptedItems: 0, rejectedItems: 0, records: 0, kafkaFailures: 0, inflightBytes: 0, peakInflightBytes: 0 };
  let closing = false;

  const release = (st: RequestState): void => {
    if (st.released) return;
    st.released = true;
    stats.inflightBytes -= st.reserved;
  };

  const reserve = (st: RequestState, bytes: number): void => {
    if (st.released) return;
    if (stats.inflightBytes + bytes > config.maxInflightBytes && stats.inflightBytes > 0) {
      if (sink.degraded()) throw new KafkaUnavailableError("Kafka is unavailable and the collector's in-flight budget is used up");
      throw new OverloadedError(`the collector is busy (${stats.inflightBytes} bytes in flight, limit ${config.maxInflightBytes}); retry later`);
    }
    st.reserved += bytes;
    stats.inflightBytes += bytes;
    if (stats.inflightBytes > stats.peakInflightBytes) stats.peakInflightBytes = stats.inflightBytes;
  };

  const guessEncoding = (req: IncomingMessage): OtlpEncoding => {
    try {
      return encodingOf(req.headers["content-type"]);
    } catch {
      return "json";
    }
  };

  /** Writes a whole response (once; nothing if the client is gone). While closing, the connection closes after it. */
  const send = (res: ServerResponse, status: number, contentType: string, body: Uint8Array | string, extra?: Record<string, string>): void => {
    if (res.headersSent || res.destroyed) return;
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
    res.statusCode = status;
    res.setHeader("content-type", contentType);
    res.setHeader("content-length", bytes.length);
    if (extra) for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
    if (closing) res.setHeader("connection", "close");
    res.end(bytes);
  };

  const sendError = (res: ServerResponse, encoding: OtlpEncoding, err: CollectorError): void => {
    const extra = err.status === 429 || err.status === 503 ? { "retry-after": String(config.retryAfterSeconds) } : undefined;
    send(res, err.status, CONTENT_TYPES[encoding], encodeErrorStatus(encoding, GRPC_CODE[err.status] ?? 2, err.message), extra);
  };

  const toCollectorError = (err: unknown): CollectorError => {
    if (err instanceof CollectorError) return err;
    if (err instanceof OtlpError) return fromOtlpError(err);
    const e = err as { message?: string };
    logger.error({ error: e.message ?? String(err) }, "unexpected error");
    return new CollectorError("internal error", 500, true);
  };

  /** Token, content type and encoding, declared length and the in-flight budget, before the body is read. */
  const preflight = (req: IncomingMessage, st: RequestState): void => {
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
    reserve(st, Number.isFinite(declared) && declared > 0 ? declared : Math.min(config.bodyLimitBytes, 64 * 1024));
  };

  /** The request body as sent, at most `bodyLimitBytes` (413 past it; the rest is read and dropped). */
  const readBody = (req: IncomingMessage): Promise<Buffer> =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const done = (): void => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onError);
        req.off("aborted", onAborted);
      };
      const onData = (chunk: Buffer): void => {
        length += chunk.length;
        if (length > config.bodyLimitBytes) {
          done();
          req.resume(); // drain and drop the rest, so the connection can carry the 413
          reject(new PayloadTooLargeError(`request body is over the limit of ${config.bodyLimitBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => {
        done();
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length));
      };
      const onError = (err: Error): void => {
        done();
        reject(new OtlpDecodeError("body", `request body could not be read: ${err.message}`, { cause: err }));
      };
      const onAborted = (): void => onError(new Error("the client aborted the request"));
      req.on("data", onData);
      req.on("end", onEnd);
      req.on("error", onError);
      req.on("aborted", onAborted);
    });

  const decompress = async (req: IncomingMessage, st: RequestState, body: Buffer): Promise<Buffer> => {
    const ce = (req.headers["content-encoding"] ?? "identity").toLowerCase().trim();
    if (ce !== "gzip" && ce !== "deflate") return body;
    try {
      const out = await (ce === "gzip" ? gunzipAsync : inflateAsync)(body, { maxOutputLength: config.bodyLimitBytes });
      reserve(st, out.length);
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

  const exportRequest = async (signal: Signal, req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const st: RequestState = { reserved: 0, released: false };
    res.once("close", () => release(st)); // answered, or the client went away
    let encoding = guessEncoding(req);
    try {
      if (closing) throw new CollectorError("the collector is shutting down; retry later", 503, true);
      preflight(req, st);
      encoding = encodingOf(req.headers["content-type"]);
      const raw = await readBody(req);
      stats.requests++;
      const body = await decompress(req, st, raw);
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
      send(res, 200, CONTENT_TYPES[encoding], encodeExportResponse(signal, encoding, rejected, rejected > 0 ? summarise(errors) : ""));
    } catch (err) {
      const ce = toCollectorError(err);
      if (ce.status < 500) logger.debug({ status: ce.status, error: ce.message }, "request refused");
      sendError(res, encoding, ce);
    } finally {
      release(st);
    }
  };

  const readiness = async (res: ServerResponse): Promise<void> => {
    let status: number;
    let body: Record<string, string>;
    if (closing) [status, body] = [503, { status: "closing" }];
    else if (sink.readiness) {
      const r = await sink.readiness();
      if (r.ready) [status, body] = [200, { status: "ready" }];
      else [status, body] = [503, r.reason === "topic missing" ? { status: r.reason, topic: r.topic } : { status: r.reason }];
    } else {
      const ok = await sink.ready();
      [status, body] = [ok ? 200 : 503, { status: ok ? "ready" : "kafka unreachable" }];
    }
    send(res, status, JSON_TYPE, JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const path = pathOf(req.url);
    const method = req.method ?? "GET";
    if (method === "POST" && (path === "/v1/traces" || path === "/v1/logs")) {
      void exportRequest(path === "/v1/traces" ? "traces" : "logs", req, res);
      return;
    }
    const get = method === "GET" || method === "HEAD";
    if (get && path === "/healthz") return send(res, 200, JSON_TYPE, '{"status":"ok"}');
    if (get && path === "/readyz") {
      readiness(res).catch((err: unknown) => {
        logger.error({ error: (err as Error).message ?? String(err) }, "readiness check failed");
        send(res, 503, JSON_TYPE, JSON.stringify({ status: "readiness check failed" }));
      });
      return;
    }
    if (routes) return routes.handle(req, res);
    send(res, 404, JSON_TYPE, JSON.stringify({ error: "Not Found", message: `Route ${method}:${path} not found`, statusCode: 404 }));
  });
  server.keepAliveTimeout = 10_000;

  await deps.beforeListen?.();
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once("error", onError);
    server.listen(config.port, config.host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  server.on("error", (err) => logger.error({ error: err.message }, "server error"));
  const address = server.address() as AddressInfo;
  let host = address.address;
  if (host === "0.0.0.0" || host === "::") host = "127.0.0.1";
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
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
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections(); // keep-alive connections with no request: closed now; the others after their response
        await Promise.race([
          stopped,
          new Promise<void>((resolve) => {
            timer = setTimeout(() => {
              logger.warn("shutdown timeout reached with requests still in flight");
              server.closeAllConnections();
              resolve();
            }, config.shutdownTimeoutMs);
          }),
        ]).finally(() => clearTimeout(timer));
        if (routes?.close) await routes.close();
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
