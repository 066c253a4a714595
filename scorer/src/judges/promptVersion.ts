import type { Judge } from "./types.js";

/** Combined prompt version of a judge, recorded on the run (compatibility key of "previous run"). */
export function judgePromptVersion(judge: Judge): string {
  const { grounding, relevance } = judge.promptVersion;
  return grounding === relevance ? grounding : `${grounding}+${relevance}`;
}
