/**
 * POST /v1/traces and /v1/logs: checks, reads, decodes and batches the request, hands the records
 * to the sink, and answers 200 only after the sink (Kafka) acknowledged every one of them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { CONTENT_TYPES, encodeExportResponse, encodingOf, type OtlpEncoding, type OtlpLimits, type Signal } from "@ragmeter/otlp";
import type { PinoLogger } from "@ragmeter/runtime";
import { createBufferPool } from "../buffer-pool.js";
import type { CollectorConfig } from "../config.js";
import { CollectorError, fromOtlpError, OtlpError } from "../errors.js";
import type { RecordSink } from "../kafka-sink.js";
import { decompress, isCompressed, type ReadBody, readBody } from "./body.js";
import { type InflightBudget, newRequestState } from "./budget.js";
import { type DecodedExport, decodeExport, summarise } from "./decode.js";
import { contentEncodingOf, guessEncoding, preflight } from "./preflight.js";
import type { Responder } from "./respond.js";

/** Free buffers kept for bodies and records (about 50 production-sized requests of 10 traces × 10 spans), and the biggest kept. */
const POOL_FREE_BYTES = 16 * 1024 * 1024;
const POOL_BUFFER_BYTES = 4 * 1024 * 1024;

const TRACE_CONTEXT_HEADERS = ["traceparent", "tracestate", "baggage"] as const;

/** The counters an export request updates. */
interface ExportCounters {
  requests: number;
  acceptedItems: number;
  rejectedItems: number;
  records: number;
  kafkaFailures: number;
}

export interface ExportParts {
  config: Pick<CollectorConfig, "bodyLimitBytes" | "maxMessageBytes">;
  /** Bounds of the work of one request (the RAGMETER_OTLP_MAX_* settings). */
  limits: OtlpLimits;
  expectedToken: Buffer | undefined;
  sink: RecordSink;
  budget: InflightBudget;
  counters: ExportCounters;
  responder: Responder;
  logger: PinoLogger;
  closing: () => boolean;
}

/** The request's trace context headers (non-empty strings only), copied onto its Kafka records. */
export function traceContextOf(headers: IncomingMessage["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of TRACE_CONTEXT_HEADERS) {
    const v = headers[h];
    if (typeof v === "string" && v !== "") out[h] = v;
  }
  return out;
}

/** A collector error for anything thrown (an unexpected one is logged and answered 500). */
function toCollectorError(err: unknown, logger: PinoLogger): CollectorError {
  if (err instanceof CollectorError) return err;
  if (err instanceof OtlpError) return fromOtlpError(err);
  const e = err as { message?: string };
  logger.error({ error: e.message ?? String(err) }, "unexpected error");
  return new CollectorError("internal error", 500, true);
}

export function createExportHandler(parts: ExportParts): (signal: Signal, req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { config, limits, expectedToken, sink, budget, counters, responder, logger, closing } = parts;
  const buffers = createBufferPool(POOL_FREE_BYTES, POOL_BUFFER_BYTES);
  // The answer to a request with nothing rejected never changes: encoded once per signal and encoding.
  const fullSuccess: Record<Signal, Record<OtlpEncoding, Uint8Array>> = {
    traces: { protobuf: encodeExportResponse("traces", "protobuf", 0, ""), json: encodeExportResponse("traces", "json", 0, "") },
    logs: { protobuf: encodeExportResponse("logs", "protobuf", 0, ""), json: encodeExportResponse("logs", "json", 0, "") },
  };
  /**
   * The body decompressed and decoded; the records are copies, so the body's buffer goes back to the
   * pool at once. `release` gives back the records' buffer (when the split wrote them into one of the pool's).
   */
  const decodeRequest = async (
    signal: Signal,
    req: IncomingMessage,
    raw: ReadBody,
    encoding: OtlpEncoding,
    reserve: (bytes: number) => void,
  ): Promise<DecodedExport & { release: (() => void) | undefined }> => {
    let slab: Buffer | undefined;
    try {
      const ce = contentEncodingOf(req.headers);
      // An uncompressed body (most) is decoded in this turn, without the promise of decompress.
      const body = isCompressed(ce) ? await decompress(ce, raw.bytes, config.bodyLimitBytes, reserve) : raw.bytes;
      const decoded = decodeExport(signal, encoding, body, config.maxMessageBytes, limits, (bytes) => {
        slab = buffers.take(bytes);
        return slab;
      });
      const records = slab;
      return { ...decoded, release: records === undefined ? undefined : () => buffers.give(records) };
    } finally {
      raw.release();
    }
  };
  return async (signal, req, res) => {
    const st = newRequestState();
    res.once("close", () => budget.release(st)); // answered, or the client went away
    let encoding = guessEncoding(req.headers);
    try {
      if (closing()) throw new CollectorError("the collector is shutting down; retry later", 503, true);
      budget.reserve(st, preflight(req.headers, expectedToken, config.bodyLimitBytes));
      encoding = encodingOf(req.headers["content-type"]);
      const raw = await readBody(req, config.bodyLimitBytes, buffers);
      counters.requests++;
      const { batch, total, rejected, errors, release } = await decodeRequest(signal, req, raw, encoding, (bytes) => budget.reserve(st, bytes));
      try {
        await sink.send(signal, batch.records, traceContextOf(req.headers), release);
      } catch (err) {
        counters.kafkaFailures++;
        throw err;
      }
      counters.records += batch.records.length;
      counters.acceptedItems += total - rejected;
      counters.rejectedItems += rejected;
      if (rejected > 0) logger.info({ signal, rejected, first: errors[0] }, "partial success");
      const answer = rejected > 0 ? encodeExportResponse(signal, encoding, rejected, summarise(errors, 5, rejected)) : fullSuccess[signal][encoding];
      responder.send(res, 200, CONTENT_TYPES[encoding], answer);
    } catch (err) {
      const ce = toCollectorError(err, logger);
      if (ce.status < 500) logger.debug({ status: ce.status, error: ce.message }, "request refused");
      responder.sendError(res, encoding, ce);
    } finally {
      budget.release(st);
    }
  };
}
