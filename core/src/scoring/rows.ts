import type { Outcome } from "../domain/metric.js";
import { metricTable } from "../domain/metricTable.js";
import { outcomeOf, type QuestionResult } from "../domain/result.js";
import type { ClaimInsert, InteractionInsert, ScoreInsert } from "../domain/rows.js";
import type { Judge } from "../judges/types.js";

/** The run a result is filed under (`live` for live traffic). */
export interface RowContext {
  readonly run_id: string;
  readonly pipeline_version: string;
  readonly source: string;
}

/** What the spans of a trace say about its interaction beyond the scored result (streaming scorer). */
export interface SeenInteraction {
  readonly service_name: string;
  readonly deployment_environment: string;
  /** Exact: a decimal string when it came as one (64-bit values). */
  readonly input_tokens: number | string | null;
  readonly output_tokens: number | string | null;
  /** Overrides the result's latency (null: unknown); absent keeps it. */
  readonly latency_ms?: number | null;
  /** Judge prompt version the interaction was scored under (the stream's "already scored" test). */
  readonly judge_prompt_version?: string;
}

/** A direct answer of the target: nothing seen beyond the reply. */
const DIRECT: SeenInteraction = { service_name: "", deployment_environment: "", input_tokens: null, output_tokens: null };

/** The rows of one question result. */
export interface ResultRows {
  readonly scores: ScoreInsert[];
  readonly claims: ClaimInsert[];
  readonly interaction: InteractionInsert;
}

/** Score rows, claims and the interaction of one question result: one score row per metric of the table (per repeat for judged ones). */
export function resultRows(run: RowContext, q: QuestionResult, judge: Judge, ks: readonly number[], seen: SeenInteraction = DIRECT): ResultRows {
  const scores: ScoreInsert[] = [];
  const claims: ClaimInsert[] = [];
  // Rows are object literals of one shape (no spread): this runs for every metric of every trace.
  const row = (metric: string, repeat_index: number, o: Outcome, task: string | null): ScoreInsert => ({
    run_id: run.run_id,
    trace_id: q.trace_id,
    golden_id: q.golden_id,
    metric,
    value: o.value,
    status: o.status,
    reason: o.reason,
    judge_kind: task !== null ? judge.kind : "mechanical",
    judge_model: task !== null ? judge.model : "",
    judge_prompt_version: task !== null ? (judge.promptVersion[task] ?? "") : "",
    repeat_index,
    pipeline_version: run.pipeline_version,
    source: run.source,
    judge_input_tokens: o.input_tokens ?? 0,
    judge_output_tokens: o.output_tokens ?? 0,
    latency_ms: o.latency_ms ?? 0,
  });
  for (const def of metricTable(ks)) {
    const o = outcomeOf(q, def.name);
    const task = def.kind === "judged" ? def.task : null;
    // One row per repeat (repeat_index); comparisons average them per question (store/results.ts runScores).
    const each = o.repeats ?? [o];
    each.forEach((r, repeat_index) => {
      scores.push(row(def.name, repeat_index, r, task));
      for (const c of r.claims ?? []) {
        claims.push({
          run_id: run.run_id,
          trace_id: q.trace_id,
          golden_id: q.golden_id,
          judge_prompt_version: task !== null ? (judge.promptVersion[task] ?? "") : "",
          repeat_index,
          claim_index: c.index,
          claim: c.text,
          verdict: c.verdict,
          chunk_ids: c.chunk_ids,
          judge_model: judge.model,
          pipeline_version: run.pipeline_version,
        });
      }
    });
  }
  const interaction: InteractionInsert = {
    trace_id: q.trace_id,
    run_id: run.run_id,
    golden_id: q.golden_id,
    source: run.source,
    service_name: seen.service_name,
    deployment_environment: seen.deployment_environment,
    pipeline_version: run.pipeline_version,
    question: q.question,
    answer: q.answer,
    retrieved: q.contexts.map((c, i) => ({ ...c, rank: i + 1 })),
    generator_model: q.generator_model,
    input_tokens: seen.input_tokens,
    output_tokens: seen.output_tokens,
    abstained: q.abstained,
    status: q.status,
    reason: q.reason,
    latency_ms: seen.latency_ms === undefined ? q.latency_ms : seen.latency_ms,
    ...(seen.judge_prompt_version !== undefined ? { judge_prompt_version: seen.judge_prompt_version } : {}),
  };
  return { scores, claims, interaction };
}
