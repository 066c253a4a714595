import type { GoldenItem } from "@ragmeter/golden";
import { describe, expect, it } from "vitest";
import { isHit, type RetrievedItem, recallAtK } from "../../core/src/domain/metrics/recall.js";
import { documentIdWarning, matchModeReport } from "../../scorer/src/runs/matchModes.js";

const ctx = (id: string, document_id: string, text: string): RetrievedItem => ({ id, document_id, text, score: null });
const item = (id: string, o: Partial<GoldenItem>): GoldenItem => ({
  id,
  question: `question ${id}`,
  expected_source: null,
  expected_substring: null,
  expected_chunk_id: null,
  expected_lines: null,
  reference_answer: null,
  key_facts: null,
  tags: [],
  ...o,
});

describe("recall by match mode", () => {
  const items = [ctx("a.md#0", "a.md", "alpha text"), ctx("b.md#3", "b.md", "beta text"), ctx("b.md#4", "b.md", "the port is 5432")];
  it("chunk_id: only the exact chunk id is a hit, whatever its document", () => {
    expect(recallAtK(items, { expected_source: null, expected_substring: null, expected_chunk_id: "b.md#3" }, [1, 2, 3]).hitRank).toBe(2);
    expect(recallAtK(items, { expected_source: null, expected_substring: null, expected_chunk_id: "b.md#9" }, [3]).hitRank).toBeNull();
    expect(isHit(items[0]!, { expected_source: "a.md", expected_substring: null, expected_chunk_id: "a.md#1" })).toBe(false);
  });
  it("document: the first item of that document within k", () => {
    const r = recallAtK(items, { expected_source: "b.md", expected_substring: null }, [1, 2, 3]);
    expect(r.hitRank).toBe(2);
    expect(r.recall).toEqual({ 1: 0, 2: 1, 3: 1 });
  });
  it("substring: document and text, as before", () => {
    expect(recallAtK(items, { expected_source: "b.md", expected_substring: "port is  5432" }, [1, 3]).hitRank).toBe(3);
  });
  it("a duplicate chunk takes no rank in every mode", () => {
    const dup = [items[0]!, items[0]!, items[1]!];
    expect(recallAtK(dup, { expected_source: null, expected_substring: null, expected_chunk_id: "b.md#3" }, [2]).recall).toEqual({ 2: 1 });
  });
});

const result = (golden_id: string, recall: Record<number, 0 | 1> | null, contexts: RetrievedItem[] = []) => ({
  golden_id,
  contexts,
  metrics: {
    get: (m: string) => {
      const k = Number(m.slice("recall@".length));
      return recall === null ? { value: null, status: "not_applicable" } : { value: recall[k] ?? 0, status: "ok" };
    },
  },
});

describe("matchModeReport", () => {
  it("counts items per mode and averages recall over the mode's measured questions", () => {
    const golden = [
      item("c1", { expected_chunk_id: "x#1" }),
      item("c2", { expected_chunk_id: "x#2" }),
      item("d1", { expected_source: "d.md" }),
      item("s1", { expected_source: "s.md", expected_substring: "s" }),
      item("u1", {}),
    ];
    const results = [result("c1", { 1: 1, 5: 1 }), result("c2", { 1: 0, 5: 1 }), result("d1", { 1: 0, 5: 0 }), result("s1", { 1: 1, 5: 1 }), result("u1", null)];
    const r = matchModeReport(golden, results, [1, 5]);
    expect(r.chunk_id).toEqual({ items: 2, recall: { "recall@1": 0.5, "recall@5": 1 }, n: 2 });
    expect(r.document).toEqual({ items: 1, recall: { "recall@1": 0, "recall@5": 0 }, n: 1 });
    expect(r.substring.items).toBe(1);
    expect(r.lines).toEqual({ items: 0, recall: { "recall@1": null, "recall@5": null }, n: 0 });
    expect(r.unanswerable).toEqual({ items: 1, recall: { "recall@1": null, "recall@5": null }, n: 0 });
  });
});

describe("documentIdWarning", () => {
  const golden = [
    item("d1", { expected_source: "a.md" }),
    item("s1", { expected_source: "b.md", expected_substring: "x" }),
    item("s2", { expected_source: "b.md", expected_substring: "y" }),
  ];
  it("warns with the distinct expected sources and the retrieved items when no document id matches", () => {
    const results = [result("d1", { 5: 0 }, [ctx("c1", "c1", "t"), ctx("c2", "c2", "t")]), result("s1", { 5: 0 }, [ctx("c3", "c3", "t")])];
    expect(documentIdWarning(golden, results)).toMatch(/^none of 2 expected sources among 3 retrieved items; do contexts carry document_id\?/u);
  });
  it("is silent when one retrieved item carries an expected source", () => {
    const results = [result("d1", { 5: 0 }, [ctx("c1", "c1", "t")]), result("s1", { 5: 1 }, [ctx("c3", "b.md", "x")])];
    expect(documentIdWarning(golden, results)).toBeNull();
  });
});
