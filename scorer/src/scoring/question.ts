import type { GoldenItem } from "@ragmeter/golden";
import type { JudgeRepeat, QuestionResult } from "../domain/result.js";
import { isAbstention } from "../domain/metrics/abstention.js";
import { keyFactsScore } from "../domain/metrics/keyFacts.js";
import { recallAtK } from "../domain/metrics/recall.js";
import { none, ok, type Status } from "../domain/status.js";
import type { ClaimVerdict, Judge, ReferenceJudgment } from "../judges/types.js";
import { combineRepeats } from "../judges/analysis.js";
import { heuristicClaims } from "../judges/heuristic/heuristicJudge.js";
import type { TargetResult } from "../runs/target.js";

export type { JudgeRepeat, QuestionResult } from "../domain/result.js";

const NO_COST = { input_tokens: 0, output_tokens: 0, latency_ms: 0 };

/**
 * The result of a question that could not be scored at all: every metric carries `status` (e.g.
 * `target_error`, or `trace_timeout` when its spans never arrived) with a null value.
 */
export function failedQuestion(item: GoldenItem, traceId: string, status: Exclude<Status, "ok">, reason: string, latencyMs: number): QuestionResult {
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

/**
 * Scores one golden question from the target's result (design §5): recall@k and reciprocal rank
 * (answerable items), grounding and relevance (judge), key facts, abstention. A failed target call
 * gives `target_error` on every metric.
 */
export async function scoreQuestion(item: GoldenItem, traceId: string, result: TargetResult, judge: Judge, ks: readonly number[], options: { readonly repeat?: number } = {}): Promise<QuestionResult> {
  const base = { golden_id: item.id, trace_id: traceId, tags: item.tags, question: item.question, latency_ms: result.latency_ms };
  if (!result.ok) return failedQuestion(item, traceId, "target_error", result.reason, result.latency_ms);
  const { reply } = result;
  const answerable = item.expected_source !== null;
  let recall: Record<number, 0 | 1> | null = null;
  let hitRank: number | null = null;
  let rr: number | null = null;
  if (answerable && item.expected_substring !== null) {
    const r = recallAtK(reply.contexts, { expected_source: item.expected_source as string, expected_substring: item.expected_substring }, ks);
    recall = { ...r.recall };
    hitRank = r.hitRank;
    rr = r.reciprocalRank;
  }
  const chunks = reply.contexts.map((c) => ({ id: c.id, text: c.text }));
  const reference = item.reference_answer;
  const referenceJudge = judge.referenceFacts?.bind(judge);
  const repeats: JudgeRepeat[] = await Promise.all(
    Array.from({ length: Math.max(1, options.repeat ?? 1) }, async (): Promise<JudgeRepeat> => {
      const [g, r, f] = await Promise.all([
        judge.grounding({ question: item.question, answer: reply.answer, chunks }),
        judge.relevance({ question: item.question, answer: reply.answer, answerable }),
        reference !== null && reference.trim() !== "" && referenceJudge
          ? referenceJudge({ question: item.question, answer: reply.answer, reference })
          : Promise.resolve<ReferenceJudgment>({ status: "not_applicable", value: null, facts: [], reason: reference === null ? "no reference_answer" : "no reference-based judge (heuristic judges)", ...NO_COST }),
      ]);
      return { grounding: g, relevance: r, reference_facts: f };
    }),
  );
  const grounding = combineRepeats(repeats.map((x) => x.grounding));
  const relevance = combineRepeats(repeats.map((x) => x.relevance));
  const referenceFacts = combineRepeats(repeats.map((x) => x.reference_facts));
  const abstained = heuristicClaims(reply.answer).length === 0 && isAbstention(reply.answer);
  return {
    ...base,
    status: "ok",
    reason: "",
    answer: reply.answer,
    contexts: reply.contexts.map((c) => ({ ...c })),
    generator_model: reply.model,
    recall,
    recall_status: recall === null ? "not_applicable" : "ok",
    hit_rank: hitRank,
    reciprocal_rank: rr,
    grounding,
    relevance,
    reference_facts: referenceFacts,
    repeats,
    key_facts: keyFactsScore(reply.answer, item.key_facts),
    abstained,
    abstention: answerable ? none("not_applicable", "answerable question") : ok(abstained ? 1 : 0),
  };
}
