import type { EvalOutcome } from "../../runs/summary.js";

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
}

/** Builds the JSON report of an evaluation run. */
export function evalJson(o: EvalOutcome): EvalJson {
  const questionCounts: Record<string, number> = {};
  for (const q of o.results) questionCounts[q.status] = (questionCounts[q.status] ?? 0) + 1;
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
    })),
    previous: o.previous.run
      ? { run_id: o.previous.run.run_id, deltas: Object.fromEntries(o.previous.deltas.map((d) => [d.metric, { delta: d.delta, n: d.n }])) }
      : { run_id: null, why: o.previous.why },
    warnings: o.warnings,
    judge_report: {
      ...o.judgeReport.stats,
      repeat: o.judgeReport.repeat,
      cache: o.judgeReport.cache,
      length_bias: o.judgeReport.length_bias,
      variance: o.judgeReport.variance,
      calibration: o.judgeReport.calibration,
    },
  };
}
