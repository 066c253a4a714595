import { createHash } from "node:crypto";
import type { ResultBatch, ScoreInsert } from "../domain/rows.js";

/** The columns of `live_traces` (migration 7) in the order rows are written. */
export const LIVE_TRACE_COLUMNS = [
  "created_at",
  "trace_id",
  "service_name",
  "pipeline_version",
  "status",
  "question_hash",
  "documents",
  "grounding_status",
  "grounding_value",
  "grounding_judge_model",
  "grounding_input_tokens",
  "grounding_output_tokens",
  "relevance_status",
  "relevance_value",
  "relevance_judge_model",
  "relevance_input_tokens",
  "relevance_output_tokens",
  "version",
] as const;

/**
 * The question's key in `live_traces`: the first 8 bytes of its MD5, little-endian, as a UInt64
 * (decimal string); "0" for no question. The same as {@link questionHashSql} computes in the engine.
 */
export function questionHash(question: string): string {
  if (question === "") return "0";
  return createHash("md5").update(question, "utf8").digest().readBigUInt64LE(0).toString();
}

/** {@link questionHash} of a String expression, in ClickHouse SQL. */
export function questionHashSql(expr: string): string {
  return `if(${expr} = '', toUInt64(0), reinterpretAsUInt64(substring(MD5(${expr}), 1, 8)))`;
}

/**
 * The `live_traces` rows of a batch: one per live interaction (source `live`), with the first
 * grounding and the first relevance row of its trace in the batch (run `live`; none: status `''`).
 * `now` is the time the interactions are written with when they carry none (as {@link saveResults}).
 */
export function liveTraceRows(batch: ResultBatch, version: number, now: number): unknown[][] {
  const live = batch.interactions.filter((i) => i.source === "live");
  if (live.length === 0) return [];
  const ids = new Set(live.map((i) => i.trace_id));
  const first = new Map<string, ScoreInsert>();
  for (const s of batch.scores) {
    if (s.run_id !== "live" || !ids.has(s.trace_id) || (s.metric !== "grounding" && s.metric !== "relevance")) continue;
    const key = `${s.trace_id}\u0000${s.metric}`;
    if (!first.has(key)) first.set(key, s);
  }
  const metric = (traceId: string, m: string): unknown[] => {
    const s = first.get(`${traceId}\u0000${m}`);
    return s === undefined ? ["", null, "", 0, 0] : [s.status, s.value, s.judge_model, s.judge_input_tokens, s.judge_output_tokens];
  };
  return live.map((i) => [
    i.created_at ?? now,
    i.trace_id,
    i.service_name,
    i.pipeline_version,
    i.status,
    questionHash(i.question),
    i.retrieved.map((r) => r.document_id),
    ...metric(i.trace_id, "grounding"),
    ...metric(i.trace_id, "relevance"),
    version,
  ]);
}
