import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claimSpans } from "../../core/src/judges/heuristic/claims.js";
import { uncoveredSentences } from "../../core/src/judges/llm/claimGrounding.js";
import type { TokenLogprob } from "../../core/src/judges/llm/transport.js";
import { judgeGrounding } from "../../core/src/judges/types.js";
import { fakeJudge } from "../helpers/fakeJudge.js";

// Issue 40: the LLM judge grounds ragmeter's own claims (the no-LLM judge's splitter), which must
// cover the answer's sentences; the model only gives one verdict per claim.
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

describe("the claims cover the answer's sentences", () => {
  it("the splitter's claims of an answer cover it; a greeting needs no claim", () => {
    const answer = "Hello! PostgreSQL listens on port 5432. Backups are kept for 30 days. Hope this helps!";
    const spans = claimSpans(answer);
    expect(spans.map((s) => s.text)).toEqual(["PostgreSQL listens on port 5432.", "Backups are kept for 30 days."]);
    expect(uncoveredSentences(answer, spans)).toEqual([]);
  });

  it("a claim list that leaves a sentence out names it (what the model's own lists did: 366 of 377 claims SUPPORTED)", () => {
    const answer = "PostgreSQL listens on port 5432. Backups are kept for 90 days. Support is open on Sundays.";
    const spans = claimSpans(answer);
    expect(spans).toHaveLength(3);
    // drop the second claim, as a model leaving out the invented sentence would
    expect(uncoveredSentences(answer, [spans[0]!, spans[2]!])).toEqual(["Backups are kept for 90 days."]);
    expect(uncoveredSentences(answer, [])).toEqual(["PostgreSQL listens on port 5432.", "Backups are kept for 90 days.", "Support is open on Sundays."]);
  });
});

describe("grounding with no passage to check against", () => {
  it("blank chunks only: every claim UNSUPPORTED, without a call", async () => {
    const { server, judge } = await fakeJudge(() => ({ status: 500 }), closers, { model: "m" });
    const g = await judgeGrounding(judge, { question: "q", answer: "PostgreSQL listens on port 5432. Backups are kept for 30 days.", chunks: [{ id: "c1", text: "  " }] });
    expect(g).toMatchObject({ status: "ok", value: 0, calls: 0 });
    expect(g.claims.map((c) => [c.text, c.verdict])).toEqual([
      ["PostgreSQL listens on port 5432.", "UNSUPPORTED"],
      ["Backups are kept for 30 days.", "UNSUPPORTED"],
    ]);
    expect(server.requests).toHaveLength(0);
  });
});

describe("the support of each claim, from a real reply's log-probabilities", () => {
  it("a reply whose tokens open a ```json fence the content leaves out (llama.cpp's server) still gives every claim its support", async () => {
    const fenced = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../fixtures/llm/fenced-verdicts-reply.json"), "utf8")) as {
      content: string;
      logprobs: TokenLogprob[];
    };
    const { server, judge } = await fakeJudge(() => ({ content: fenced.content, logprobs: fenced.logprobs }), closers, { model: "m" });
    const answer = "The park opens at 9 am. Tickets cost 12 dollars. Parking is free. Dogs are allowed on a leash.";
    const chunks = ["14418#p1", "14418#p2", "14418#p3"].map((id) => ({ id, text: `Passage ${id} about the park.` }));
    const g = await judgeGrounding(judge, { question: "What should I know about the park?", answer, chunks });
    expect(g.status).toBe("ok");
    expect(server.requests[0]?.body).toMatchObject({ logprobs: true, top_logprobs: 10 });
    // one call, one part: each claim's support is its verdict's (the values worked by hand in llm-verdict-support.unit.test.ts)
    expect(g.claims.map((c) => c.verdict)).toEqual(["SUPPORTED", "SUPPORTED", "SUPPORTED", "SUPPORTED"]);
    expect(g.claims.map((c) => Number(c.support?.toFixed(3)))).toEqual([0.911, 0.66, 0.577, 0.571]);
  });
});
