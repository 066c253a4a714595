import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseGoldenSet } from "@ragmeter/golden";
import { afterEach, describe, expect, it } from "vitest";
import { outputBounds, TOKENIZER_MARGIN } from "../../core/src/judges/llm/bounds.js";
import type { LlmJudgeOptions } from "../../core/src/judges/llm/llmJudge.js";
import { countTokens } from "../../core/src/judges/llm/tokens.js";
import { CLAIM_VERDICT_PROMPT, RELEVANCE_PROMPT } from "../../core/src/judges/prompts.js";
import { judgeGrounding, judgeRelevance } from "../../core/src/judges/types.js";
import type { Io } from "../../scorer/src/cli/context.js";
import { evalExitCode } from "../../scorer/src/cli/evalCommand.js";
import { evalJson } from "../../scorer/src/cli/format/json.js";
import { formatSummary } from "../../scorer/src/cli/format/text.js";
import type { Target } from "../../scorer/src/runs/target.js";
import { openStore } from "../../store/src/client.js";
import { fakeJudge } from "../helpers/fakeJudge.js";
import type { startFakeOpenAI } from "../helpers/openaiServer.js";
import { retrievalOf } from "../helpers/retrieval.js";
import { evalGolden } from "../helpers/runs.js";

// Issue 13: the LLM judges against replies shaped as a real llama.cpp server gave them
// (scripts/local-model/README.md, "Reply shapes observed"), through the real `openai` client.
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

const judgeWith = (script: Parameters<typeof startFakeOpenAI>[0], opts: Partial<LlmJudgeOptions> = {}) => fakeJudge(script, closers, { model: "smollm2", maxRetries: 0, ...opts });
const chunks = [{ id: "c1", text: "Managed PostgreSQL listens on port 5432. Backups are kept for 14 days." }];
const item = (claim: string, verdict: string, chunk_ids: string[]) => ({ claim, reasoning: "The passage says so.", verdict, chunk_ids });
const llamaContextError = (nPrompt: number, nCtx: number) =>
  JSON.stringify({
    error: {
      code: 400,
      message: `request (${nPrompt} tokens) exceeds the available context size (${nCtx} tokens), try increasing it`,
      type: "exceed_context_size_error",
      n_prompt_tokens: nPrompt,
      n_ctx: nCtx,
    },
  });

describe("grounding reply: one verdict per claim of ragmeter's, verdict first (issue 40)", () => {
  it("reads {verdicts: [{verdict, chunk_ids}]}; sends that schema and a bound sized from the claims sent", async () => {
    const { server, judge } = await judgeWith(() => ({
      content: JSON.stringify({
        verdicts: [
          { verdict: "SUPPORTED", chunk_ids: ["c1"] },
          { verdict: "CONTRADICTED", chunk_ids: ["c1"] },
        ],
      }),
    }));
    const answer = "Postgres listens on port 5432. Backups are kept for 30 days.";
    const g = await judgeGrounding(judge, { question: "q", answer, chunks });
    expect(g).toMatchObject({ status: "ok", value: 0.5 });
    expect(g.claims.map((c) => [c.text, c.verdict, c.chunk_ids])).toEqual([
      ["Postgres listens on port 5432.", "SUPPORTED", ["c1"]],
      ["Backups are kept for 30 days.", "CONTRADICTED", ["c1"]],
    ]);
    const body = server.requests[0]!.body;
    const schema = (body.response_format as { json_schema: { schema: { properties: { verdicts: { items: { properties: Record<string, unknown> } } } } } }).json_schema.schema;
    expect(Object.keys(schema.properties.verdicts.items.properties)).toEqual(["verdict", "chunk_ids"]);
    expect(body.messages[0]!.content).toBe(CLAIM_VERDICT_PROMPT);
    // 2 claims sent, one passage "c1" (2 tokens) to cite: 24 frame + 2 × (20 + 1 × (2 + 4)), plus the 20% margin
    expect(body.max_tokens).toBe(Math.ceil((24 + 2 * 26) * (1 + TOKENIZER_MARGIN)));
  });

  it("the older one-object-per-claim reply is still read, its verdicts taken in order for ragmeter's claims", async () => {
    const { judge } = await judgeWith(() => ({
      content: JSON.stringify({ claims: [item("Port 5432.", "SUPPORTED", ["c1"]), item("30 days.", "UNSUPPORTED", [])] }),
    }));
    const g = await judgeGrounding(judge, { question: "q", answer: "Postgres listens on port 5432. Backups are kept for 30 days.", chunks });
    expect(g.claims.map((c) => [c.text, c.verdict])).toEqual([
      ["Postgres listens on port 5432.", "SUPPORTED"],
      ["Backups are kept for 30 days.", "UNSUPPORTED"],
    ]);
  });
});

describe("bounded output on every call (finish_reason: length)", () => {
  it("every call carries max_tokens, capped by maxOutputTokens", async () => {
    const { server, judge } = await judgeWith(() => ({ content: '{"score": 3, "reason": "ok"}' }), { maxOutputTokens: 50 });
    await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    await judgeGrounding(judge, { question: "q", answer: "A. B. C. D.", chunks });
    expect(server.requests.map((r) => r.body.max_tokens)).toEqual([50, 50, 50]);
  });

  it("a reply cut by the bound is retried once with twice the bound, then judge_error 'reply truncated at N tokens'", async () => {
    const { server, judge } = await judgeWith((req) => ({
      content: '{"score": 3, "reason": "the answer is the answer is the',
      finishReason: "length",
      usage: { prompt_tokens: 62, completion_tokens: req.body.max_tokens ?? 0 },
    }));
    const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    const first = Math.ceil(128 * (1 + TOKENIZER_MARGIN)); // 154
    expect(server.requests.map((x) => x.body.max_tokens)).toEqual([first, 2 * first]);
    expect(r).toMatchObject({ status: "judge_error", value: null, reason: `reply truncated at ${2 * first} tokens`, calls: 2, input_tokens: 124, output_tokens: 3 * first });
  });

  it("truncated then complete with the larger bound → the value; at the cap already → no retry", async () => {
    const ok = await judgeWith((_req, n) => (n === 1 ? { content: '{"score": 4, "rea', finishReason: "length" } : { content: '{"score": 4, "reason": "direct"}' }));
    expect(await judgeRelevance(ok.judge, { question: "q", answer: "a", answerable: true })).toMatchObject({ status: "ok", value: 4, calls: 2 });
    const capped = await judgeWith(() => ({ content: '{"score": 4, "rea', finishReason: "length" }), { maxOutputTokens: 40 });
    expect(await judgeRelevance(capped.judge, { question: "q", answer: "a", answerable: true })).toMatchObject({ status: "judge_error", reason: "reply truncated at 40 tokens" });
    expect(capped.server.requests).toHaveLength(1);
  });
});

describe("a 400 is read by its body", () => {
  it("llama.cpp exceed_context_size_error on relevance → context_too_long, structured output stays on", async () => {
    const { server, judge } = await judgeWith((_req, n) => (n === 1 ? { status: 400, body: llamaContextError(10681, 8192) } : { content: '{"score": 2, "reason": "partly"}' }));
    const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    expect(r.status).toBe("context_too_long");
    expect(r.value).toBeNull();
    expect(server.requests).toHaveLength(1);
    expect(await judgeRelevance(judge, { question: "q", answer: "a", answerable: true })).toMatchObject({ status: "ok", value: 2 });
    expect(server.requests[1]!.body.response_format).toBeDefined();
  });

  it("a context-size 400 on grounding shrinks the window to n_ctx and verifies the claims against parts that fit", async () => {
    const question = "Which port and retention?";
    const answer = "Postgres listens on port 5432. Backups are kept for 30 days.";
    const long = (s: string) => `${s} `.repeat(60).trim();
    const parts = [
      { id: "c1", text: long("Managed PostgreSQL listens on port 5432.") },
      { id: "c2", text: long("Backups are kept for 14 days.") },
    ];
    let nCtx = 0;
    const { server, judge } = await judgeWith((req) => {
      const system = req.body.messages[0]!.content;
      const user = req.body.messages[1]!.content;
      if (system !== CLAIM_VERDICT_PROMPT) return { status: 500 };
      const c1 = user.includes('id="c1"');
      const c2 = user.includes('id="c2"');
      if (c1 && c2) {
        // the server counts the prompt as o200k does and its context is one token short of it
        const n = countTokens(system) + countTokens(user);
        nCtx = n - 1;
        return { status: 400, body: llamaContextError(n, nCtx) };
      }
      const v = c1
        ? [
            ["SUPPORTED", ["c1"]],
            ["UNSUPPORTED", []],
          ]
        : [
            ["UNSUPPORTED", []],
            ["CONTRADICTED", ["c2"]],
          ];
      return { content: JSON.stringify({ verdicts: v.map(([verdict, chunk_ids]) => ({ verdict, chunk_ids })) }) };
    });
    const g = await judgeGrounding(judge, { question, answer, chunks: parts });
    expect(g.status).toBe("ok");
    expect(g.claims.map((c) => [c.verdict, c.chunk_ids])).toEqual([
      ["SUPPORTED", ["c1"]],
      ["CONTRADICTED", ["c2"]],
    ]);
    expect(g.value).toBe(0.5);
    // both chunks (400), then one call per chunk; structured output never switched off
    expect(server.requests.map((r) => (r.body.messages[1]!.content.match(/<passage id=/gu) ?? []).length)).toEqual([2, 1, 1]);
    expect(server.requests.every((r) => r.body.response_format !== undefined)).toBe(true);
    // each part's message, counted with the margin plus its reply's bound, fits the n_ctx the server said
    const bound = outputBounds(2048).verdicts(2, ["c1", "c2"]);
    for (const r of server.requests.slice(1)) {
      expect(Math.ceil((countTokens(CLAIM_VERDICT_PROMPT) + countTokens(r.body.messages[1]!.content)) * (1 + TOKENIZER_MARGIN)) + bound).toBeLessThanOrEqual(nCtx);
      expect(r.body.max_tokens).toBe(bound);
    }
  });

  it("OpenAI context_length_exceeded and vLLM's max-model-len message are context errors too", async () => {
    const openai = JSON.stringify({
      error: {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    });
    const vllm = JSON.stringify({
      error: {
        message: "This model's maximum context length is 2048 tokens. However, you requested 3000 tokens (2900 in the messages, 100 in the completion).",
        type: "BadRequestError",
        param: null,
        code: 400,
      },
    });
    for (const body of [openai, vllm]) {
      const { server, judge } = await judgeWith(() => ({ status: 400, body }));
      expect(await judgeRelevance(judge, { question: "q", answer: "a", answerable: true })).toMatchObject({ status: "context_too_long", value: null });
      expect(server.requests).toHaveLength(1);
    }
  });

  it("a 400 about something else (not response_format) is judge_error and does not switch structured output off", async () => {
    const { server, judge } = await judgeWith((_req, n) =>
      n === 1
        ? { status: 400, body: JSON.stringify({ error: { message: "temperature must be between 0 and 2", type: "invalid_request_error", param: "temperature" } }) }
        : { content: '{"score": 1, "reason": "declines"}' },
    );
    const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    expect(r.status).toBe("judge_error");
    expect(r.reason).toMatch(/^judge call failed: 400 temperature/u);
    expect(server.requests).toHaveLength(1);
    await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    expect(server.requests[1]!.body.response_format).toBeDefined();
  });

  it("a 400 naming max_tokens switches that endpoint to max_completion_tokens", async () => {
    const { server, judge } = await judgeWith((req) =>
      req.body.max_tokens !== undefined
        ? {
            status: 400,
            body: JSON.stringify({
              error: {
                message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
                type: "invalid_request_error",
                param: "max_tokens",
                code: "unsupported_parameter",
              },
            }),
          }
        : { content: '{"score": 4, "reason": "direct"}' },
    );
    expect(await judgeRelevance(judge, { question: "q", answer: "a", answerable: true })).toMatchObject({ status: "ok", value: 4 });
    expect(server.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens])).toEqual([
      [154, undefined],
      [undefined, 154],
    ]);
  });
});

describe("verdicts citing passages that were not given are rejected", () => {
  it('a verdict citing chunk "..." (what SmolLM2 answered) → retried once, then judge_error with that reason', async () => {
    const { server, judge } = await judgeWith(() => ({ content: JSON.stringify({ verdicts: [{ verdict: "SUPPORTED", chunk_ids: ["..."] }] }) }));
    const g = await judgeGrounding(judge, { question: "q", answer: "It listens on port 5432.", chunks });
    expect(g).toMatchObject({ status: "judge_error", value: null, claims: [], reason: 'claim 1 cites chunk "...", not among the passages (after 2 attempts)' });
    expect(server.requests).toHaveLength(2);
  });

  it("a verdict citing a chunk id that is not among the passages → judge_error; a good second reply is kept", async () => {
    const bad = await judgeWith(() => ({ content: JSON.stringify({ verdicts: [{ verdict: "SUPPORTED", chunk_ids: ["c9"] }] }) }));
    expect(await judgeGrounding(bad.judge, { question: "q", answer: "It listens on port 5432.", chunks })).toMatchObject({
      status: "judge_error",
      reason: 'claim 1 cites chunk "c9", not among the passages (after 2 attempts)',
    });
    const second = await judgeWith((_r, n) => ({ content: JSON.stringify({ verdicts: [{ verdict: "SUPPORTED", chunk_ids: [n === 1 ? "c9" : "c1"] }] }) }));
    expect(await judgeGrounding(second.judge, { question: "q", answer: "It listens on port 5432.", chunks })).toMatchObject({ status: "ok", value: 1, calls: 2 });
  });
});

describe("time per judgment", () => {
  it("the whole judgment is bounded by timeoutMs (retries included); the reason names RAGMETER_JUDGE_TIMEOUT_MS; the tokens sent are stored", async () => {
    const { server, judge } = await judgeWith(() => ({ content: '{"score": 4, "reason": "late"}', delayMs: 3_000 }), { timeoutMs: 300, maxRetries: 3 });
    const r = await judgeRelevance(judge, { question: "q", answer: "a", answerable: true });
    expect(r.status).toBe("judge_error");
    expect(r.reason).toBe("timed out: the judgment used its time budget of 300 ms (RAGMETER_JUDGE_TIMEOUT_MS)");
    const sent = countTokens(RELEVANCE_PROMPT) + countTokens("QUESTION:\nq\n\nANSWER:\na");
    expect(r.calls).toBe(server.requests.length);
    expect(r.input_tokens).toBe(sent * server.requests.length);
    expect(r.output_tokens).toBe(0);
  });

  it("latency_ms is the call's own time, not time queued behind the concurrency limit", async () => {
    const { judge } = await judgeWith(() => ({ content: '{"score": 3, "reason": "ok"}', delayMs: 150 }), { concurrency: 1 });
    const t0 = performance.now();
    const rs = await Promise.all([1, 2, 3].map(() => judgeRelevance(judge, { question: "q", answer: "a", answerable: true })));
    const wall = performance.now() - t0;
    // one slot: the three calls run one after another, so their own times add up to at most the wall
    // time; had queueing been counted, the sum would be about twice the wall time
    expect(rs.reduce((s, r) => s + r.latency_ms, 0)).toBeLessThanOrEqual(wall);
  });
});

describe("judge errors surface in the summary, --json and the exit code", () => {
  it("recall measured but every judge call truncated: stored completed, reasons counted, --max-error-rate decides (not exit 2)", async () => {
    const { judge } = await judgeWith(() => ({ content: '{"verdicts": [{"verdict": "SUPP', finishReason: "length" }), { maxOutputTokens: 64 });
    const golden = await parseGoldenSet(
      [
        '{"id":"a","question":"first?","expected_source":"d","expected_substring":"port 5432"}',
        '{"id":"b","question":"second?","expected_source":"d","expected_substring":"port 5432"}',
      ].join("\n"),
      "inline.jsonl",
    );
    const target: Target = {
      description: "inline",
      ask: async (question) => ({
        ok: true,
        latency_ms: 1,
        reply: {
          answer: `The answer to ${question.replace("?", "")} is port 5432.`,
          contexts: [{ id: "c1", document_id: "d", text: chunks[0]!.text, score: 1 }],
          model: "gen-1",
          pipeline_version: null,
        },
      }),
    };
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-judge-"));
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    closers.push(() => store.close());
    const o = await evalGolden(golden, target, judge, store, { concurrency: 1 });
    expect(o.results?.map((q) => [q.golden_id, retrievalOf(q).recall_status, q.metrics["grounding"]?.status, q.metrics["relevance"]?.status])).toEqual([
      ["a", "ok", "judge_error", "judge_error"],
      ["b", "ok", "judge_error", "judge_error"],
    ]);
    expect(o.run.status).toBe("completed");
    const errs: string[] = [];
    const io = { out: () => {}, err: (t: string) => errs.push(t) } as unknown as Io;
    expect(evalExitCode(io, o, undefined)).toBe(0);
    expect(evalExitCode(io, o, 0.5)).toBe(1);
    expect(errs.join("\n")).toMatch(/error rate 1\.000 .* > --max-error-rate 0\.5/u);
    const text = formatSummary(o, "here");
    expect(text).toContain("judge_error by reason");
    expect(text).toContain("       2  grounding: reply truncated at 64 tokens");
    expect(text).toContain("       2  relevance: reply truncated at 64 tokens");
    const json = evalJson(o);
    const reasonOf = (q: Record<string, unknown>, m: string) => (q["metrics"] as Record<string, { reason?: string }>)[m]?.reason;
    expect(json.questions.map((q) => [reasonOf(q, "grounding"), reasonOf(q, "relevance")])).toEqual([
      ["reply truncated at 64 tokens", "reply truncated at 64 tokens"],
      ["reply truncated at 64 tokens", "reply truncated at 64 tokens"],
    ]);
  });
});
