// The grounding judge's development data: RAGTruth QA answers with human-labelled hallucination
// spans (../shared/judge-dev/README.md: provenance, licence, counts). Loader and claim labels.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/** Where the development data lives: $RAGMETER_JUDGE_DEV, else ../shared/judge-dev beside the repository. */
export function judgeDevDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
  return env["RAGMETER_JUDGE_DEV"] ?? path.resolve(root, "..", "shared", "judge-dev");
}

const Span = z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative(), text: z.string(), label_type: z.string() });
export const RagTruthAnswerSchema = z.object({
  id: z.string(),
  source_id: z.string(),
  model: z.string(),
  quality: z.string(),
  question: z.string(),
  passages: z.array(z.object({ id: z.string(), document_id: z.string(), text: z.string() })),
  response: z.string(),
  hallucinated: z.boolean(),
  labels: z.array(Span),
});
export type RagTruthAnswer = z.infer<typeof RagTruthAnswerSchema>;

/** The development answers of `file` (JSON lines); a bad line is an error naming the file and line. */
export function loadRagTruth(file: string): RagTruthAnswer[] {
  if (!existsSync(file)) throw new Error(`ragmeter: ${file}: no such file (set RAGMETER_JUDGE_DEV to the folder holding ragtruth-qa-dev.jsonl)`);
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line, i) => {
      if (line.trim().length === 0) return [];
      const r = RagTruthAnswerSchema.safeParse(JSON.parse(line));
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new Error(`ragmeter: ${file}:${i + 1}: ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`);
      }
      return [r.data];
    });
}

/** The answers the figures are computed on: RAGTruth's `good` ones (refusals and truncated answers left out). */
export function goodAnswers(all: readonly RagTruthAnswer[]): RagTruthAnswer[] {
  return all.filter((a) => a.quality === "good");
}

/** Characters a claim must share with a labelled span to count as hallucinated. */
export const SPAN_OVERLAP = 3;

/** True when the answer's characters [start, end) overlap a labelled hallucination span by {@link SPAN_OVERLAP} or more. */
export function inLabelledSpan(a: RagTruthAnswer, start: number, end: number): boolean {
  return a.labels.some((l) => Math.min(l.end, end) - Math.max(l.start, start) >= SPAN_OVERLAP);
}
