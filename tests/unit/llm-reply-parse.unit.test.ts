import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { extractJson, jsonCandidates } from "../../core/src/judges/llm/parse.js";
import { readReply } from "../../core/src/judges/llm/readReply.js";
import { judgeGrounding, judgeRelevance } from "../../core/src/judges/types.js";
import { fakeJudge } from "../helpers/fakeJudge.js";
import type { startFakeOpenAI } from "../helpers/openaiServer.js";

// Issue 27: a reply holding several JSON blocks is read from the last complete block that validates
// (design §5). The inputs are written from that rule.

const fence = (v: unknown) => `\`\`\`json\n${JSON.stringify(v, null, 2)}\n\`\`\``;
const draft = { score: 1, reason: "draft" };
const final = { score: 3, reason: "final" };

describe("jsonCandidates: every complete JSON value of a reply, in order", () => {
  it("a draft block then a final block: both, in order; extractJson gives the final", () => {
    const reply = `Draft:\n${fence(draft)}\nOn reflection, my final verdict:\n${fence(final)}\n`;
    expect(jsonCandidates(reply)).toEqual([draft, final]);
    expect(extractJson(reply)).toEqual(final);
  });

  it("a draft in prose then a final in a fence, and the other way round: reply order", () => {
    expect(jsonCandidates(`First try: {"score": 1, "reason": "draft"}. Final:\n${fence(final)}`)).toEqual([draft, final]);
    expect(jsonCandidates(`${fence(draft)}\nCorrected: {"score": 3, "reason": "final"} done.`)).toEqual([draft, final]);
  });

  it("two identical blocks are one value", () => {
    expect(jsonCandidates(`${fence(final)}\nAgain:\n${fence(final)}`)).toEqual([final]);
    expect(jsonCandidates('{"score": 3, "reason": "final"} and {"reason": "final", "score": 3}')).toEqual([final]);
  });

  it("a final block cut short is not complete: the draft is the last complete one", () => {
    const fenced = `${fence(draft)}\nFinal:\n\`\`\`json\n{"score": 3, "reason": "the answer is`;
    expect(jsonCandidates(fenced)).toEqual([draft]);
    expect(extractJson(fenced)).toEqual(draft);
    const inProse = 'Draft {"score": 1, "reason": "draft"}; final {"score": 3, "reason": "fin';
    expect(jsonCandidates(inProse)).toEqual([draft]);
    // cut inside a nested object: its complete inner objects are not top level, so not candidates
    const nested = `${fence({ facts: [{ fact: "a", stated: true }] })}\n{"facts": [{"fact": "b", "stated": false}, {"fact": "c"`;
    expect(jsonCandidates(nested)).toEqual([{ facts: [{ fact: "a", stated: true }] }]);
  });

  it("prose around one block: that block (the old behaviour)", () => {
    expect(jsonCandidates('Here is my verdict: {"score": 3, "reason": "final"} Hope it helps.')).toEqual([final]);
    expect(extractJson('Sure! Here is my verdict:\n```json\n{"score": 3, "reason": "ok"}\n```\nHope it helps.')).toEqual({ score: 3, reason: "ok" });
    expect(extractJson('The answer is {"a": [1,2]} as requested')).toEqual({ a: [1, 2] });
    expect(extractJson('```\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  it("a reply that is JSON as a whole is that one value", () => {
    expect(jsonCandidates('  {"score": 3, "reason": "final"}\n')).toEqual([final]);
    expect(jsonCandidates("[1, 2]")).toEqual([[1, 2]]);
    expect(jsonCandidates("no json here")).toEqual([]);
    expect(extractJson("no json here")).toBeUndefined();
  });

  it("a fenced block plus a stray { in prose: the block alone", () => {
    expect(jsonCandidates(`Templates use { and } as in {name}. My verdict:\n${fence(final)}\nNote the stray { here.`)).toEqual([final]);
    // a stray { before a prose object does not swallow it
    expect(jsonCandidates('The set {a, b is open. {"score": 3, "reason": "final"}')).toEqual([final]);
    // a balanced span that is not JSON is passed over
    expect(jsonCandidates('Use {"key": value} form. {"score": 3, "reason": "final"}')).toEqual([final]);
  });

  it('braces and escaped quotes inside JSON strings do not end a block ("}" in a string value)', () => {
    const a = { score: 2, reason: "the } closes and { opens" };
    const b = { score: 0, reason: 'he wrote "}" then \\ and left' };
    const reply = `Verdict: ${JSON.stringify(a)} then ${JSON.stringify(b)} end }`;
    expect(reply).toContain('"he wrote \\"}\\" then \\\\ and left"');
    expect(jsonCandidates(reply)).toEqual([a, b]);
    expect(jsonCandidates('Prose {"reason": "a { never closed in a string", "score": 4} more')).toEqual([{ reason: "a { never closed in a string", score: 4 }]);
  });

  it("a fence whose content is not JSON as a whole: its top-level objects", () => {
    expect(jsonCandidates('```\nverdict: {"score": 3, "reason": "final"}\n```')).toEqual([final]);
  });
});

describe("readReply: the last candidate that validates and passes the check", () => {
  const schema = z.object({ score: z.number().int().min(0).max(4), reason: z.string() });
  it("the final block wins over the draft", () => {
    expect(readReply(`${fence(draft)}\n${fence(final)}`, schema)).toEqual({ ok: true, value: final });
  });

  it("a final block that does not validate, or fails the check, gives the draft", () => {
    expect(readReply(`${fence(draft)}\n${fence({ score: 7, reason: "x" })}`, schema)).toEqual({ ok: true, value: draft });
    expect(readReply(`${fence(draft)}\n${fence(final)}`, schema, (v) => (v.score === 3 ? "three rejected" : null))).toEqual({ ok: true, value: draft });
  });

  it("none valid: the last block's problem, saying how many blocks; one block: its problem alone", () => {
    const check = (v: { score: number }) => `score ${v.score} rejected`;
    expect(readReply(`${fence(draft)}\n${fence(final)}`, schema, check)).toEqual({ ok: false, reason: "none of 2 JSON blocks is valid; the last: score 3 rejected" });
    expect(readReply(fence(final), schema, check)).toEqual({ ok: false, reason: "score 3 rejected" });
    expect(readReply('{"score": 3}', schema)).toEqual({ ok: false, reason: 'reply field "reason": Invalid input: expected string, received undefined' });
    expect(readReply("I cannot judge this.", schema)).toEqual({ ok: false, reason: "reply is not JSON" });
  });
});

describe("the LLM judge (real openai client, scripted server) on a reply with a draft and a final block", () => {
  let closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers) await c();
    closers = [];
  });
  const judgeWith = (script: Parameters<typeof startFakeOpenAI>[0]) => fakeJudge(script, closers, { model: "judge-1", maxRetries: 0 });
  const chunks = [{ id: "c1", text: "Managed PostgreSQL listens on port 5432. Backups are kept for 14 days." }];
  const answer = "Postgres listens on port 5432. Backups are kept for 30 days.";
  const item = (claim: string, verdict: string, chunk_ids: string[]) => ({ claim, reasoning: "r", verdict, chunk_ids });
  const draftGrounding = { claims: [item("Postgres listens on port 5432.", "UNSUPPORTED", []), item("Backups are kept for 30 days.", "UNSUPPORTED", [])] };
  const finalGrounding = { claims: [item("Postgres listens on port 5432.", "SUPPORTED", ["c1"]), item("Backups are kept for 30 days.", "CONTRADICTED", ["c1"])] };

  it("grounding: the final block's claims and verdicts are the judgment (1 of 2 SUPPORTED → 0.5), in one call", async () => {
    const { server, judge } = await judgeWith(() => ({ content: `Draft:\n${fence(draftGrounding)}\nWait, the passage covers both. Final:\n${fence(finalGrounding)}` }));
    const g = await judgeGrounding(judge, { question: "Which port, and how long are backups kept?", answer, chunks });
    expect(g).toMatchObject({ status: "ok", value: 0.5 });
    expect(g.claims).toEqual([
      { index: 0, text: "Postgres listens on port 5432.", verdict: "SUPPORTED", chunk_ids: ["c1"] },
      { index: 1, text: "Backups are kept for 30 days.", verdict: "CONTRADICTED", chunk_ids: ["c1"] },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it("grounding: a final block cut short, or citing a chunk not among the passages, gives the draft (0 of 2 SUPPORTED → 0)", async () => {
    const cut = `${fence(draftGrounding)}\nFinal:\n${fence(finalGrounding).slice(0, 120)}`;
    const bad = { claims: [item("Postgres listens on port 5432.", "SUPPORTED", ["c9"]), item("Backups are kept for 30 days.", "SUPPORTED", ["c1"])] };
    for (const content of [cut, `${fence(draftGrounding)}\n${fence(bad)}`]) {
      const { judge } = await judgeWith(() => ({ content }));
      const g = await judgeGrounding(judge, { question: "q", answer, chunks });
      expect(g).toMatchObject({ status: "ok", value: 0 });
      expect(g.claims.map((c) => [c.text, c.verdict, c.chunk_ids])).toEqual([
        ["Postgres listens on port 5432.", "UNSUPPORTED", []],
        ["Backups are kept for 30 days.", "UNSUPPORTED", []],
      ]);
    }
  });

  it("grounding: no block valid → judge_error naming the last block's problem, after the parse attempts", async () => {
    const bad = { claims: [item("Postgres listens on port 5432.", "SUPPORTED", ["c9"]), item("Backups are kept for 30 days.", "SUPPORTED", ["c1"])] };
    const { server, judge } = await judgeWith(() => ({ content: `${fence({ claims: "none" })}\n${fence(bad)}` }));
    const g = await judgeGrounding(judge, { question: "q", answer, chunks });
    expect(g).toMatchObject({ status: "judge_error", value: null, claims: [] });
    expect(g.reason).toBe('none of 2 JSON blocks is valid; the last: claim 1 cites chunk "c9", not among the passages (after 2 attempts)');
    expect(server.requests).toHaveLength(2);
  });

  it("relevance: the final score, not the draft's", async () => {
    const { judge } = await judgeWith(() => ({ content: 'Draft: {"score": 1, "reason": "draft"}\nFinal: {"score": 3, "reason": "final"}' }));
    expect(await judgeRelevance(judge, { question: "q", answer: "a", answerable: true })).toMatchObject({ status: "ok", value: 3, reason: "final" });
  });
});
