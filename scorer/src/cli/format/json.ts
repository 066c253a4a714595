import { itemMatches, type MatchExpectation, retrievedRanks } from "../../domain/metrics/retrieved.js";
import type { QuestionResult } from "../../domain/result.js";
import type { EvalOutcome } from "../../runs/summary.js";

/** One retrieved item of a question in the JSON report. */
interface RetrievedJson {
  readonly id: string;
  readonly document_id: string;
  readonly score: number | null;
  /** Rank as recall@k counts it; null for a duplicate (takes no rank). */
  readonly rank: number | null;
  /** Whether it matches the golden expectation; null when nothing is expected. */
  readonly matched: boolean | null;
}

/** Why a question scored what it did: answer, retrieved items, claims, judge reasons and statuses. */
function questionDrillDown(q: QuestionResult, expect: MatchExpectation | null): Record<string, unknown> {
  const ranks = retrievedRanks(q.contexts);
  return {
    question: q.question,
    answer: q.answer,
    retrieved: q.contexts.map((c, i): RetrievedJson => ({ id: c.id, document_id: c.document_id, score: c.score, rank: ranks[i] ?? null, matched: itemMatches(c, expect) })),
    claims: q.grounding.claims.map((c) => ({ text: c.text, verdict: c.verdict, chunk_ids: c.chunk_ids })),
    grounding_reason: q.grounding.reason ?? null,
    relevance_reason: q.relevance.reason ?? null,
    judges: {
      grounding: { status: q.grounding.status, cached: q.grounding.cached ?? false },
      relevance: { status: q.relevance.status, cached: q.relevance.cached ?? false },
      reference_facts: { status: q.reference_facts.status, cached: q.reference_facts.cached ?? false },
    },
  };
}

/** The `--json OUT` document of `ragmeter eval` (values unrounded). */
export interface EvalJson {
  readonly run_id: string;
  readonly pipeline_version: string;
  readonly golden_set: { readonly path: string; readonly sha256: string };
  readonly judge: { readonly kind: string; readonly model: string; readonly prompt_version: string };
  readonly metrics: Record<string, number | null>;
  readonly by_tag: Record<string, Record<string, number | null>>;
  /** Per metric: status → count; plus `questions`: question status → count. */
  readonly counts: Record<string, Record<string, number>>;
  readonly questions: readonly Record<string, unknown>[];
  readonly previous: { readonly run_id: string; readonly deltas: Record<string, { delta: number | null; n: number }> } | { readonly run_id: null; readonly why: string };
  readonly warnings: readonly string[];
  /** Judge usage and trust: calls, cached, not_sampled, tokens, cost (USD or null), repeat, length bias, variance, last calibration. */
  readonly judge_report: Record<string, unknown>;
  /** Per match mode (chunk_id, document, substring, lines, unanswerable): items, recall@k means over measured questions, n. */
  readonly match_modes?: Record<string, { items: number; recall: Record<string, number | null>; n: number }>;
}

/**
 * Builds the JSON report of an evaluation run.
 * @param expectations golden expectations by golden id, to say which retrieved items matched.
 */
export function evalJson(o: EvalOutcome, expectations: ReadonlyMap<string, MatchExpectation> = new Map()): EvalJson {
  const questionCounts: Record<string, number> = {};
  for (const q of o.questions) questionCounts[q.status] = (questionCounts[q.status] ?? 0) + 1;
  if (o.results === null) throw new TypeError("evalJson: the run did not keep its per-question results (runEval keepResults)");
  return {
    run_id: o.run.run_id,
    pipeline_version: o.run.pipeline_version,
    golden_set: { path: o.run.golden_set_path, sha256: o.run.golden_set_hash },
    judge: { kind: o.run.judge_kind, model: o.run.judge_model, prompt_version: o.run.judge_prompt_version },
    metrics: o.aggregate.metrics,
    by_tag: Object.fromEntries(Object.entries(o.byTag).map(([t, a]) => [t, a.metrics])),
    counts: { ...o.aggregate.counts, questions: questionCounts },
    questions: o.results.map((q) => ({
      golden_id: q.golden_id,
      trace_id: q.trace_id,
      tags: q.tags,
      recall: q.recall === null ? null : Object.fromEntries(Object.entries(q.recall).map(([k, v]) => [String(k), v])),
      recall_status: q.recall_status,
      hit_rank: q.hit_rank,
      grounding: q.grounding.value,
      grounding_status: q.grounding.status,
      grounding_reason: q.grounding.status === "ok" ? undefined : q.grounding.reason,
      relevance: q.relevance.value,
      relevance_status: q.relevance.status,
      relevance_reason: q.relevance.status === "ok" ? undefined : q.relevance.reason,
      reference_facts: q.reference_facts.value,
      reference_facts_status: q.reference_facts.status,
      reference_facts_reason: q.reference_facts.status === "ok" ? undefined : q.reference_facts.reason,
      key_facts: q.key_facts.value,
      key_facts_status: q.key_facts.status,
      abstained: q.abstained,
      status: q.status,
      reason: q.reason || undefined,
      ...questionDrillDown(q, expectations.get(q.golden_id) ?? null),
    })),
    previous: o.previous.run
      ? { run_id: o.previous.run.run_id, deltas: Object.fromEntries(o.previous.deltas.map((d) => [d.metric, { delta: d.delta, n: d.n }])) }
      : { run_id: null, why: o.previous.why },
    warnings: o.warnings,
    ...(o.byMode ? { match_modes: Object.fromEntries(Object.entries(o.byMode).map(([m, r]) => [m, { items: r.items, recall: { ...r.recall }, n: r.n }])) } : {}),
    judge_report: {
      ...o.judgeReport.stats,
      repeat: o.judgeReport.repeat,
      cache: o.judgeReport.cache,
      length_bias: o.judgeReport.length_bias,
      variance: o.judgeReport.variance,
      calibration: o.judgeReport.calibration,
      calibration_before_change: o.judgeReport.calibration_before_change,
      skipped: o.judgeReport.skipped,
    },
  };
}
