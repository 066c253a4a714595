import { randomBytes } from "node:crypto";

/** W3C Trace Context ids for one golden question. */
export interface TraceIds {
  /** 32 lower-case hex digits. */
  readonly traceId: string;
  /** 16 lower-case hex digits. */
  readonly spanId: string;
}

/** Fresh random trace and span ids (never all zeros). */
export function newTraceIds(): TraceIds {
  const t = randomBytes(16).toString("hex");
  const s = randomBytes(8).toString("hex");
  return { traceId: /^0+$/u.test(t) ? `${t.slice(0, 31)}1` : t, spanId: /^0+$/u.test(s) ? `${s.slice(0, 15)}1` : s };
}

/** `traceparent` header value (W3C Trace Context §3.2), sampled. */
export function traceparent(ids: TraceIds): string {
  return `00-${ids.traceId}-${ids.spanId}-01`;
}

/** `baggage` header value (W3C Baggage) carrying the run, golden id and pipeline version (design §10). */
export function baggage(runId: string, goldenId: string, pipelineVersion: string): string {
  const e = encodeURIComponent;
  return `ragmeter.run.id=${e(runId)},ragmeter.golden.id=${e(goldenId)},ragmeter.pipeline.version=${e(pipelineVersion)}`;
}
