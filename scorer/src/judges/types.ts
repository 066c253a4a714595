import type { GroundingJudgment, ReferenceJudgment, RelevanceJudgment } from "../domain/judgments.js";

// The judgments are domain types (scores and results are built from them); re-exported for the judges.
export type { ClaimVerdict, GroundingJudgment, JudgeCallCost, ReferenceJudgment, RelevanceJudgment, Verdict } from "../domain/judgments.js";

/** A chunk given to a judge. */
export interface JudgeChunk {
  readonly id: string;
  readonly text: string;
}

/** Input of the grounding judge. */
export interface GroundingInput {
  readonly question: string;
  readonly answer: string;
  readonly chunks: readonly JudgeChunk[];
}

/** Input of the relevance judge. */
export interface RelevanceInput {
  readonly question: string;
  readonly answer: string;
  /** True when the golden item has an expected source (null when unknown, e.g. live traffic). */
  readonly answerable: boolean | null;
}

/** Input of the reference-based judge (`reference_facts`). */
export interface ReferenceInput {
  readonly question: string;
  readonly answer: string;
  /** The golden item's `reference_answer`. */
  readonly reference: string;
}

/** A judge (LLM or heuristic), identified by kind, model and prompt version. */
export interface Judge {
  readonly kind: "llm" | "heuristic";
  /** Judge model name (`heuristic` for the heuristic judge). */
  readonly model: string;
  /**
   * Prompt version of each judge: a short hash of the prompt text (or of the heuristic's rules).
   * `reference_facts` is absent for judges without a reference-based judge.
   */
  readonly promptVersion: { readonly grounding: string; readonly relevance: string; readonly reference_facts?: string };
  grounding(input: GroundingInput): Promise<GroundingJudgment>;
  relevance(input: RelevanceInput): Promise<RelevanceJudgment>;
  /** The reference-based judge (LLM only); absent means `not_applicable`. */
  referenceFacts?(input: ReferenceInput): Promise<ReferenceJudgment>;
}
