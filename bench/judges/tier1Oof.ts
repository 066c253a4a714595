// Tier 1 out of fold: the no-LLM grounding judge on the RAGTruth development answers, each answer
// judged by a judge whose model was fitted (train.ts, with its own inner cross-validation for the
// thresholds) on the other four folds of questions (train.ts foldOf): the judge as it would be on
// questions it never saw. The cascade curve (cascadeCurve.ts) reads these judgments.
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import type { GroundingModel } from "../../core/src/judges/heuristic/model.js";
import { type GroundingJudgment, judgeGrounding } from "../../core/src/judges/types.js";
import type { RagTruthAnswer } from "./ragtruth.js";
import { FOLDS, foldOf, train } from "./train.js";

/** One answer's out-of-fold tier-1 judgment, with the fold's model (its thresholds). */
export interface Tier1Judged {
  readonly answer: RagTruthAnswer;
  readonly fold: number;
  readonly judgment: GroundingJudgment;
  readonly model: GroundingModel;
}

/** The out-of-fold tier-1 grounding judgments of `answers`, in their order. */
export async function tier1OutOfFold(answers: readonly RagTruthAnswer[]): Promise<Tier1Judged[]> {
  const out = new Map<string, Tier1Judged>();
  for (let k = 0; k < FOLDS; k++) {
    const model = train(
      answers.filter((a) => foldOf(a.source_id) !== k),
      `out of fold ${k}`,
    );
    const judge = createHeuristicJudge(model);
    for (const a of answers.filter((x) => foldOf(x.source_id) === k)) {
      const judgment = await judgeGrounding(judge, { question: a.question, answer: a.response, chunks: a.passages });
      out.set(a.id, { answer: a, fold: k, judgment, model });
    }
  }
  return answers.map((a) => out.get(a.id) as Tier1Judged);
}
