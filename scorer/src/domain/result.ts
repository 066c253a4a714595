import type { GroundingJudgment, ReferenceJudgment, RelevanceJudgment } from "./judgments.js";
import type { RetrievedItem } from "./metrics/recall.js";
import type { Scored, Status } from "./status.js";

/** Everything measured for one golden question. */
export interface QuestionResult {
  readonly golden_id: string;
  readonly trace_id: string;
  readonly tags: readonly string[];
  readonly question: string;
  /** `ok`, or `target_error` when the target failed (every metric then has that status). */
  readonly status: Status;
  readonly reason: string;
  readonly answer: string | null;
  /** Retrieved contexts in rank order (empty on a target error). */
  readonly contexts: readonly RetrievedItem[];
  readonly generator_model: string | null;
  /** Target call wall time, ms. */
  readonly latency_ms: number;
  /** Per-k recall (keys are k) when scored, else null with `recall_status`. */
  readonly recall: Readonly<Record<number, 0 | 1>> | null;
  readonly recall_status: Status;
  readonly hit_rank: number | null;
  /** Reciprocal rank (0 when no hit), null when recall is not scored. */
  readonly reciprocal_rank: number | null;
  readonly grounding: GroundingJudgment;
  readonly relevance: RelevanceJudgment;
  /** Reference-based judge: share of the reference answer's facts the answer states (LLM only). */
  readonly reference_facts: ReferenceJudgment;
  /**
   * Every repeat of the judges (`--repeat N`, index = repeat_index); `grounding`, `relevance` and
   * `reference_facts` above combine them (mean when all are ok, else the first non-ok status).
   */
  readonly repeats: readonly JudgeRepeat[];
  readonly key_facts: Scored;
  /** True when the answer declines to answer; null when there is no answer. */
  readonly abstained: boolean | null;
  /** 1 when an unanswerable question was declined, 0 when answered; `not_applicable` for answerable ones. */
  readonly abstention: Scored;
}

/** One repeat of the judges on one question. */
export interface JudgeRepeat {
  readonly grounding: GroundingJudgment;
  readonly relevance: RelevanceJudgment;
  readonly reference_facts: ReferenceJudgment;
}
