// The run's warning when the target caps its contexts below the largest k (found as a new user: a
// service's default top 3 under the default --k 1,3,5,10, so recall@5, the CI gate's metric,
// silently equal to recall@3).
import { describe, expect, it } from "vitest";
import { fewContextsWarning } from "../../scorer/src/runs/matchModes.js";

const tail = (ks: string, k: number) =>
  `: recall@k, precision@k and ndcg@k for k = ${ks} see only those; have it return ${k} (a target config can send "top_k": "{{k}}", the largest --k)`;

describe("fewContextsWarning", () => {
  it("names the ks above a cap and the count to ask for", () => {
    // the new user's v1: 11 answers of 3 contexts, 1 of 2, 2 of 1 (top 3 by default)
    const v1 = [...Array(11).fill(3), 2, 1, 1];
    expect(fewContextsWarning([1, 3, 5, 10], v1)).toBe(`the target returned at most 3 contexts per question (exactly 3 in 11 of 14 answers, as if capped)${tail("5, 10", 10)}`);
    // an unanswered question (no contexts) is no answer; 1 of 2 answers at the most is half: a cap
    expect(fewContextsWarning([1, 5], [1, 0, 0])).toBe(`the target returned at most 1 context per question (exactly 1 in 1 of 1 answers, as if capped)${tail("5", 5)}`);
    expect(fewContextsWarning([1, 3], [2, 1])).toBe(`the target returned at most 2 contexts per question (exactly 2 in 1 of 2 answers, as if capped)${tail("3", 3)}`);
  });

  it("says nothing when an answer had the largest k's contexts, no answer had any, or the counts look like a retriever returning what matches", () => {
    expect(fewContextsWarning([1, 3, 5, 10], [2, 10, 4])).toBeNull();
    expect(fewContextsWarning([1, 3], [3, 12])).toBeNull();
    expect(fewContextsWarning([1, 3, 5, 10], [0, 0])).toBeNull();
    expect(fewContextsWarning([5], [])).toBeNull();
    // the new user's v1 asked for top_k 10: 1, 1, 2, 3×4, 4×3, 5×3, 6 — only 1 of 14 at the most
    expect(fewContextsWarning([1, 3, 5, 10], [1, 1, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6])).toBeNull();
  });
});
