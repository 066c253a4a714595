import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { judgeFailureKind } from "../../core/src/judges/failureKind.js";
import { outputBounds, promptTokens } from "../../core/src/judges/llm/bounds.js";
import { judgeAgentTimeouts } from "../../core/src/judges/llm/judgeFetch.js";
import { createLlmJudge, type LlmJudgeOptions } from "../../core/src/judges/llm/llmJudge.js";
import { countTokens } from "../../core/src/judges/llm/tokens.js";
import { CLAIM_VERDICT_PROMPT, claimVerdictUserMessage, RELEVANCE_PROMPT, relevanceUserMessage } from "../../core/src/judges/prompts.js";
import { judgeGrounding, judgeReferenceFacts, judgeRelevance } from "../../core/src/judges/types.js";
import { fakeJudge } from "../helpers/fakeJudge.js";
import type { startFakeOpenAI } from "../helpers/openaiServer.js";

// The LLM judges through the real `openai` client against the local OpenAI-compatible server
// (tests/helpers/openaiServer.ts). Basic reply parsing (code fence, missing labels, 2 verdicts for
// 3 claims, score 7) is in llm-judge.integration.test.ts; these cover issue 5's failure handling.
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

const judgeWith = (script: Parameters<typeof startFakeOpenAI>[0], opts: Partial<LlmJudgeOptions> = {}) => fakeJudge(script, closers, { model: "judge-1", maxRetries: 2, ...opts });
const G1 = JSON.stringify({ verdicts: [{ verdict: "SUPPORTED", chunk_ids: ["c1"] }] });
const chunks = [{ id: "c1", text: "Managed PostgreSQL listens on port 5432." }];

describe("LLM judge calls: structured output fallback, retries, timeouts", () => {
  it("an endpoint rejecting response_format with 400 is asked again without it, and the judge stops sending it", async () => {
    const { server, judge } = await judgeWith((req) =>
      req.body.response_format
        ? { status: 400, body: JSON.stringify({ error: { message: "response_format json_schema is not supported" } }) }
        : { content: `Sure! Here it is:\n\`\`\`\n${G1}\n\`\`\`` },
    );
    const g = await judgeGrounding(judge, { question: "port?", answer: "It listens on port 5432.", chunks });
    expect(g).toMatchObject({ status: "ok", value: 1, calls: 2 });
    expect(server.requests.map((r) => r.body.response_format === undefined)).toEqual([false, true]);
    await judgeGrounding(judge, { question: "port?", answer: "It listens on port 5432.", chunks });
    expect(server.requests).toHaveLength(3);
    expect(server.requests[2]!.body.response_format).toBeUndefined();
  });

  it("a 429 with Retry-After: 1 is retried after about one second, then succeeds", async () => {
    const at: number[] = [];
    const { server, judge } = await judgeWith((_req, n) => {
      at.push(performance.now());
      return n === 1
        ? { status: 429, headers: { "retry-after": "1" }, body: JSON.stringify({ error: { message: "slow down" } }) }
        : { content: '{"score": 3, "reason": "mostly"}' };
    });
    const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    expect(r).toMatchObject({ status: "ok", value: 3, calls: 2, input_tokens: 100, output_tokens: 20 });
    expect(server.requests).toHaveLength(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(950);
  });

  it("a 429 with Retry-After as an HTTP date 2 s ahead (second precision: 1–2 s) is waited, then the second request succeeds (issue 38)", async () => {
    const at: number[] = [];
    let date = "";
    const { server, judge } = await judgeWith((_req, n) => {
      at.push(performance.now());
      // HTTP dates drop the milliseconds: the wait is 2 s minus this second's fraction, so 1–2 s
      date = new Date(Date.now() + 2_000).toUTCString();
      return n === 1
        ? { status: 429, headers: { "retry-after": date }, body: JSON.stringify({ error: { message: "slow down" } }) }
        : { content: '{"score": 2, "reason": "partly"}' };
    });
    const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    expect(r).toMatchObject({ status: "ok", value: 2, calls: 2 });
    expect(server.requests).toHaveLength(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(950);
    expect(at[1]! - at[0]!).toBeLessThan(3_000);
  });

  it("a Retry-After longer than what is left of the judgment's time budget ends the judgment at once (rate_limited, naming both), and holds back the judge's next calls", async () => {
    const { server, judge } = await judgeWith(
      (_req, n) =>
        n === 1 ? { status: 429, headers: { "retry-after": "30" }, body: JSON.stringify({ error: { message: "slow down" } }) } : { content: '{"score": 4, "reason": "ok"}' },
      { timeoutMs: 2_000, maxRetries: 3 },
    );
    const t0 = performance.now();
    const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    expect(performance.now() - t0).toBeLessThan(1_900); // not the 30 s asked, nor the 2 s budget
    expect(r.status).toBe("judge_error");
    expect(r.reason).toMatch(
      /^judge call failed: 429 slow down; the endpoint asked to wait 30\.0 s \(Retry-After\), more than the \d+ ms left of the judgment's time budget of 2000 ms \(RAGMETER_JUDGE_TIMEOUT_MS\)$/u,
    );
    expect(judgeFailureKind(r.reason ?? "")).toBe("rate_limited");
    // the next judgment of this judge sends nothing while the endpoint's 30 s run
    const next = await judgeRelevance(judge, { question: "q2", answer: "a2", answerable: true });
    expect(next.status).toBe("judge_error");
    expect(next.reason).toMatch(/^paused by the endpoint: the endpoint asked to wait 30\.0 s|^paused by the endpoint: the endpoint asked to wait 29\.\d s/u);
    expect(server.requests).toHaveLength(1);
  });

  it("a 503 with Retry-After: 1 holds back a concurrent judgment's first request too: every request after the 503 arrives ≥ 1 s after it", async () => {
    const at: number[] = [];
    const { server, judge } = await judgeWith((_req, n) => {
      at.push(performance.now());
      return n === 1 ? { status: 503, headers: { "retry-after": "1" }, body: JSON.stringify({ error: { message: "busy" } }) } : { content: '{"score": 3, "reason": "ok"}' };
    });
    const first = judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    // the second judgment starts once the 503 has come back (polling the server's log)
    while (at.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100));
    const second = judgeRelevance(judge, { question: "q2", answer: "a2", answerable: true });
    const [a, b] = await Promise.all([first, second]);
    expect([a.status, b.status]).toEqual(["ok", "ok"]);
    expect(server.requests).toHaveLength(3);
    expect(Math.min(at[1]!, at[2]!) - at[0]!).toBeGreaterThanOrEqual(950);
  });

  it("a reply slower than the judgment's time budget: judge_error naming the budget and its variable (issue 13: not retried past the budget)", async () => {
    const { server, judge } = await judgeWith(() => ({ content: '{"score": 4, "reason": "late"}', delayMs: 1_500 }), { timeoutMs: 200, maxRetries: 1 });
    const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    expect(r.status).toBe("judge_error");
    expect(r.value).toBeNull();
    expect(r.reason).toBe("timed out: the judgment used its time budget of 200 ms (RAGMETER_JUDGE_TIMEOUT_MS)");
    // one call, not retried past the budget; on a loaded box the budget can end before the server has
    // read the whole request, so the server saw at most that one
    expect(r.calls).toBe(1);
    expect(server.requests.length).toBeLessThanOrEqual(1);
  });

  it("a call answered after a delay longer than undici's headersTimeout: the judge's own agent waits as long as RAGMETER_JUDGE_TIMEOUT_MS (issue 40: Node's fetch gave up after 300 s whatever the setting)", async () => {
    // the agent's timeouts are the setting, not undici's 300 s defaults
    expect(judgeAgentTimeouts(600_000)).toEqual({ headersTimeout: 600_000, bodyTimeout: 600_000 });
    // a real server that sends its headers only after 1.5 s, as llama.cpp does when generation ends
    const { server, judge } = await judgeWith(() => ({ content: '{"score": 4, "reason": "late"}', delayMs: 1_500 }), { timeoutMs: 10_000, maxRetries: 0 });
    // the 300 s default in small: with a global agent of 500 ms headersTimeout, Node's fetch fails on that server
    const before = getGlobalDispatcher();
    setGlobalDispatcher(new Agent({ headersTimeout: 500 }));
    try {
      const plain = await fetch(`${server.baseURL}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages: [] }) }).then(
        () => "answered",
        (e: Error) => (e.cause as { code?: string } | undefined)?.code ?? e.message,
      );
      expect(plain).toBe("UND_ERR_HEADERS_TIMEOUT");
      // the judge's call does not use that agent: it waits the 1.5 s and reads the reply
      const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
      expect(r).toMatchObject({ status: "ok", value: 4, calls: 1 });
      expect(r.latency_ms).toBeGreaterThanOrEqual(1_400);
    } finally {
      setGlobalDispatcher(before);
    }
  });

  it("a call that fails without a reply (connection reset) stores the prompt tokens it sent, not 0", async () => {
    const reset = createServer((req) => req.socket.destroy());
    await new Promise<void>((r) => reset.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise<void>((r) => reset.close(() => r())));
    const judge = createLlmJudge({ baseURL: `http://127.0.0.1:${(reset.address() as AddressInfo).port}/v1`, model: "m", apiKey: "k", timeoutMs: 5_000, maxRetries: 0 });
    const r = await judgeRelevance(judge, { question: "Which port?", answer: "Port 5432.", answerable: true });
    expect(r.status).toBe("judge_error");
    expect(r.calls).toBe(1);
    // the o200k count of what was sent: system prompt + user message
    expect(r.input_tokens).toBe(countTokens(RELEVANCE_PROMPT) + countTokens(relevanceUserMessage("Which port?", "Port 5432.")));
    expect(r.input_tokens).toBeGreaterThan(50);
  });

  it("a 503 every time is retried maxRetries times by the one retry helper (3 requests for 2 retries), then judge_error", async () => {
    const { server, judge } = await judgeWith(() => ({ status: 503, body: JSON.stringify({ error: { message: "overloaded" } }) }));
    const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    expect(r.status).toBe("judge_error");
    expect(r.reason).toMatch(/^judge call failed: /u);
    expect(server.requests).toHaveLength(3);
    expect(r.calls).toBe(3);
  });

  it("a non-retriable 401 fails at once", async () => {
    const { server, judge } = await judgeWith(() => ({ status: 401 }));
    expect((await judgeRelevance(judge, { question: "q", answer: "a", answerable: true })).status).toBe("judge_error");
    expect(server.requests).toHaveLength(1);
  });
});

describe("a context over the judge window (design §5)", () => {
  const question = "Which port and retention?";
  const answer = "Postgres listens on port 5432. Backups are kept for 30 days. Support is available 24/7.";
  // ragmeter's claims of that answer: its three sentences
  const claims = ["Postgres listens on port 5432.", "Backups are kept for 30 days.", "Support is available 24/7."];
  const long = (s: string) => `${s} `.repeat(40).trim();
  const parts = [
    { id: "c1", text: long("Managed PostgreSQL listens on port 5432.") },
    { id: "c2", text: long("Backups are kept for 14 days.") },
  ];
  // window: the verdicts message with the longer chunk fits (counted with the margin, plus the
  // reply's bound for 3 claims), with both chunks it does not
  const reserve = outputBounds(2048).verdicts(claims.length, ["c1", "c2"]);
  const window = Math.max(...parts.map((c) => promptTokens(CLAIM_VERDICT_PROMPT, claimVerdictUserMessage(question, claims, [c])))) + reserve + 2;

  it("ragmeter's claims verified per part: SUPPORTED in any part wins, else CONTRADICTED in any, else UNSUPPORTED", async () => {
    expect(promptTokens(CLAIM_VERDICT_PROMPT, claimVerdictUserMessage(question, claims, parts)) + reserve).toBeGreaterThan(window);
    const { server, judge } = await judgeWith(
      (req) => {
        const system = req.body.messages[0]!.content;
        const user = req.body.messages[1]!.content;
        if (system !== CLAIM_VERDICT_PROMPT) return { status: 500 };
        // part 1 (c1): claim 1 SUPPORTED, claim 2 UNSUPPORTED, claim 3 UNSUPPORTED
        // part 2 (c2): claim 1 UNSUPPORTED, claim 2 CONTRADICTED, claim 3 UNSUPPORTED
        const v = user.includes('id="c1"') ? ["SUPPORTED", "UNSUPPORTED", "UNSUPPORTED"] : ["UNSUPPORTED", "CONTRADICTED", "UNSUPPORTED"];
        return { content: JSON.stringify({ verdicts: v.map((verdict) => ({ verdict, chunk_ids: verdict === "UNSUPPORTED" ? [] : [user.includes('id="c1"') ? "c1" : "c2"] })) }) };
      },
      { contextTokens: window },
    );
    const g = await judgeGrounding(judge, { question, answer, chunks: parts });
    expect(g.status).toBe("ok");
    expect(g.claims.map((c) => [c.text, c.verdict, c.chunk_ids])).toEqual([
      [claims[0], "SUPPORTED", ["c1"]],
      [claims[1], "CONTRADICTED", ["c2"]],
      [claims[2], "UNSUPPORTED", []],
    ]);
    expect(g.value).toBeCloseTo(1 / 3, 12); // 1 SUPPORTED of 3 claims
    expect(g.reason).toBe("context over the window: claims verified against 2 parts");
    // 2 calls, one per part, each with exactly one chunk and the same 3 claims
    expect(server.requests.map((r) => (r.body.messages[1]!.content.match(/<passage id=/gu) ?? []).length)).toEqual([1, 1]);
    expect(g.calls).toBe(2);
  });

  it("when even the claims with an empty part cannot fit → context_too_long without a call", async () => {
    const tiny = promptTokens(CLAIM_VERDICT_PROMPT, claimVerdictUserMessage(question, claims, [])) + reserve - 1;
    const { server, judge } = await judgeWith(() => ({ status: 500 }), { contextTokens: tiny });
    const g = await judgeGrounding(judge, { question, answer, chunks: parts });
    expect(g).toMatchObject({ status: "context_too_long", value: null, claims: [], calls: 0 });
    expect(g.reason).toBe(`3 claim(s) with one passage exceed the judge window of ${tiny} tokens`);
    expect(server.requests).toHaveLength(0);
    // and a window too small for the question and answer alone: no call at all
    const none = await judgeWith(() => ({ status: 500 }), { contextTokens: 10 });
    expect(await judgeGrounding(none.judge, { question, answer, chunks: parts })).toMatchObject({ status: "context_too_long" });
    expect(await judgeRelevance(none.judge, { question, answer, answerable: true })).toMatchObject({ status: "context_too_long" });
    expect(none.server.requests).toHaveLength(0);
  });
});

describe("Russian and Chinese through the LLM judge", () => {
  it("questions, chunks and answers reach the endpoint unchanged (UTF-8); claims in the answer's language are kept", async () => {
    const { server, judge } = await judgeWith((req) => {
      const user = req.body.messages[1]!.content;
      if (req.body.messages[0]!.content.startsWith("You rate")) return { content: '{"score": 4, "reason": "отвечает на вопрос"}' };
      if (user.includes("порт")) return { content: JSON.stringify({ claims: ["PostgreSQL слушает порт 5433."], verdicts: [{ verdict: "CONTRADICTED", chunk_ids: ["ru1"] }] }) };
      return {
        content:
          '```json\n{"claims": ["备份保留14天。", "每个备份收费3元。"], "verdicts": [{"verdict": "SUPPORTED", "chunk_ids": ["zh1"]}, {"verdict": "UNSUPPORTED", "chunk_ids": []}]}\n```',
      };
    });
    const ru = await judgeGrounding(judge, {
      question: "Какой порт у PostgreSQL?",
      answer: "PostgreSQL слушает порт 5433.",
      chunks: [{ id: "ru1", text: "Управляемый PostgreSQL слушает порт 5432." }],
    });
    expect(ru).toMatchObject({ status: "ok", value: 0 });
    expect(ru.claims[0]).toEqual({ index: 0, text: "PostgreSQL слушает порт 5433.", verdict: "CONTRADICTED", chunk_ids: ["ru1"] });
    expect(server.requests[0]!.body.messages[1]!.content).toContain("Управляемый PostgreSQL слушает порт 5432.");
    const zh = await judgeGrounding(judge, { question: "备份保留多久？", answer: "备份保留14天。每个备份收费3元。", chunks: [{ id: "zh1", text: "每日备份保留14天。" }] });
    expect(zh).toMatchObject({ status: "ok", value: 0.5 });
    expect(zh.claims.map((c) => c.text)).toEqual(["备份保留14天。", "每个备份收费3元。"]);
    expect(server.requests[1]!.body.messages[1]!.content).toContain("每日备份保留14天。");
    expect(await judgeRelevance(judge, { question: "Какой порт?", answer: "Порт 5432.", answerable: true })).toMatchObject({
      status: "ok",
      value: 4,
      reason: "отвечает на вопрос",
    });
  });
});

describe("reference-based judge (reference_facts)", () => {
  it("share of the reference's facts the answer states: 2 of 3 → 2/3; zero facts → no_claims; a bad reply → judge_error", async () => {
    const { judge } = await judgeWith((req) => {
      const user = req.body.messages[1]!.content;
      if (user.includes("EMPTY")) return { content: '{"facts": []}' };
      if (user.includes("BROKEN")) return { content: '{"facts": [{"fact": "x", "stated": "yes"}]}' };
      return {
        content: JSON.stringify({
          facts: [
            { fact: "port 5432", stated: true },
            { fact: "TLS required", stated: true },
            { fact: "IPv6 supported", stated: false },
          ],
        }),
      };
    });
    const r = await judgeReferenceFacts(judge, { question: "q", answer: "Port 5432 over TLS.", reference: "Port 5432, TLS required, IPv6 supported." });
    expect(r.status).toBe("ok");
    expect(r.value).toBeCloseTo(2 / 3, 12);
    expect(r.facts).toHaveLength(3);
    expect(await judgeReferenceFacts(judge, { question: "q", answer: "a", reference: "EMPTY" })).toMatchObject({ status: "no_claims", value: null });
    expect(await judgeReferenceFacts(judge, { question: "q", answer: "a", reference: "BROKEN" })).toMatchObject({ status: "judge_error", value: null });
  });
});
