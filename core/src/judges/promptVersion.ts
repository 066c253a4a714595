import { JUDGE_TASKS } from "../domain/judgments.js";
import type { Judge } from "./types.js";

/** Combined prompt version of a judge, recorded on the run (compatibility key of "previous run"). */
export function judgePromptVersion(judge: Judge): string {
  // the two judges every backend has (the version stored runs were compared by before other tasks came)
  const grounding = judge.promptVersion[JUDGE_TASKS.grounding] ?? "";
  const relevance = judge.promptVersion[JUDGE_TASKS.relevance] ?? "";
  return grounding === relevance ? grounding : `${grounding}+${relevance}`;
}
