/**
 * Evaluation results as OpenTelemetry GenAI events (`gen_ai.evaluation.result`, design §15
 * "Evaluation export"): one per stored score row, parented to the span the score evaluates.
 */

/** The GenAI event name (the LogRecord's `event_name` field, never the deprecated `event.name` attribute). */
export const EVALUATION_EVENT = "gen_ai.evaluation.result";

/**
 * Span ids a question's scores evaluate: the retrieval span (recall@k, MRR), the generation span
 * (the answer metrics), and the fallback `root` — the trace's root span, or in a direct eval the span
 * id ragmeter sent in `traceparent` (the parent of the target's root span). Null: unknown.
 */
export interface EvaluatedSpans {
  readonly retrieval: string | null;
  readonly generation: string | null;
  readonly root: string | null;
}

/** One evaluation result, ready to be emitted. */
export interface Evaluation {
  /** 32 lower-case hex digits. */
  readonly trace_id: string;
  /** 16 lower-case hex digits; null when no span of the trace is known (then no trace context is set). */
  readonly span_id: string | null;
  /** Attributes of the event: `gen_ai.evaluation.*`, `error.type` and `ragmeter.*` provenance. */
  readonly attributes: Readonly<Record<string, string | number>>;
  /** Whether the evaluation ended in an error (`error.type` set): severity WARN, else INFO. */
  readonly error: boolean;
}

/** Where evaluation results go besides the store (the OTLP export); emitted only after the rows were stored. */
export interface EvaluationSink {
  emit(evaluations: readonly Evaluation[]): void;
}
