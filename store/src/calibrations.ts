import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Store } from "./client.js";
import { utcTime } from "./rows.js";

/** One row of `calibrations` (migration 2). */
export interface CalibrationRecord {
  readonly calibration_id: string;
  /** ISO-8601 UTC. */
  readonly created_at: string;
  readonly judge_kind: string;
  readonly judge_model: string;
  /** Combined prompt version of the judge (as on the run). */
  readonly judge_prompt_version: string;
  readonly source_run_id: string;
  readonly file: string;
  readonly n_claims: number;
  readonly claim_agreement: number | null;
  readonly claim_kappa: number | null;
  readonly n_relevance: number;
  readonly relevance_agreement: number | null;
  readonly relevance_qwk: number | null;
}

const num = z.union([z.string(), z.number()]).transform((v) => Number(v));
const rowSchema = z.object({
  calibration_id: z.string(),
  created_at: utcTime,
  judge_kind: z.string(),
  judge_model: z.string(),
  judge_prompt_version: z.string(),
  source_run_id: z.string(),
  file: z.string(),
  n_claims: num,
  claim_agreement: z.number().nullable(),
  claim_kappa: z.number().nullable(),
  n_relevance: num,
  relevance_agreement: z.number().nullable(),
  relevance_qwk: z.number().nullable(),
});

/** A new calibration id: `cal-<epoch ms>-<6 hex>`. */
export function newCalibrationId(now = Date.now()): string {
  return `cal-${now}-${randomBytes(3).toString("hex")}`;
}

/** Writes a calibration row. */
export async function saveCalibration(store: Store, c: CalibrationRecord): Promise<void> {
  await store.client.insert({
    table: `${store.database}.calibrations`,
    values: [{ ...c, created_at: Date.parse(c.created_at), version: store.nextVersion() }],
    format: "JSONEachRow",
  });
}

/** The latest calibration of a judge (kind, model, prompt version), or null. */
export async function lastCalibration(store: Store, judge: { judge_kind: string; judge_model: string; judge_prompt_version: string }): Promise<CalibrationRecord | null> {
  const rs = await store.client.query({
    query: `SELECT * EXCEPT version FROM ${store.database}.calibrations FINAL
      WHERE judge_kind = {kind:String} AND judge_model = {model:String} AND judge_prompt_version = {pv:String}
      ORDER BY created_at DESC, calibration_id DESC LIMIT 1`,
    query_params: { kind: judge.judge_kind, model: judge.judge_model, pv: judge.judge_prompt_version },
    format: "JSONEachRow",
  });
  const rows = await rs.json<unknown>();
  return rows.length === 0 ? null : rowSchema.parse(rows[0]);
}

/**
 * The latest calibration of a judge of the same kind under another model or prompt version, or
 * null: what a prompt or model change left behind ("not calibrated since prompt X").
 */
export async function lastOtherCalibration(store: Store, judge: { judge_kind: string; judge_model: string; judge_prompt_version: string }): Promise<CalibrationRecord | null> {
  const rs = await store.client.query({
    query: `SELECT * EXCEPT version FROM ${store.database}.calibrations FINAL
      WHERE judge_kind = {kind:String} AND NOT (judge_model = {model:String} AND judge_prompt_version = {pv:String})
      ORDER BY created_at DESC, calibration_id DESC LIMIT 1`,
    query_params: { kind: judge.judge_kind, model: judge.judge_model, pv: judge.judge_prompt_version },
    format: "JSONEachRow",
  });
  const rows = await rs.json<unknown>();
  return rows.length === 0 ? null : rowSchema.parse(rows[0]);
}
