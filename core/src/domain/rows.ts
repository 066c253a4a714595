/** One row of `scores` (design §5: every score row carries these). */
export interface ScoreInsert {
  readonly run_id: string;
  readonly trace_id: string;
  readonly golden_id: string;
  readonly metric: string;
  readonly value: number | null;
  readonly status: string;
  readonly reason: string;
  /** `llm`, `heuristic`, or `mechanical` for recall, MRR, key facts and abstention. */
  readonly judge_kind: string;
  readonly judge_model: string;
  readonly judge_prompt_version: string;
  readonly repeat_index: number;
  readonly pipeline_version: string;
  readonly source: string;
  readonly judge_input_tokens: number;
  readonly judge_output_tokens: number;
  /** ms */
  readonly latency_ms: number;
}

/** One row of `claims`. */
export interface ClaimInsert {
  readonly run_id: string;
  readonly trace_id: string;
  readonly golden_id: string;
  readonly judge_prompt_version: string;
  readonly repeat_index: number;
  readonly claim_index: number;
  readonly claim: string;
  readonly verdict: string;
  readonly chunk_ids: readonly string[];
  readonly judge_model: string;
  readonly pipeline_version: string;
}

/** One row of `interactions`. */
export interface InteractionInsert {
  readonly trace_id: string;
  readonly run_id: string;
  readonly golden_id: string;
  readonly source: string;
  readonly service_name: string;
  readonly deployment_environment: string;
  readonly pipeline_version: string;
  readonly question: string;
  readonly answer: string | null;
  readonly retrieved: readonly { id: string; document_id: string; text: string; score: number | null; rank: number }[];
  readonly generator_model: string | null;
  /** Exact: a decimal string when it came as one (64-bit values). */
  readonly input_tokens: number | string | null;
  readonly output_tokens: number | string | null;
  readonly abstained: boolean | null;
  readonly status: string;
  readonly reason: string;
  /** Target call wall time, ms. */
  readonly latency_ms: number | null;
  /** Judge prompt version the interaction was scored under (streaming scorer's "already scored" test). */
  readonly judge_prompt_version?: string;
  /** When it was first scored, ms since the epoch (`rescore` keeps it); absent: now. */
  readonly created_at?: number;
}

/** Rows of a batch of question results. */
export interface ResultBatch {
  readonly interactions: readonly InteractionInsert[];
  readonly scores: readonly ScoreInsert[];
  readonly claims: readonly ClaimInsert[];
}
