import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { judgePromptVersion } from "@ragmeter/core/judges/promptVersion";
import { judgeRelevance as askRelevance, type Judge, judgeGrounding } from "@ragmeter/core/judges/types";
import { z } from "zod";
import { CalibrationError } from "./errors.js";
import { CALIBRATION_FORMAT, type CalibrationFile } from "./file.js";

/** Instructions of a review file drawn from a labelled set: the human fields come from the set's labels. */
const CASES_INSTRUCTIONS =
  "Drawn from a hand-labelled set: human_verdict is the set's label of the claim with the same text (or at the same position when the judge split as many claims), null when the judge's claim has no labelled counterpart; human_relevance is the judge's score moved into the labelled range (so it agrees exactly when the score is inside the range). Review or change them if you like, then run: npx ragmeter calibrate score FILE";

const verdict = z.enum(["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"]);

/** The fields of a labelled case (`bench/judges/cases.jsonl`) that a calibration needs; others are ignored. */
const labelledCaseSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  chunks: z.array(z.object({ id: z.string(), text: z.string() })),
  answer: z.string(),
  claims: z.array(z.object({ text: z.string(), label: verdict })),
  relevance: z.object({ min: z.number().int().min(0).max(4), max: z.number().int().min(0).max(4) }),
});
type LabelledCase = z.infer<typeof labelledCaseSchema>;

/** Reads a JSON Lines file of labelled cases. @throws CalibrationError naming the line and field. */
export async function readLabelledCases(path: string): Promise<LabelledCase[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new CalibrationError(`--cases ${path}: cannot read: ${(err as Error).message}`);
  }
  const out: LabelledCase[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim().length === 0) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      throw new CalibrationError(`${path}:${i + 1}: not JSON: ${(err as Error).message}`);
    }
    const r = labelledCaseSchema.safeParse(raw);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new CalibrationError(`${path}:${i + 1}: field "${issue?.path.join(".") ?? ""}": ${issue?.message ?? "invalid"}`);
    }
    out.push(r.data);
  }
  if (out.length === 0) throw new CalibrationError(`${path}: no case in the file`);
  return out;
}

const fold = (s: string): string => s.normalize("NFC").replace(/\s+/gu, " ").trim();

/**
 * A review file from a hand-labelled set (the shipped `bench/judges/cases.jsonl` or one like it):
 * `n` cases picked by the order of SHA-256(seed:case id), judged now by `judge` (every case is an
 * answerable question), with the human fields filled in from the labels (see
 * {@link CASES_INSTRUCTIONS}). `calibrate score` on it measures the judge against people in minutes.
 */
export async function sampleFromCases(cases: readonly LabelledCase[], source: string, judge: Judge, n: number, seed = 0): Promise<CalibrationFile> {
  const order = (id: string) => createHash("sha256").update(`${seed}:${id}`).digest("hex");
  const picked = [...cases].sort((a, b) => order(a.id).localeCompare(order(b.id))).slice(0, n);
  picked.sort((a, b) => a.id.localeCompare(b.id));
  const items = await Promise.all(
    picked.map(async (c) => {
      const [g, r] = await Promise.all([
        judgeGrounding(judge, { question: c.question, answer: c.answer, chunks: c.chunks }),
        askRelevance(judge, { question: c.question, answer: c.answer, answerable: true }),
      ]);
      const labels = new Map(c.claims.map((x) => [fold(x.text), x.label] as const));
      const sameCount = g.claims.length === c.claims.length;
      const judgeRelevance = r.status === "ok" && r.value !== null ? Math.min(4, Math.max(0, Math.round(r.value))) : null;
      return {
        golden_id: c.id,
        trace_id: c.id,
        question: c.question,
        chunks: c.chunks,
        answer: c.answer,
        claims: g.claims.map((x, i) => ({
          index: x.index,
          claim: x.text,
          judge_verdict: x.verdict,
          judge_chunk_ids: [...x.chunk_ids],
          human_verdict: labels.get(fold(x.text)) ?? (sameCount ? (c.claims[i]?.label ?? null) : null),
        })),
        judge_relevance: judgeRelevance,
        human_relevance: judgeRelevance === null ? null : Math.min(c.relevance.max, Math.max(c.relevance.min, judgeRelevance)),
      };
    }),
  );
  return {
    format: CALIBRATION_FORMAT,
    run_id: `cases:${source}`,
    judge: { kind: judge.kind, model: judge.model, prompt_version: judgePromptVersion(judge) },
    instructions: CASES_INSTRUCTIONS,
    items,
  };
}
