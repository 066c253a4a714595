import { describe, expect, it } from "vitest";
import { metricDef, metricNames } from "../../core/src/domain/metricTable.js";
import { retrievalInput as input, item, mechanicalValue } from "../helpers/metricInput.js";

describe("precision@k: the share of the first k ranks that hold an expected source", () => {
  const items = [item("a#1", "a.md"), item("b#1", "b.md", "port 5432"), item("a#1", "a.md"), item("b#2", "b.md", "other"), item("c#1", "c.md")];
  it("counts hits among the first k distinct items over k (duplicates take no rank)", () => {
    // distinct ranks: a#1, b#1, b#2, c#1; document mode: b#1 and b#2 hit
    const doc = { expected_source: "b.md", expected_substring: null };
    expect(mechanicalValue("precision@1", input(items, 1, doc))).toBe(0);
    expect(mechanicalValue("precision@2", input(items, 2, doc))).toBe(1 / 2);
    expect(mechanicalValue("precision@3", input(items, 3, doc))).toBe(2 / 3);
    // fewer items than k: the missing ranks are misses (4 distinct items at k = 10)
    expect(mechanicalValue("precision@10", input(items, 10, doc))).toBe(2 / 10);
    // substring mode: only b#1 holds "5432"
    expect(mechanicalValue("precision@3", input(items, 3, { expected_source: "b.md", expected_substring: "5432" }))).toBe(1 / 3);
  });
  it("is a per-k retrieval metric of every run, after recall", () => {
    expect(metricNames([1, 5]).slice(0, 4)).toEqual(["recall@1", "recall@5", "precision@1", "precision@5"]);
    expect(metricDef("precision@5")).toMatchObject({ kind: "retrieval", live: false, needs: ["answerable", "retrieval"] });
  });
});
