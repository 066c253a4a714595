import type { MetricInput } from "../../core/src/domain/metric.js";
import { metricDef } from "../../core/src/domain/metricTable.js";

/** A retrieved item without a score. */
export const item = (id: string, document_id: string, text = "") => ({ id, document_id, text, score: null });

/** A metric's input for one answerable golden item with the given expectation, at k. */
export function retrievalInput(
  contexts: ReturnType<typeof item>[],
  k: number,
  expect: { expected_source: string | null; expected_substring: string | null; expected_chunk_id?: string | null },
): MetricInput {
  return {
    question: "q",
    answer: "a",
    contexts,
    chunks: contexts.map((c) => ({ id: c.id, text: c.text })),
    expect: { expected_lines: null, reference_answer: null, key_facts: null, expected_chunk_id: null, ...expect },
    answerable: true,
    abstained: false,
    k,
  };
}

/** The value of a mechanical metric of the product table (any k for a per-k name). */
export function mechanicalValue(name: string, input: MetricInput): number | null {
  const def = metricDef(name);
  if (def === undefined || def.kind === "judged") throw new Error(`${name}: no mechanical entry in the table`);
  return def.compute(input).value;
}
