import { SpanStatusCode, trace } from "@opentelemetry/api";
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
const JUDGE_SPAN_NAME = "ragmeter.judge";

/** Whether a trace is the judge's own LLM call: one of its spans carries {@link JUDGE_CALL_ATTRIBUTE}. */
export function isJudgeOwnTrace(spans: readonly StoredSpan[]): boolean {
  return spans.some((s) => s.attributes[JUDGE_CALL_ATTRIBUTE] === true || s.attributes[JUDGE_CALL_ATTRIBUTE] === "true");
}

/**
 * Runs each judge request inside a root span {@link JUDGE_SPAN_NAME} carrying
 * {@link JUDGE_CALL_ATTRIBUTE} (and the judge model), on the global tracer: a no-op unless the
 * process registered an OpenTelemetry SDK; with one, an `openai` instrumentation's span of the
 * request is its child, in a trace of its own that the scorer never judges.
 */
export function markJudgeCalls(model: string): <T>(fn: () => Promise<T>) => Promise<T> {
  const tracer = trace.getTracer("ragmeter-judge");
  return (fn) =>
    tracer.startActiveSpan(JUDGE_SPAN_NAME, { root: true, attributes: { [JUDGE_CALL_ATTRIBUTE]: true, "gen_ai.request.model": model } }, async (span) => {
      try {
        return await fn();
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    });
}
