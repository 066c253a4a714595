import type { EvaluatedSpans, Evaluation } from "../domain/evaluation.js";
import { metricDef } from "../domain/metricTable.js";
import type { ClaimInsert, ScoreInsert } from "../domain/rows.js";

/** Statuses that mean the evaluation itself failed: they also set `error.type` (design §15). */
const EVALUATION_ERRORS: ReadonlySet<string> = new Set(["judge_error", "context_too_long"]);

/** `retrieval` for the metrics that read the retrieval alone (recall, MRR, context relevance, …), else `answer`. */
function kindOf(metric: string): "retrieval" | "answer" {
  const needs = metricDef(metric)?.needs ?? ["answer"];
  return needs.includes("answer") ? "answer" : "retrieval";
}

/** The span a metric evaluates: a metric without the answer among its needs the retrieval span, the others the generation span; else the root. */
export function evaluatedSpan(metric: string, spans: EvaluatedSpans | null): string | null {
  if (spans === null) return null;
  const own = kindOf(metric) === "retrieval" ? spans.retrieval : spans.generation;
  return own ?? spans.root;
}

/** Claims of one score row's judgment (same trace, prompt version and repeat). */
const claimsOf = (s: ScoreInsert, claims: readonly ClaimInsert[]): ClaimInsert[] =>
  claims.filter((c) => c.trace_id === s.trace_id && c.run_id === s.run_id && c.judge_prompt_version === s.judge_prompt_version && c.repeat_index === s.repeat_index);

/**
 * The label of a measured score (design §15): the metric's own (grounding `supported` /
 * `contradicted` / `unsupported` from its claims, retrieval metrics `hit` / `miss`, abstention
 * `abstained` / `answered`), else `ok`.
 */
function okLabel(s: ScoreInsert, value: number, claims: readonly ClaimInsert[]): string {
  const label = metricDef(s.metric)?.evaluationLabel;
  return label === undefined
    ? "ok"
    : label(
        value,
        claims.map((c) => c.verdict),
      );
}

/** `3 claims: 2 SUPPORTED, 1 UNSUPPORTED` (verdicts in a fixed order). */
function verdictCounts(claims: readonly ClaimInsert[]): string {
  const parts = ["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"]
    .map((v) => [v, claims.filter((c) => c.verdict === v).length] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${n} ${v}`);
  return `${claims.length} claim${claims.length === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

/**
 * The `gen_ai.evaluation.result` events of stored rows (design §15): one per
 * score row, parented to the span it evaluates ({@link evaluatedSpan}). An `ok` row carries its
 * value as `gen_ai.evaluation.score.value`; any other status carries no value (never a number that
 * was not measured): its label is the status and its explanation the reason.
 */
export function evaluationsOf(rows: { readonly scores: readonly ScoreInsert[]; readonly claims: readonly ClaimInsert[] }, spans: EvaluatedSpans | null): Evaluation[] {
  return rows.scores.map((s) => {
    const claims = metricDef(s.metric)?.claims === true ? claimsOf(s, rows.claims) : [];
    const error = EVALUATION_ERRORS.has(s.status);
    const attributes: Record<string, string | number> = {
      "gen_ai.evaluation.name": s.metric,
      ...resultAttributes(s, claims),
      ...(error ? { "error.type": s.status } : {}),
      ...provenanceAttributes(s),
    };
    return { trace_id: s.trace_id, span_id: evaluatedSpan(s.metric, spans), attributes, error };
  });
}

/**
 * A score row's result: an `ok` row its value, its label ({@link okLabel}) and its claims' verdicts
 * before the reason; any other status its status as the label and its reason; no empty explanation.
 */
function resultAttributes(s: ScoreInsert, claims: readonly ClaimInsert[]): Record<string, string | number> {
  const attributes: Record<string, string | number> = {};
  let explanation = s.reason;
  if (s.status === "ok" && s.value !== null) {
    attributes["gen_ai.evaluation.score.value"] = s.value;
    attributes["gen_ai.evaluation.score.label"] = okLabel(s, s.value, claims);
    if (claims.length > 0) explanation = explanation === "" ? verdictCounts(claims) : `${verdictCounts(claims)}; ${explanation}`;
  } else attributes["gen_ai.evaluation.score.label"] = s.status;
  if (explanation !== "") attributes["gen_ai.evaluation.explanation"] = explanation;
  return attributes;
}

/** Where a score row comes from: run, golden item, pipeline version, source, status, judge and repeat (empty ones left out). */
function provenanceAttributes(s: ScoreInsert): Record<string, string | number> {
  const attributes: Record<string, string | number> = { "ragmeter.run.id": s.run_id };
  if (s.golden_id !== "") attributes["ragmeter.golden.id"] = s.golden_id;
  attributes["ragmeter.pipeline.version"] = s.pipeline_version;
  attributes["ragmeter.source"] = s.source;
  attributes["ragmeter.score.status"] = s.status;
  attributes["ragmeter.judge.kind"] = s.judge_kind;
  if (s.judge_model !== "") attributes["ragmeter.judge.model"] = s.judge_model;
  if (s.judge_prompt_version !== "") attributes["ragmeter.judge.prompt_version"] = s.judge_prompt_version;
  attributes["ragmeter.repeat.index"] = s.repeat_index;
  return attributes;
}
