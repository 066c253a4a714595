import { type GoldenItem, isAnswerable } from "@ragmeter/golden";
import { isAbstention } from "../domain/metrics/abstention.js";
import { keyFactsScore } from "../domain/metrics/keyFacts.js";
import type { RetrievedItem } from "../domain/metrics/recall.js";
import { recallAtK } from "../domain/metrics/recall.js";
import type { JudgeRepeat, QuestionResult } from "../domain/result.js";
import { none, ok, type Status } from "../domain/status.js";
import { combineRepeats } from "../judges/analysis.js";
import { heuristicClaims } from "../judges/heuristic/heuristicJudge.js";
import type { ClaimVerdict, GroundingJudgment, Judge, ReferenceJudgment, RelevanceJudgment } from "../judges/types.js";

export type { QuestionResult } from "../domain/result.js";

const NO_COST = { input_tokens: 0, output_tokens: 0, latency_ms: 0 };

/**
 * The result of a question that could not be scored at all: every metric carries `status` (e.g.
 * `target_error`, or `trace_timeout` when its spans never arrived) with a null value.
 */
export function failedQuestion(
  item: Pick<GoldenItem, "id" | "tags" | "question">,
  traceId: string,
  status: Exclude<Status, "ok">,
  reason: string,
  latencyMs: number,
): QuestionResult {
  const err = none(status, reason);
  return {
    golden_id: item.id,
    trace_id: traceId,
    tags: item.tags,
    question: item.question,
    latency_ms: latencyMs,
    status,
    reason,
    answer: null,
    contexts: [],
    generator_model: null,
    recall: null,
    recall_status: status,
    hit_rank: null,
    reciprocal_rank: null,
    grounding: { status, value: null, claims: [] as ClaimVerdict[], reason, ...NO_COST },
    relevance: { status, value: null, reason, ...NO_COST },
    reference_facts: { status, value: null, facts: [], reason, ...NO_COST },
    repeats: [],
    key_facts: err,
    abstained: null,
    abstention: err,
  };
}

/** Who is scored: the question and where its result is filed. */
export interface Subject {
  readonly trace_id: string;
  /** The golden item's id (or the key the run files it under, e.g. the original trace id of a replay). */
  readonly golden_id: string;
  readonly tags: readonly string[];
  readonly question: string;
  /** Wall time of the call that produced the answer, ms (0 when unknown). */
  readonly latency_ms: number;
}

/** What the RAG service answered: the answer text and the contexts it retrieved, in rank order. */
export interface Answer {
  readonly answer: string;
  readonly contexts: readonly RetrievedItem[];
  readonly model: string | null;
}

/** What a golden item expects of the answer; null for live traffic (no golden item). */
export type Expectations = Pick<GoldenItem, "expected_source" | "expected_substring" | "expected_chunk_id" | "expected_lines" | "reference_answer" | "key_facts"> | null;

/** Options of {@link scoreInteraction}. */
export interface ScoreOptions {
  readonly judge: Judge;
  /** k values of recall@k. */
  readonly ks: readonly number[];
  /** Runs of each judge (`--repeat N`, default 1). */
  readonly repeat?: number;
  /** False for live traffic outside the judge sampling rate: grounding and relevance are `not_sampled` (no judge call). */
  readonly sampled?: boolean;
  /** Why abstention does not apply without a golden item (live traffic). */
  readonly noGoldenReason?: string;
  /**
   * Judges decided not to run before any call (the applicability of design §5): the metric is
   * stored with this status and reason, and the judge is not called (the reference-based judge
   * follows relevance).
   */
  readonly skip?: { readonly grounding?: Skip; readonly relevance?: Skip };
}

/** A judge not called: the status and reason its metric is stored with. */
export interface Skip {
  readonly status: Exclude<Status, "ok">;
  readonly reason: string;
}

const NOT_SAMPLED = "live trace outside the judge sampling rate";

/**
 * The reference-based judgment that applies without calling a judge: `not_applicable` without a
 * reference answer or without a reference-based judge; null when the judge is to be called.
 */
export function referenceNotApplicable(expect: Expectations, judge: Judge): ReferenceJudgment | null {
  const reference = expect?.reference_answer ?? null;
  if (reference !== null && reference.trim() !== "" && judge.referenceFacts) return null;
  return { status: "not_applicable", value: null, facts: [], reason: reference === null ? "no reference_answer" : "no reference-based judge (heuristic judges)", ...NO_COST };
}

/**
 * The scoring core (design §5), used by eval, replay and the streaming scorer alike: one answer in,
 * its scores out. recall@k and reciprocal rank (answerable golden items), grounding and relevance
 * (judge), the reference-based judge (reference answer and an LLM judge), key facts, abstention.
 */
export async function scoreInteraction(subject: Subject, reply: Answer, expect: Expectations, options: ScoreOptions): Promise<QuestionResult> {
  const { judge, ks } = options;
  const answerable = expect !== null && isAnswerable(expect);
  let recall: Record<number, 0 | 1> | null = null;
  let hitRank: number | null = null;
  let rr: number | null = null;
  if (answerable) {
    const r = recallAtK(reply.contexts, expect, ks);
    recall = { ...r.recall };
    hitRank = r.hitRank;
    rr = r.reciprocalRank;
  }
  // An item without a chunk id is shown to the judge by its rank (`#2`), the label its claims cite.
  const chunks = reply.contexts.map((c, i) => ({ id: c.id !== "" ? c.id : `#${i + 1}`, text: c.text }));
  const question = subject.question;
  const sampled = options.sampled ?? true;
  const skipG = options.skip?.grounding ?? (sampled ? null : { status: "not_sampled" as const, reason: NOT_SAMPLED });
  const skipR = options.skip?.relevance ?? (sampled ? null : { status: "not_sampled" as const, reason: NOT_SAMPLED });
  const noReference =
    referenceNotApplicable(expect, judge) ??
    (options.skip?.relevance ? { ...NO_COST, status: options.skip.relevance.status, value: null, facts: [], reason: options.skip.relevance.reason } : null);
  const reference = expect?.reference_answer ?? "";
  const repeats: JudgeRepeat[] = await Promise.all(
    Array.from({ length: Math.max(1, options.repeat ?? 1) }, async (): Promise<JudgeRepeat> => {
      const [g, r, f] = await Promise.all([
        skipG === null
          ? judge.grounding({ question, answer: reply.answer, chunks })
          : Promise.resolve<GroundingJudgment>({ status: skipG.status, value: null, claims: [], reason: skipG.reason, ...NO_COST }),
        skipR === null
          ? judge.relevance({ question, answer: reply.answer, answerable })
          : Promise.resolve<RelevanceJudgment>({ status: skipR.status, value: null, reason: skipR.reason, ...NO_COST }),
        noReference === null && judge.referenceFacts ? judge.referenceFacts({ question, answer: reply.answer, reference }) : Promise.resolve(noReference as ReferenceJudgment),
      ]);
      return { grounding: g, relevance: r, reference_facts: f };
    }),
  );
  // isAbstention first: a cheap test that spares tokenizing every sentence of most answers.
  const abstained = isAbstention(reply.answer) && heuristicClaims(reply.answer).length === 0;
  return {
    ...subject,
    status: "ok",
    reason: "",
    answer: reply.answer,
    contexts: reply.contexts.map((c) => ({ ...c })),
    generator_model: reply.model,
    recall,
    recall_status: recall === null ? "not_applicable" : "ok",
    hit_rank: hitRank,
    reciprocal_rank: rr,
    grounding: combineRepeats(repeats.map((x) => x.grounding)),
    relevance: combineRepeats(repeats.map((x) => x.relevance)),
    reference_facts: combineRepeats(repeats.map((x) => x.reference_facts)),
    repeats,
    key_facts: keyFactsScore(reply.answer, expect?.key_facts ?? null),
    abstained,
    abstention:
      expect === null ? none("not_applicable", options.noGoldenReason ?? "no golden item") : answerable ? none("not_applicable", "answerable question") : ok(abstained ? 1 : 0),
  };
}
