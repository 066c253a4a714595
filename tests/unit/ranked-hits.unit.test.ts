import { describe, expect, it } from "vitest";
import { rankedHits, recallAtK } from "../../core/src/domain/metrics/recall.js";

const item = (id: string, document_id: string, text = "") => ({ id, document_id, text, score: null });

describe("rankedHits: the ranked relevance list the rank-aware metrics read", () => {
  it("marks each distinct item in rank order; duplicates take no rank (as recall@k)", () => {
    const items = [item("a#1", "a.md"), item("b#1", "b.md"), item("a#1", "a.md"), item("b#2", "b.md"), item("c#1", "c.md")];
    // document mode: every chunk of b.md is a hit; the repeated a#1 is dropped
    expect(rankedHits(items, { expected_source: "b.md", expected_substring: null })).toEqual([false, true, true, false]);
    // chunk-id mode: only b#2
    expect(rankedHits(items, { expected_source: null, expected_substring: null, expected_chunk_id: "b#2" })).toEqual([false, false, true, false]);
  });
  it("agrees with recallAtK's hit rank", () => {
    const items = [item("x", "x.md"), item("y", "y.md", "port 5432"), item("y2", "y.md", "other")];
    const expected = { expected_source: "y.md", expected_substring: "5432" };
    const hits = rankedHits(items, expected);
    expect(hits.indexOf(true) + 1).toBe(recallAtK(items, expected, [1]).hitRank);
  });
});
