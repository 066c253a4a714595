import type { Status } from "../status.js";

/** Claim verdicts (design §5). */
export type Verdict = "SUPPORTED" | "CONTRADICTED" | "UNSUPPORTED";

/** One atomic claim of an answer with its verdict and the chunk ids it rests on. */
export interface ClaimVerdict {
  readonly index: number;
  readonly text: string;
  readonly verdict: Verdict;
  readonly chunk_ids: readonly string[];
}

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

/** Token usage and latency of the judge call(s) behind one score. */
export interface JudgeCallCost {
  /** Prompt tokens (0 for heuristic judges). */
  readonly input_tokens: number;
  /** Completion tokens (0 for heuristic judges). */
  readonly output_tokens: number;
  /** Wall time of the judge call(s), ms. */
  readonly latency_ms: number;
}

/** A grounding judgment: score = SUPPORTED / claims when `status` is ok, else null. */
export interface GroundingJudgment extends JudgeCallCost {
  readonly status: Status;
  readonly value: number | null;
  readonly claims: readonly ClaimVerdict[];
  readonly reason?: string;
}

/** A relevance judgment: an integer 0–4 when `status` is ok, else null. */
export interface RelevanceJudgment extends JudgeCallCost {
  readonly status: Status;
  readonly value: number | null;
  readonly reason?: string;
}

/** A judge (LLM or heuristic), identified by kind, model and prompt version. */
export interface Judge {
  readonly kind: "llm" | "heuristic";
  /** Judge model name (`heuristic` for the heuristic judge). */
  readonly model: string;
  /** Prompt version of each judge: a short hash of the prompt text (or of the heuristic's rules). */
  readonly promptVersion: { readonly grounding: string; readonly relevance: string };
  grounding(input: GroundingInput): Promise<GroundingJudgment>;
  relevance(input: RelevanceInput): Promise<RelevanceJudgment>;
}
