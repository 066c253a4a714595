import { afterEach, describe, expect, it } from "vitest";
import { createLlmJudge } from "../../core/src/judges/llm/llmJudge.js";
import { scoreInteraction } from "../../core/src/scoring/score.js";
import { fakeJudge } from "../helpers/fakeJudge.js";

/** How the context relevance prompt begins (the scripted server tells the calls apart by it). */
const PROMPT_START = "You rate how relevant each retrieved passage";

// The LLM form of context_relevance through the real `openai` client against the scripted
// OpenAI-compatible server: one call per answer, every passage scored 0–3, the reply's schema sent.
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

const request = {
  question: "Which port does PostgreSQL listen on?",
  chunks: [
    { id: "pg#1", text: "PostgreSQL listens on port 5432." },
    { id: "ssh#1", text: "SSH listens on port 22." },
    { id: "blank", text: "   " },
  ],
};

describe("context_relevance, LLM form", () => {
  it("scores each passage over 3 and averages them; blank passages are not sent", async () => {
    const { server, judge } = await fakeJudge(
      () => ({
        content: JSON.stringify({
          passages: [
            { id: "pg#1", score: 3 },
            { id: "ssh#1", score: 1 },
          ],
        }),
      }),
      closers,
      { model: "judge-1", maxRetries: 0, extraTasks: ["context_relevance"] },
    );
    const j = await judge.judge("context_relevance", request);
    expect(j).toMatchObject({
      status: "ok",
      chunks: [
        { id: "pg#1", value: 1 },
        { id: "ssh#1", value: 1 / 3 },
      ],
      calls: 1,
    });
    expect(j.value).toBeCloseTo((1 + 1 / 3) / 2, 12);
    expect(server.requests).toHaveLength(1);
    const user = server.requests[0]!.body.messages.find((m) => m.role === "user")!.content;
    expect(user).toContain("[pg#1]\nPostgreSQL listens on port 5432.");
    expect(user).not.toContain("[blank]");
    expect(server.requests[0]!.body.response_format).toBeDefined();
    expect(judge.promptVersion["context_relevance"]).toMatch(/^[0-9a-f]+$/u);
  });

  it("a reply that leaves a passage out is a judge_error naming it, never a value", async () => {
    const { judge } = await fakeJudge(() => ({ content: JSON.stringify({ passages: [{ id: "pg#1", score: 3 }] }) }), closers, {
      model: "judge-1",
      maxRetries: 0,
      extraTasks: ["context_relevance"],
    });
    const j = await judge.judge("context_relevance", request);
    expect(j).toMatchObject({ status: "judge_error", value: null });
    expect(j.reason).toBe("the reply scored 1 passages for 2 sent (missing: ssh#1)");
  });

  it("is asked for by name (one more call per answer): without RAGMETER_JUDGE_EXTRA_TASKS the LLM judge has no such task and the metric is not_applicable, with no call", async () => {
    const { server, judge } = await fakeJudge(() => ({ content: '{"score": 4, "reason": "r"}' }), closers, { model: "judge-1", maxRetries: 0 });
    expect(judge.promptVersion["context_relevance"]).toBeUndefined();
    const r = await scoreInteraction(
      { trace_id: "t", golden_id: "g", tags: [], question: request.question, latency_ms: 0 },
      { answer: "", contexts: [{ id: "pg#1", document_id: "pg", text: "PostgreSQL listens on port 5432.", score: null }], model: null },
      null,
      { judge, ks: [1] },
    );
    expect(r.metrics["context_relevance"]).toEqual({ status: "not_applicable", value: null, reason: "the llm judge has no context_relevance task" });
    expect(server.requests.some((q) => q.body.messages[0]!.content.startsWith(PROMPT_START))).toBe(false);
  });

  it("an unknown task name is refused when the judge is built, naming the setting", () => {
    expect(() => createLlmJudge({ baseURL: "http://127.0.0.1:9/v1", model: "m", extraTasks: ["context_relevence"] })).toThrow(
      'RAGMETER_JUDGE_EXTRA_TASKS: "context_relevence" is no LLM judge task (known: context_relevance)',
    );
  });
});
