import { createHash } from "node:crypto";
import { readCalibrationRows } from "@ragmeter/store/calibration";
import type { Store } from "@ragmeter/store/client";
import { getRun } from "@ragmeter/store/runs";
import { CalibrationError } from "./errors.js";
import { CALIBRATION_FORMAT, type CalibrationFile, REVIEW_INSTRUCTIONS } from "./file.js";

type Retrieved = { id: string; text: string };

function retrievedOf(v: unknown): Retrieved[] {
  if (!Array.isArray(v)) return [];
  return v.map((r: unknown) => {
    if (Array.isArray(r)) return { id: String(r[0]), text: String(r[2]) };
    const o = r as { id?: unknown; text?: unknown };
    return { id: String(o.id ?? ""), text: String(o.text ?? "") };
  });
}

/**
 * Builds a calibration review file from a stored run: `n` questions answered without target error
 * and judged (claims of repeat 0 with the judge's verdicts, relevance of repeat 0), picked by the
 * order of SHA-256(seed:trace id), so the same seed picks the same questions.
 * @throws CalibrationError when the run does not exist or has no judged question.
 */
export async function sampleForCalibration(store: Store, runId: string, n: number, seed = 0): Promise<CalibrationFile> {
  const run = await getRun(store, runId);
  if (!run) throw new CalibrationError(`run ${runId} not found (see \`ragmeter runs\`)`);
  const { interactions, claims, relevance } = await readCalibrationRows(store, runId);
  const claimsBy = new Map<string, typeof claims>();
  for (const c of claims) claimsBy.set(c.trace_id, [...(claimsBy.get(c.trace_id) ?? []), c]);
  const relBy = new Map(relevance.map((r) => [r.trace_id, r.status === "ok" && r.value !== null ? Math.round(r.value) : null] as const));
  const judged = interactions.filter((i) => (claimsBy.get(i.trace_id)?.length ?? 0) > 0 || (relBy.get(i.trace_id) ?? null) !== null);
  if (judged.length === 0) throw new CalibrationError(`run ${runId} has no judged question to review`);
  const order = (id: string) => createHash("sha256").update(`${seed}:${id}`).digest("hex");
  const picked = judged.sort((a, b) => order(a.trace_id).localeCompare(order(b.trace_id))).slice(0, n);
  picked.sort((a, b) => a.golden_id.localeCompare(b.golden_id));
  return {
    format: CALIBRATION_FORMAT,
    run_id: runId,
    judge: { kind: run.judge_kind, model: run.judge_model, prompt_version: run.judge_prompt_version },
    instructions: REVIEW_INSTRUCTIONS,
    items: picked.map((i) => ({
      golden_id: i.golden_id,
      trace_id: i.trace_id,
      question: i.question,
      chunks: retrievedOf(i.retrieved),
      answer: i.answer ?? "",
      claims: (claimsBy.get(i.trace_id) ?? []).map((c) => ({
        index: Number(c.claim_index),
        claim: c.claim,
        judge_verdict: c.verdict as "SUPPORTED" | "CONTRADICTED" | "UNSUPPORTED",
        judge_chunk_ids: c.chunk_ids,
        human_verdict: null,
      })),
      judge_relevance: relBy.get(i.trace_id) ?? null,
      human_relevance: null,
    })),
  };
}
