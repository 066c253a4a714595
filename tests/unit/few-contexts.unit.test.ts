// The run's warning when the target returns fewer contexts than the largest k (found as a new user:
// a service's default top 3 under the default --k 1,3,5,10, so recall@5, the CI gate's metric,
// silently equal to recall@3).
import { describe, expect, it } from "vitest";
import { fewContextsWarning } from "../../scorer/src/runs/matchModes.js";

describe("fewContextsWarning", () => {
  it("names the ks above the most contexts any answer had, and the count to ask for", () => {
    expect(fewContextsWarning([1, 3, 5, 10], [3, 2, 0, 3])).toBe(
      'the target returned at most 3 contexts per question: recall@k, precision@k and ndcg@k for k = 5, 10 see only those; have it return 10 (a target config can send "top_k": "{{k}}", the largest --k)',
    );
    expect(fewContextsWarning([1, 5], [1, 1])).toBe(
      'the target returned at most 1 context per question: recall@k, precision@k and ndcg@k for k = 5 see only those; have it return 5 (a target config can send "top_k": "{{k}}", the largest --k)',
    );
  });

  it("says nothing when one answer had the largest k's contexts, or no answer had any", () => {
    expect(fewContextsWarning([1, 3, 5, 10], [2, 10, 4])).toBeNull();
    expect(fewContextsWarning([1, 3], [3, 12])).toBeNull();
    expect(fewContextsWarning([1, 3, 5, 10], [0, 0])).toBeNull();
    expect(fewContextsWarning([5], [])).toBeNull();
  });
});
