import { type GroundingJudgment, JUDGE_TASKS, type Judgment, type ReferenceJudgment, type RelevanceJudgment } from "../domain/judgments.js";

// The judgments are domain types (scores and results are built from them); re-exported for the judges.
export type { ClaimVerdict, GroundingJudgment, Judgment, ReferenceJudgment, RelevanceJudgment, Verdict } from "../domain/judgments.js";

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

/** Input of the reference-based judge. */
export interface ReferenceInput {
  readonly question: string;
  readonly answer: string;
  /** The golden item's `reference_answer`. */
  readonly reference: string;
}

/**
 * What a judge is asked for one task: the fields that task reads (a metric's definition builds it
 * from what it needs; the judge cache keys on it as given).
 */
export interface JudgeRequest {
  readonly question: string;
  readonly answer?: string;
  readonly chunks?: readonly JudgeChunk[];
  readonly answerable?: boolean | null;
  readonly reference?: string;
}

/**
 * A judge backend (the no-LLM rules, an LLM, …), identified by kind, model and prompt version. Built
 * only by the backend registry (./backends.ts); nothing else asks which kind it holds: what differs
 * between backends is said by their fields (`metered`, the tasks of `promptVersion`).
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
   * The tasks it judges (a judged metric names its task), each with its prompt version: a short hash
   * of the prompt text (or of the heuristic's rules). A task absent here is not judged by this
   * backend (its metric is `not_applicable`).
   */
  readonly promptVersion: Readonly<Record<string, string>>;
  /** Judges one request for `task` (one of `promptVersion`'s keys). Never throws for one item: failures are statuses. */
  judge(task: string, request: JudgeRequest): Promise<Judgment>;
  /** Releases what the judge holds beyond memory (the heuristic judge's thread); absent when it holds nothing. */
  close?(): Promise<void>;
}

/** One task of a backend: how it judges a request. */
export type JudgeTask = (request: JudgeRequest) => Promise<Judgment>;

/**
 * A backend from its task table: `promptVersion` and `tasks` share their keys. Asking for a task it
 * does not have is a programming error (callers check `promptVersion` first).
 */
export function judgeOf(base: Pick<Judge, "kind" | "model" | "metered">, tasks: Readonly<Record<string, { readonly version: string; readonly run: JudgeTask }>>): Judge {
  return {
    ...base,
    promptVersion: Object.fromEntries(Object.entries(tasks).map(([name, t]) => [name, t.version])),
    judge(task, request) {
      const t = tasks[task];
      if (t === undefined) throw new RangeError(`the ${base.kind} judge has no "${task}" task`);
      return t.run(request);
    },
  };
}

/** The grounding judgment of `judge` (typed view of {@link Judge.judge} for the grounding task). */
export function judgeGrounding(judge: Judge, input: GroundingInput): Promise<GroundingJudgment> {
  return judge.judge(JUDGE_TASKS.grounding, input) as Promise<GroundingJudgment>;
}

/** The relevance judgment of `judge` (typed view of {@link Judge.judge} for the relevance task). */
export function judgeRelevance(judge: Judge, input: RelevanceInput): Promise<RelevanceJudgment> {
  return judge.judge(JUDGE_TASKS.relevance, input) as Promise<RelevanceJudgment>;
}

/** The reference-facts judgment of `judge` (typed view of {@link Judge.judge} for the reference task). */
export function judgeReferenceFacts(judge: Judge, input: ReferenceInput): Promise<ReferenceJudgment> {
  return judge.judge(JUDGE_TASKS.referenceFacts, input) as Promise<ReferenceJudgment>;
}
