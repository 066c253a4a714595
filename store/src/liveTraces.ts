import { createHash } from "node:crypto";
import { metricTable } from "@ragmeter/core/domain/metricTable";
import type { ResultBatch, ScoreInsert } from "@ragmeter/core/domain/rows";

/** The columns of `live_traces` (migrations 7 and 10: the trace-level facts) in the order rows are written. */
export const LIVE_TRACE_COLUMNS = [
  "created_at",
  "trace_id",
  "service_name",
  "pipeline_version",
  "status",
  "question_hash",
  "documents",
  "view_status",
  "scored",
  "content_missing",
  "version",
] as const;

/** The columns of `live_scores` (migration 10: one row per live metric of a scoring) in the order rows are written. */
export const LIVE_SCORE_COLUMNS = [
  "created_at",
  "trace_id",
  "service_name",
  "pipeline_version",
  "metric",
  "status",
  "value",
  "judge_model",
  "input_tokens",
  "output_tokens",
  "version",
] as const;

/** A live metric as the live view shows it: its name, label and largest value (from the metric table). */
export interface LiveMetricInfo {
  readonly name: string;
  readonly label: string;
  readonly max: number;
  /** Colour of its series in the charts (the table's), when it has one. */
  readonly color?: string;
}

/** The metrics of the table that apply to live traffic (`live: true`), in table order. */
export function liveMetrics(): LiveMetricInfo[] {
  return metricTable([])
    .filter((m) => m.live)
    .map((m) => ({ name: m.name, label: m.label ?? m.name, max: m.max ?? 1, ...(m.color !== undefined ? { color: m.color } : {}) }));
}

/**
 * The question's key in `live_traces`: the first 8 bytes of its MD5, little-endian, as a UInt64
 * (decimal string); "0" for no question. The same as migration 7's data statement computes in the engine
 * (store/migrations/007_live_traces.sql).
 */
export function questionHash(question: string): string {
  if (question === "") return "0";
  return createHash("md5").update(question, "utf8").digest().readBigUInt64LE(0).toString();
}

/** What the live view counts a trace as, from its status and its live metrics' scores (`''`: none), in table order. */
export interface TraceView {
  /** The interaction's status when not `ok`, else its first live metric's score's status it has, else `ok`. */
  readonly view_status: string;
  /** 1 when a live metric's score is `ok`. */
  readonly scored: 0 | 1;
  /** 1 when the interaction or a live metric's score is `content_missing`. */
  readonly content_missing: 0 | 1;
}

/** {@link TraceView} of a trace. */
export function traceView(status: string, scores: readonly string[]): TraceView {
  const has = scores.filter((s) => s !== "");
  return {
    view_status: status !== "ok" ? status : (has[0] ?? status),
    scored: has.includes("ok") ? 1 : 0,
    content_missing: status === "content_missing" || has.includes("content_missing") ? 1 : 0,
  };
}

/**
 * The live view's rows of a batch (design §3): per live interaction (source `live`) its
 * `live_traces` row (with its {@link traceView}), and a `live_scores` row per live metric of the table with the first score row of
 * that metric of its trace in the batch (run `live`; none: status `''`, so a later scoring of the same
 * key replaces every live metric of an earlier one). `now` is the time the interactions are written
 * with when they carry none (as {@link saveResults}).
 */
export function liveRows(
  batch: ResultBatch,
  version: number,
  now: number,
  metrics: readonly string[] = liveMetrics().map((m) => m.name),
): { traces: unknown[][]; scores: unknown[][] } {
  const live = batch.interactions.filter((i) => i.source === "live");
  if (live.length === 0) return { traces: [], scores: [] };
  const ids = new Set(live.map((i) => i.trace_id));
  const wanted = new Set(metrics);
  const first = new Map<string, ScoreInsert>();
  for (const s of batch.scores) {
    if (s.run_id !== "live" || !ids.has(s.trace_id) || !wanted.has(s.metric)) continue;
    const key = `${s.trace_id}\u0000${s.metric}`;
    if (!first.has(key)) first.set(key, s);
  }
  const traces: unknown[][] = [];
  const scores: unknown[][] = [];
  for (const i of live) {
    const t = i.created_at ?? now;
    const own = metrics.map((m) => first.get(`${i.trace_id}\u0000${m}`));
    const v = traceView(
      i.status,
      own.map((s) => s?.status ?? ""),
    );
    traces.push([
      t,
      i.trace_id,
      i.service_name,
      i.pipeline_version,
      i.status,
      questionHash(i.question),
      i.retrieved.map((r) => r.document_id),
      v.view_status,
      v.scored,
      v.content_missing,
      version,
    ]);
    for (const [k, m] of metrics.entries()) {
      const s = own[k];
      scores.push(
        s === undefined
          ? [t, i.trace_id, i.service_name, i.pipeline_version, m, "", null, "", 0, 0, version]
          : [t, i.trace_id, i.service_name, i.pipeline_version, m, s.status, s.value, s.judge_model, s.judge_input_tokens, s.judge_output_tokens, version],
      );
    }
  }
  return { traces, scores };
}
