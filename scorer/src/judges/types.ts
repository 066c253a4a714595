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

/**
 * A judge backend (the no-LLM rules, an LLM, …), identified by kind, model and prompt version. Built
 * only by the backend registry (./backends.ts); nothing else asks which kind it holds: what differs
 * between backends is said by their fields (`metered`).
 */
export interface Judge {
  /** The backend's name, stored as `judge_kind` (`heuristic`, `llm`; the registry's keys). */
  readonly kind: string;
  /** Judge model name (`heuristic` for the heuristic judge). */
  readonly model: string;
  /**
   * Whether its judgments call a model: then they are metered (calls, tokens, price), cached by
   * (model, prompt version, input), sampled on live traffic, checked against the generator model
   * (self-preference) and scored in small batches. A backend that calls no model costs nothing.
   */
  readonly metered: boolean;
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
