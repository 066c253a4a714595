import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseGoldenSet } from "@ragmeter/golden";
import { afterEach, describe, expect, it } from "vitest";
import { claimTextSql } from "../../core/src/domain/claimSpans.js";
import { judgeGrounding, judgeRelevance } from "../../core/src/judges/types.js";
import type { Target } from "../../scorer/src/runs/target.js";
import { openStore } from "../../store/src/client.js";
import { fakeJudge } from "../helpers/fakeJudge.js";
import type { ScriptedReply, startFakeOpenAI } from "../helpers/openaiServer.js";
import { evalGolden } from "../helpers/runs.js";

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

const judgeWith = (script: Parameters<typeof startFakeOpenAI>[0]) => fakeJudge(script, closers, { model: "judge-1", maxRetries: 0 });

const chunks = [{ id: "c1", text: "Managed PostgreSQL listens on port 5432. Backups are kept for 14 days." }];

describe("LLM judges through the real openai client against a local OpenAI-compatible server", () => {
  it("parses a reply wrapped in prose with the JSON in a code fence; sends temperature 0, ragmeter's claims and a schema of one verdict per claim", async () => {
    const { server, judge } = await judgeWith(() => ({
      content:
        'Here is my assessment.\n```json\n{"verdicts": [{"verdict": "SUPPORTED", "chunk_ids": ["c1"]}, {"verdict": "CONTRADICTED", "chunk_ids": ["c1"]}]}\n```\nLet me know.',
    }));
    const g = await judgeGrounding(judge, { question: "q", answer: "Postgres listens on port 5432. Backups are kept for 30 days.", chunks });
    expect(g.status).toBe("ok");
    expect(g.value).toBe(0.5);
    expect(g.claims.map((c) => [c.text, c.verdict])).toEqual([
      ["Postgres listens on port 5432.", "SUPPORTED"],
      ["Backups are kept for 30 days.", "CONTRADICTED"],
    ]);
    expect(g.input_tokens).toBe(100);
    const body = server.requests[0]!.body;
    expect(body.temperature).toBe(0);
    expect(body.model).toBe("judge-1");
    expect(body.messages[1]?.content).toContain("CLAIMS (2):\n1. Postgres listens on port 5432.\n2. Backups are kept for 30 days.");
    // exactly 2 verdicts, chunk ids only among the passages; the reply limit sized from 2 claims citing "c1" (2 tokens): ceil((24 + 2 × (20 + 6)) × 1.2) = 92
    expect(body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: {
        name: "claim_verdicts",
        strict: true,
        schema: { properties: { verdicts: { minItems: 2, maxItems: 2, items: { properties: { chunk_ids: { items: { enum: ["c1"] } } } } } } },
      },
    });
    expect(body.max_tokens).toBe(92);
  });

  it("a reply without verdicts for 3 claims → judge_error with null, after bounded attempts", async () => {
    const { server, judge } = await judgeWith(() => ({ content: '{"claims": ["a", "b", "c"]}' }));
    const g = await judgeGrounding(judge, { question: "q", answer: "Postgres listens on port 5432. Backups are kept for 30 days. Support answers on Sundays.", chunks });
    expect(g).toMatchObject({ status: "judge_error", value: null, claims: [] });
    expect(g.reason).toMatch(/verdicts/u);
    expect(server.requests).toHaveLength(2);
  });

  it("2 verdicts for 3 claims → judge_error", async () => {
    const { judge } = await judgeWith(() => ({
      content: JSON.stringify({
        verdicts: [
          { verdict: "SUPPORTED", chunk_ids: [] },
          { verdict: "UNSUPPORTED", chunk_ids: [] },
        ],
      }),
    }));
    const g = await judgeGrounding(judge, { question: "q", answer: "Postgres listens on port 5432. Backups are kept for 30 days. Support answers on Sundays.", chunks });
    expect(g.status).toBe("judge_error");
    expect(g.reason).toBe("2 verdicts for 3 claims (after 2 attempts)");
  });

  it("relevance score 7 is an error, not a 4; a valid score is kept", async () => {
    const bad = await judgeWith(() => ({ content: '{"score": 7, "reason": "great"}' }));
    expect(await judgeRelevance(bad.judge, { question: "q", answer: "a", answerable: true })).toMatchObject({ status: "judge_error", value: null });
    const good = await judgeWith(() => ({ content: '{"score": 3, "reason": "mostly"}' }));
    expect(await judgeRelevance(good.judge, { question: "q", answer: "a", answerable: true })).toMatchObject({ status: "ok", value: 3, reason: "mostly" });
  });

  it("zero claims → no_claims; an HTTP 500 → judge_error naming the failure", async () => {
    // ragmeter's splitter finds no claim in an "I could not find" answer: no call is made
    const none = await judgeWith(() => ({ content: '{"verdicts": []}' }));
    expect(await judgeGrounding(none.judge, { question: "q", answer: "Sorry, I could not find that.", chunks })).toMatchObject({ status: "no_claims", value: null, calls: 0 });
    expect(none.server.requests).toHaveLength(0);
    const down = await judgeWith((): ScriptedReply => ({ status: 500 }));
    const g = await judgeGrounding(down.judge, { question: "q", answer: "Postgres listens on port 5432.", chunks });
    expect(g.status).toBe("judge_error");
    expect(g.reason).toMatch(/judge call failed: 500/u);
  });

  it("one broken judge reply affects only its question: the run completes with the others ok", async () => {
    const { judge } = await judgeWith((req) => {
      const user = req.body.messages[1]?.content ?? "";
      if (req.body.messages[0]?.content.startsWith("You rate")) return { content: '{"score": 4, "reason": "answers it"}' };
      if (user.includes("BROKEN")) return { content: '{"claims": ["x", "y", "z"]}' };
      return { content: '{"verdicts": [{"verdict": "SUPPORTED", "chunk_ids": ["c1"]}]}' };
    });
    const golden = await parseGoldenSet(
      [
        '{"id":"a","question":"first?","expected_source":"d","expected_substring":"port 5432"}',
        '{"id":"b","question":"BROKEN?","expected_source":"d","expected_substring":"port 5432"}',
        '{"id":"c","question":"third?","expected_source":"d","expected_substring":"port 5432"}',
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
    const o = await evalGolden(golden, target, judge, store, { concurrency: 2 });
    expect(o.results?.map((q) => [q.golden_id, q.metrics["grounding"]?.status])).toEqual([
      ["a", "ok"],
      ["b", "judge_error"],
      ["c", "ok"],
    ]);
    expect(o.aggregate.metrics["grounding"]).toBe(1);
    expect(o.aggregate.counts["grounding"]).toEqual({ ok: 2, judge_error: 1 });
    expect(o.aggregate.metrics["relevance"]).toBe(4);
    expect(o.run.status).toBe("completed");
    expect(o.run.judge_kind).toBe("llm");
    const rows = await store.client.query({
      query: "SELECT golden_id, value, status, judge_model, judge_input_tokens FROM ragmeter.scores FINAL WHERE metric = 'grounding' ORDER BY golden_id",
      format: "JSONEachRow",
    });
    expect(await rows.json()).toEqual([
      { golden_id: "a", value: 1, status: "ok", judge_model: "judge-1", judge_input_tokens: "100" },
      { golden_id: "b", value: null, status: "judge_error", judge_model: "judge-1", judge_input_tokens: "200" },
      { golden_id: "c", value: 1, status: "ok", judge_model: "judge-1", judge_input_tokens: "100" },
    ]);
  });

  it("a reply with a draft grounding block then a final one: the stored claims and score are the final block's (design §5)", async () => {
    const item = (verdict: string, chunk_ids: string[]) => ({ verdict, chunk_ids });
    const block = (verdicts: unknown[]) => `\`\`\`json\n${JSON.stringify({ verdicts })}\n\`\`\``;
    const draft = block([item("UNSUPPORTED", []), item("UNSUPPORTED", [])]);
    const final = block([item("SUPPORTED", ["c1"]), item("CONTRADICTED", ["c1"])]);
    const { judge } = await judgeWith((req) =>
      req.body.messages[0]?.content.startsWith("You rate") ? { content: '{"score": 4, "reason": "answers it"}' } : { content: `Draft:\n${draft}\nOn reflection:\n${final}` },
    );
    const golden = await parseGoldenSet('{"id":"a","question":"port and backups?","expected_source":"d","expected_substring":"port 5432"}', "inline.jsonl");
    const target: Target = {
      description: "inline",
      ask: async () => ({
        ok: true,
        latency_ms: 1,
        reply: {
          answer: "Postgres listens on port 5432. Backups are kept for 30 days.",
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
    expect(o.aggregate.metrics["grounding"]).toBe(0.5);
    const claims = await store.client.query({
      // a claim that is a slice of its answer is stored as offsets (migration 16): the text read as the store's readers read it
      query: `SELECT c.claim_index AS claim_index, ${claimTextSql("c", "i.answer")} AS claim, c.verdict AS verdict, c.chunk_ids AS chunk_ids
        FROM ragmeter.claims AS c FINAL
        LEFT JOIN (SELECT trace_id, answer FROM ragmeter.interactions FINAL) AS i ON i.trace_id = c.trace_id
        ORDER BY c.claim_index`,
      format: "JSONEachRow",
    });
    expect(await claims.json()).toEqual([
      { claim_index: 0, claim: "Postgres listens on port 5432.", verdict: "SUPPORTED", chunk_ids: ["c1"] },
      { claim_index: 1, claim: "Backups are kept for 30 days.", verdict: "CONTRADICTED", chunk_ids: ["c1"] },
    ]);
    const scores = await store.client.query({ query: "SELECT value, status FROM ragmeter.scores FINAL WHERE metric = 'grounding'", format: "JSONEachRow" });
    expect(await scores.json()).toEqual([{ value: 0.5, status: "ok" }]);
  });
});
