import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RagTruthAnswer } from "../../bench/judges/ragtruth.js";
import { balancedSubset } from "../../bench/judges/run.js";

const answer = (id: string, hallucinated: boolean): RagTruthAnswer => ({
  id,
  source_id: "s",
  model: "m",
  quality: "good",
  question: "q",
  passages: [],
  response: "r",
  hallucinated,
  labels: [],
});

describe("bench:judges --subset N (issue 40)", () => {
  it("every hallucinated answer and as many clean ones (smallest sha256 of the id), by numeric id, the first N", () => {
    const all = [answer("30", true), answer("4", false), answer("12", false), answer("7", true), answer("100", false), answer("9", false)];
    const sha = (id: string) => createHash("sha256").update(id).digest("hex");
    // the two clean answers kept: the two smallest hashes among 4, 12, 100, 9 (computed independently)
    const clean = ["4", "12", "100", "9"].sort((a, b) => (sha(a) < sha(b) ? -1 : 1)).slice(0, 2);
    const want = ["30", "7", ...clean].sort((a, b) => Number(a) - Number(b));
    expect(balancedSubset(all, 10).map((a) => a.id)).toEqual(want);
    expect(balancedSubset(all, 3).map((a) => a.id)).toEqual(want.slice(0, 3));
  });
});
