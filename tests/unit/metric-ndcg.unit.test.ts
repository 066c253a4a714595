import { describe, expect, it } from "vitest";
import { metricNames } from "../../core/src/domain/metricTable.js";
import { retrievalInput as input, item, mechanicalValue } from "../helpers/metricInput.js";

const ndcgAt = (k: number, i: ReturnType<typeof input>) => mechanicalValue(`ndcg@${k}`, i);

describe("ndcg@k: rank-aware retrieval quality with binary gains", () => {
  // distinct ranks: a#1 (miss), b#1 (hit), b#2 (hit), c#1 (miss); the repeated a#1 takes no rank
  const items = [item("a#1", "a.md"), item("b#1", "b.md"), item("a#1", "a.md"), item("b#2", "b.md"), item("c#1", "c.md")];
  const doc = { expected_source: "b.md", expected_substring: null };
  it("is DCG over the ideal of the retrieved hits, by hand", () => {
    // k = 1: no hit in the top 1 → 0
    expect(ndcgAt(1, input(items, 1, doc))).toBe(0);
    // k = 2: DCG = 1/log2(3); ideal (2 hits, k = 2) = 1 + 1/log2(3)
    expect(ndcgAt(2, input(items, 2, doc))).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 12);
    // k = 4: DCG = 1/log2(3) + 1/log2(4) = 0.6309 + 0.5; ideal = 1 + 0.6309
    expect(ndcgAt(4, input(items, 4, doc))).toBeCloseTo((1 / Math.log2(3) + 0.5) / (1 + 1 / Math.log2(3)), 12);
  });
  it("is 1 when the hits lead, 0 when nothing retrieved is a hit", () => {
    expect(ndcgAt(5, input([item("b#1", "b.md"), item("a#1", "a.md")], 5, doc))).toBe(1);
    expect(ndcgAt(5, input([item("a#1", "a.md")], 5, doc))).toBe(0);
    // chunk-id mode: the one chunk at rank 3 → 1/log2(4) = 0.5
    expect(ndcgAt(5, input([item("x", "x.md"), item("y", "y.md"), item("z", "z.md")], 5, { expected_source: null, expected_substring: null, expected_chunk_id: "z" }))).toBe(0.5);
  });
  it("is a per-k retrieval metric after precision", () => {
    expect(metricNames([3]).slice(0, 4)).toEqual(["recall@3", "precision@3", "ndcg@3", "mrr"]);
  });
});
