import { z } from "zod";

/**
 * Row schemas of what the repositories read back; they absorb ClickHouse quirks: 64-bit integers
 * arrive as strings (kept exact or converted where they are counts), DateTime64 arrives without a
 * zone (it is UTC).
 */
export const utcTime = z.string().transform((s) => new Date(`${s.replace(" ", "T")}Z`).toISOString());
const u64 = z.union([z.string(), z.number()]).transform((v) => Number(v));

export const runRowSchema = z.object({
  run_id: z.string(),
  started_at: utcTime,
  finished_at: utcTime.nullable(),
  status: z.string(),
  source: z.string(),
  pipeline_version: z.string(),
  golden_set_hash: z.string(),
  golden_set_path: z.string(),
  judge_kind: z.string(),
  judge_model: z.string(),
  judge_prompt_version: z.string(),
  ks: z.array(u64),
  target: z.string(),
  summary: z.string(),
});
export type RunRow = z.output<typeof runRowSchema>;

export const scoreRowSchema = z.object({
  golden_id: z.string(),
  trace_id: z.string(),
  metric: z.string(),
  value: z.number().nullable(),
  status: z.string(),
  repeats: u64,
});
export type ScoreRow = z.output<typeof scoreRowSchema>;
