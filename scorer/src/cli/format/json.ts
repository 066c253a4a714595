import type { Outcome } from "@ragmeter/core/domain/metric";
import { itemMatches, type MatchExpectation, retrievedRanks } from "@ragmeter/core/domain/metrics/retrieved";
import { outcomeOf, type QuestionResult } from "@ragmeter/core/domain/result";
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

/** One metric of one question in the JSON report: value, status, why, and its drill-down (claims, facts, chunks, risk, hit rank). */
function metricJson(o: Outcome): Record<string, unknown> {
  return {
    value: o.value,
    status: o.status,
    ...(o.reason !== "" ? { reason: o.reason } : {}),
    ...(o.cached !== undefined ? { cached: o.cached } : {}),
    ...(o.hit_rank !== undefined ? { hit_rank: o.hit_rank } : {}),
    ...(o.risk !== undefined ? { risk: o.risk } : {}),
    ...(o.tier !== undefined ? { tier: o.tier } : {}),
    ...(o.claims !== undefined
      ? { claims: o.claims.map((c) => ({ text: c.text, verdict: c.verdict, chunk_ids: c.chunk_ids, ...(c.support !== undefined ? { support: c.support } : {}) })) }
      : {}),
    ...(o.facts !== undefined ? { facts: o.facts } : {}),
    ...(o.chunks !== undefined ? { chunks: o.chunks } : {}),
    ...(o.repeats !== undefined ? { repeats: o.repeats.map((r) => ({ value: r.value, status: r.status })) } : {}),
  };
}

/** Why a question scored what it did: answer, retrieved items (rank, matched) and every metric by name with its drill-down. */
function questionDrillDown(q: QuestionResult, expect: MatchExpectation | null, names: readonly string[]): Record<string, unknown> {
  const ranks = retrievedRanks(q.contexts);
  return {
    question: q.question,
    answer: q.answer,
    retrieved: q.contexts.map((c, i): RetrievedJson => ({ id: c.id, document_id: c.document_id, score: c.score, rank: ranks[i] ?? null, matched: itemMatches(c, expect) })),
    metrics: Object.fromEntries(names.map((name) => [name, metricJson(outcomeOf(q, name))])),
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
  const names = Object.keys(o.aggregate.metrics);
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
      abstained: q.abstained,
      status: q.status,
      reason: q.reason || undefined,
      ...questionDrillDown(q, expectations.get(q.golden_id) ?? null, names),
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
