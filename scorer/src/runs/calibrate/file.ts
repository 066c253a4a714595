import { z } from "zod";

/** Format tag of a calibration review file. */
export const CALIBRATION_FORMAT = "ragmeter.calibration/1";

const verdict = z.enum(["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"]);

/**
 * A calibration review file (JSON), written by `ragmeter calibrate sample` and filled in by a
 * person: for every claim `human_verdict` (SUPPORTED, CONTRADICTED or UNSUPPORTED), for every item
 * `human_relevance` (integer 0–4). Fields left null are skipped when scoring.
 */
export const calibrationFileSchema = z.object({
  format: z.literal(CALIBRATION_FORMAT),
  run_id: z.string(),
  judge: z.object({ kind: z.string(), model: z.string(), prompt_version: z.string() }),
  instructions: z.string().optional(),
  items: z.array(
    z.object({
      golden_id: z.string(),
      trace_id: z.string(),
      question: z.string(),
      chunks: z.array(z.object({ id: z.string(), text: z.string() })),
      answer: z.string(),
      claims: z.array(
        z.object({
          index: z.number().int().nonnegative(),
          claim: z.string(),
          judge_verdict: verdict,
          judge_chunk_ids: z.array(z.string()),
          human_verdict: verdict.nullable(),
        }),
      ),
      judge_relevance: z.number().int().min(0).max(4).nullable(),
      human_relevance: z.number().int().min(0).max(4).nullable(),
    }),
  ),
});

/** A calibration review file. */
export type CalibrationFile = z.infer<typeof calibrationFileSchema>;

/** Instructions written into every review file. */
export const REVIEW_INSTRUCTIONS =
  "For each claim, set human_verdict to SUPPORTED (a chunk states it), CONTRADICTED (a chunk states something incompatible) or UNSUPPORTED (no chunk states or contradicts it), judging only against the chunks. For each item, set human_relevance to 0-4 (4 fully addresses the question, 3 mostly, 2 partly, 1 barely or declines, 0 unrelated). Leave null what you skip. Then run: npx ragmeter calibrate score FILE";
