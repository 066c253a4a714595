import { describe, expect, it } from "vitest";
import type { MetricInput } from "../../scorer/src/domain/metric.js";
import { metricDef, metricNames } from "../../scorer/src/domain/metricTable.js";

const item = (id: string, document_id: string, text = "") => ({ id, document_id, text, score: null });
const input = (
  contexts: ReturnType<typeof item>[],
  k: number,
  expect: { expected_source: string | null; expected_substring: string | null; expected_chunk_id?: string | null },
): MetricInput => ({
  question: "q",
  answer: "a",
  contexts,
  chunks: contexts.map((c) => ({ id: c.id, text: c.text })),
  expect: { expected_lines: null, reference_answer: null, key_facts: null, expected_chunk_id: null, ...expect },
  answerable: true,
  abstained: false,
  k,
});
const ndcg = (k: number, i: MetricInput) => {
  const def = metricDef(`ndcg@${k}`);
  if (def === undefined || def.kind === "judged") throw new Error("no ndcg entry");
  return def.compute(i).value;
};

describe("ndcg@k: rank-aware retrieval quality with binary gains", () => {
  // distinct ranks: a#1 (miss), b#1 (hit), b#2 (hit), c#1 (miss); the repeated a#1 takes no rank
  const items = [item("a#1", "a.md"), item("b#1", "b.md"), item("a#1", "a.md"), item("b#2", "b.md"), item("c#1", "c.md")];
  const doc = { expected_source: "b.md", expected_substring: null };
  it("is DCG over the ideal of the retrieved hits, by hand", () => {
    // k = 1: no hit in the top 1 → 0
    expect(ndcg(1, input(items, 1, doc))).toBe(0);
    // k = 2: DCG = 1/log2(3); ideal (2 hits, k = 2) = 1 + 1/log2(3)
    expect(ndcg(2, input(items, 2, doc))).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 12);
    // k = 4: DCG = 1/log2(3) + 1/log2(4) = 0.6309 + 0.5; ideal = 1 + 0.6309
    expect(ndcg(4, input(items, 4, doc))).toBeCloseTo((1 / Math.log2(3) + 0.5) / (1 + 1 / Math.log2(3)), 12);
  });
  it("is 1 when the hits lead, 0 when nothing retrieved is a hit", () => {
    expect(ndcg(5, input([item("b#1", "b.md"), item("a#1", "a.md")], 5, doc))).toBe(1);
    expect(ndcg(5, input([item("a#1", "a.md")], 5, doc))).toBe(0);
    // chunk-id mode: the one chunk at rank 3 → 1/log2(4) = 0.5
    expect(ndcg(5, input([item("x", "x.md"), item("y", "y.md"), item("z", "z.md")], 5, { expected_source: null, expected_substring: null, expected_chunk_id: "z" }))).toBe(0.5);
  });
  it("is a per-k retrieval metric after precision", () => {
    expect(metricNames([3]).slice(0, 4)).toEqual(["recall@3", "precision@3", "ndcg@3", "mrr"]);
  });
});
