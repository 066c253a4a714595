import type { StoredSpan } from "../domain/spans.js";

/**
 * Span attribute of the judge's own LLM calls (design §10): every LLM judge request runs inside a
 * root span `ragmeter.judge` carrying `ragmeter.judge.call = true`, started on the global
 * OpenTelemetry tracer (a no-op unless the process registered an SDK). When an SDK in the same
 * process auto-instruments the `openai` client (a `--target-module` pipeline's, or a scorer run
 * under zero-code instrumentation), the call's span is that span's child, so the whole trace is the
 * judge's; the scorer never judges such a trace.
 */
export const JUDGE_CALL_ATTRIBUTE = "ragmeter.judge.call";

/** The name of the judge's own span. */
export const JUDGE_SPAN_NAME = "ragmeter.judge";

/** Whether a trace is the judge's own LLM call: one of its spans carries {@link JUDGE_CALL_ATTRIBUTE}. */
export function isJudgeOwnTrace(spans: readonly StoredSpan[]): boolean {
  return spans.some((s) => s.attributes[JUDGE_CALL_ATTRIBUTE] === true || s.attributes[JUDGE_CALL_ATTRIBUTE] === "true");
}
