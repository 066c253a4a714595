import { describe, expect, it } from "vitest";
import { recallAtK } from "../../core/src/domain/metrics/recall.js";

const exp = { expected_source: "docA", expected_substring: "30 days" };

describe("recall@k (design §5)", () => {
  it("counts a duplicated hit once: recall 1, not 2; a miss is 0; mean 0.5", () => {
    const hit = recallAtK(
      [
        { id: "docA#2", document_id: "docA", text: "Refunds are possible within 30 days of payment.", score: 3 },
        { id: "docA#2", document_id: "docA", text: "Refunds are possible within 30 days of payment.", score: 3 },
        { id: "docB#1", document_id: "docB", text: "Unrelated.", score: 1 },
      ],
      exp,
      [3],
    );
    const miss = recallAtK([{ id: "docC#1", document_id: "docC", text: "Nothing about it.", score: 2 }], exp, [3]);
    expect(hit.recall[3]).toBe(1);
    expect(hit.hitRank).toBe(1);
    expect(miss.recall[3]).toBe(0);
    expect(miss.hitRank).toBeNull();
    expect(((hit.recall[3] ?? 0) + (miss.recall[3] ?? 0)) / 2).toBe(0.5);
  });

  it("0 items → recall 0 and no exception; 2 items with k=5, the 2nd a hit → 1 at rank 2", () => {
    expect(recallAtK([], exp, [1, 5]).recall).toEqual({ 1: 0, 5: 0 });
    const r = recallAtK(
      [
        { id: "x#1", document_id: "docB", text: "within 30 days", score: 9 },
        { id: "a#7", document_id: "docA", text: "within\n 30   days", score: 1 },
      ],
      exp,
      [1, 5],
    );
    expect(r.recall).toEqual({ 1: 0, 5: 1 });
    expect(r.hitRank).toBe(2);
    expect(r.reciprocalRank).toBe(0.5);
  });

  it("needs both the document and the substring; the recorded rank is never re-sorted by score", () => {
    const r = recallAtK(
      [
        { id: "b#1", document_id: "docB", text: "kept for 30 days", score: 0.1 },
        { id: "a#1", document_id: "docA", text: "kept for 14 days", score: 0.9 },
        { id: "a#2", document_id: "docA", text: "kept for 30 days", score: 0.2 },
      ],
      exp,
      [2, 3],
    );
    expect(r.recall).toEqual({ 2: 0, 3: 1 });
    expect(r.hitRank).toBe(3);
  });

  it("compares NFC-normalised text (composed vs decomposed é)", () => {
    const r = recallAtK([{ id: "d#1", document_id: "docA", text: "cafe\u0301 open 30 days", score: 1 }], { expected_source: "docA", expected_substring: "café open" }, [1]);
    expect(r.recall[1]).toBe(1);
  });
});
