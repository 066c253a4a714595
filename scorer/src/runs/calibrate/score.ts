import { readFile } from "node:fs/promises";
import { type CalibrationRecord, newCalibrationId, saveCalibration } from "@ragmeter/store/calibrations";
import type { Store } from "@ragmeter/store/client";
import { CalibrationError } from "./errors.js";
import { type CalibrationFile, calibrationFileSchema } from "./file.js";
import { type Agreement, cohenKappa, quadraticWeightedKappa } from "./kappa.js";

/** Agreement below this share prints a warning (issue 5). */
const AGREEMENT_WARNING = 0.85;

/** Agreement of a filled-in review file. */
export interface CalibrationScore {
  /** Claim verdicts (3 nominal labels): agreement and Cohen's kappa. */
  readonly claims: Agreement;
  /** Relevance 0–4: exact agreement and quadratic-weighted kappa. */
  readonly relevance: Agreement;
  /** Warnings (agreement below {@link AGREEMENT_WARNING}, nothing labelled). */
  readonly warnings: readonly string[];
}

/** Computes agreement and kappas of a filled-in review file (pairs with a null human label are skipped). */
export function scoreCalibration(file: CalibrationFile): CalibrationScore {
  const claimPairs = file.items.flatMap((i) => i.claims.filter((c) => c.human_verdict !== null).map((c) => [c.judge_verdict, c.human_verdict as string] as const));
  const relPairs = file.items
    .filter((i) => i.judge_relevance !== null && i.human_relevance !== null)
    .map((i) => [i.judge_relevance as number, i.human_relevance as number] as const);
  const claims = cohenKappa<string>(claimPairs);
  const relevance = quadraticWeightedKappa(relPairs, 0, 4);
  const warnings: string[] = [];
  if (claims.n === 0 && relevance.n === 0) warnings.push("no human label in the file: fill in human_verdict / human_relevance first");
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  if (claims.agreement !== null && claims.agreement < AGREEMENT_WARNING)
    warnings.push(`claim-verdict agreement ${pct(claims.agreement)} is below ${pct(AGREEMENT_WARNING)}: do not trust grounding from this judge without review`);
  if (relevance.agreement !== null && relevance.agreement < AGREEMENT_WARNING)
    warnings.push(`relevance agreement ${pct(relevance.agreement)} is below ${pct(AGREEMENT_WARNING)}: do not trust relevance from this judge without review`);
  return { claims, relevance, warnings };
}

/**
 * Reads a review file, scores it and stores the result in `calibrations` with the judge's kind,
 * model and prompt version (from the file).
 * @throws CalibrationError when the file cannot be read or does not match the format.
 */
export async function scoreCalibrationFile(store: Store, path: string, now = Date.now()): Promise<{ record: CalibrationRecord; score: CalibrationScore }> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8")) as unknown;
  } catch (err) {
    throw new CalibrationError(`${path}: cannot read a JSON review file: ${(err as Error).message}`);
  }
  const parsed = calibrationFileSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new CalibrationError(`${path}: field "${i?.path.join(".") ?? ""}": ${i?.message ?? "invalid"}`);
  }
  const file = parsed.data;
  const score = scoreCalibration(file);
  // An unfilled file measures nothing: storing it would hide the judge's last real calibration.
  if (score.claims.n === 0 && score.relevance.n === 0) {
    throw new CalibrationError(`${path}: no human label filled in (human_verdict per claim, human_relevance per question); nothing stored`);
  }
  const record: CalibrationRecord = {
    calibration_id: newCalibrationId(now),
    created_at: new Date(now).toISOString(),
    judge_kind: file.judge.kind,
    judge_model: file.judge.model,
    judge_prompt_version: file.judge.prompt_version,
    source_run_id: file.run_id,
    file: path,
    n_claims: score.claims.n,
    claim_agreement: score.claims.agreement,
    claim_kappa: score.claims.kappa,
    n_relevance: score.relevance.n,
    relevance_agreement: score.relevance.agreement,
    relevance_qwk: score.relevance.kappa,
  };
  await saveCalibration(store, record);
  return { record, score };
}
