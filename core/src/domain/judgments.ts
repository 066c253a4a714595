import type { Status } from "./status.js";

/**
 * The judge's tasks every backend may have, each named as the metric that reads its judgment
 * (design §5): the one place their names are written; judges and metric entries use this table.
 */
export const JUDGE_TASKS = { grounding: "grounding", relevance: "relevance", referenceFacts: "reference_facts" } as const;

/** Claim verdicts (design §5). */
export type Verdict = "SUPPORTED" | "CONTRADICTED" | "UNSUPPORTED";

/** One atomic claim of an answer with its verdict and the chunk ids it rests on. */
export interface ClaimVerdict {
  readonly index: number;
  readonly text: string;
  readonly verdict: Verdict;
  readonly chunk_ids: readonly string[];
  /**
   * The probability that the claim is supported: the no-LLM judge's (its learned model, design §5),
   * after the number rule; an LLM judge's from the log-probabilities of its verdict's first token
   * (SUPPORTED's share among the three verdicts), absent when the endpoint gives none.
   */
  readonly support?: number;
}

/** Token usage and latency of the judge call(s) behind one score. */
export interface JudgeCallCost {
  /** Prompt tokens (0 for heuristic judges and cache hits). */
  readonly input_tokens: number;
  /** Completion tokens (0 for heuristic judges and cache hits). */
  readonly output_tokens: number;
  /** Wall time of the judge call(s), ms. */
  readonly latency_ms: number;
  /** HTTP requests sent to the judge endpoint for this score, retries included (0 or absent: none). */
  readonly calls?: number;
  /** True when the judgment came from the judge cache (no call made). */
  readonly cached?: boolean;
  /**
   * Which tier of a cascade judge decided the judgment (design §5): `heuristic` (tier 1, no model)
   * or `llm`; absent for the other backends.
   */
  readonly tier?: "heuristic" | "llm";
}

/** A grounding judgment: score = SUPPORTED / claims when `status` is ok, else null. */
export interface GroundingJudgment extends JudgeCallCost {
  readonly status: Status;
  readonly value: number | null;
  readonly claims: readonly ClaimVerdict[];
  /**
   * The no-LLM judge's grounding risk when `status` is ok: how likely the answer holds an
   * unsupported claim, in [0, 1], from its claims' `support` (design §5); absent for LLM judges.
   */
  readonly risk?: number;
  readonly reason?: string;
}

/** A relevance judgment: an integer 0–4 when `status` is ok, else null. */
export interface RelevanceJudgment extends JudgeCallCost {
  readonly status: Status;
  readonly value: number | null;
  readonly reason?: string;
}

/** One fact of the reference answer and whether the answer states it. */
export interface ReferenceFact {
  readonly fact: string;
  readonly stated: boolean;
}

/**
 * A reference-facts judgment: the share of the reference answer's facts the answer states when
 * `status` is ok; `no_claims` when the reference has no fact; `not_applicable` without a reference
 * answer or with heuristic judges.
 */
export interface ReferenceJudgment extends JudgeCallCost {
  readonly status: Status;
  readonly value: number | null;
  readonly facts: readonly ReferenceFact[];
  readonly reason?: string;
}

/** One retrieved chunk judged on its own (per-chunk tasks such as context relevance). */
export interface ChunkVerdict {
  readonly id: string;
  /** The chunk's score in [0, 1] (1: relevant). */
  readonly value: number;
  readonly reason?: string;
}

/**
 * Any judge task's judgment: a value with its status, what the call cost, and the drill-down the task
 * gives (claims for grounding, facts for reference facts, per-chunk verdicts, a risk). The typed
 * judgments above are its shapes for the built-in tasks.
 */
export interface Judgment extends JudgeCallCost {
  readonly status: Status;
  readonly value: number | null;
  readonly reason?: string;
  readonly claims?: readonly ClaimVerdict[];
  readonly facts?: readonly ReferenceFact[];
  readonly chunks?: readonly ChunkVerdict[];
  readonly risk?: number;
}
