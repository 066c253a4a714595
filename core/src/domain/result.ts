import type { Outcome, RetrievedItem } from "./metric.js";
import type { Status } from "./status.js";

/** Everything measured for one golden question (or one scored trace). */
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
  /** Every metric of the table by name (recall@5, grounding, …): value, status, reason, cost and drill-down. */
  readonly metrics: Readonly<Record<string, Outcome>>;
  /** True when the answer declines to answer; null when there is no answer. */
  readonly abstained: boolean | null;
}

/**
 * A result's outcome of one metric: the one it holds, or, for a question that was not scored (target
 * error, trace timeout: it holds none), the question's status and reason; `not_applicable` for a
 * metric a scored result lacks (a table of another version).
 */
export function outcomeOf(q: QuestionResult, metric: string): Outcome {
  const o = q.metrics[metric];
  if (o !== undefined) return o;
  if (q.status !== "ok") return { status: q.status, value: null, reason: q.reason };
  return { status: "not_applicable", value: null, reason: `${metric} not computed for this result` };
}
