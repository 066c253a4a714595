// Issue 40: the product's LLM judges end to end against a real model server — llama.cpp's server
// from PyPI's xllamacpp with Qwen2.5-Coder-0.5B-Instruct Q4_K_M (scripts/local-model), installed into
// the user cache here when missing (about 1 minute, 0.5 GB) — through the real `openai` client, with
// replies constrained by the server's json_schema support. Never skipped: a missing prerequisite
// (Python 3.10+ with pip) fails the test. A handful of calls with short replies; the install and run
// seconds are printed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outputBounds } from "../../core/src/judges/llm/bounds.js";
import { createLlmJudge } from "../../core/src/judges/llm/llmJudge.js";
import type { Judge } from "../../core/src/judges/types.js";
import { judgeGrounding, judgeRelevance } from "../../core/src/judges/types.js";
import { installLocalModel, type LocalModelServer, startLocalModel, stopLocalModel } from "../../scripts/local-model/local-model.mjs";

const VERDICTS = ["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"];
const env = { ...process.env, RAGMETER_LOCAL_MODEL_THREADS: process.env["RAGMETER_LOCAL_MODEL_THREADS"] ?? "2" };
const chunks = [
  { id: "pg#1", text: "PostgreSQL listens on TCP port 5432 by default. The port can be changed with the port setting in postgresql.conf." },
  { id: "bk#1", text: "Nightly backups are kept for 30 days and then deleted." },
];
let server: LocalModelServer;
let judge: Judge;
const t0 = performance.now();

beforeAll(async () => {
  const install = await installLocalModel({ env, model: "0.5b", log: (m) => console.log(`[local-model] ${m}`) });
  console.log(`[local-model] install: ${install.seconds.toFixed(1)} s (0 when cached)`);
  server = await startLocalModel({ env, model: "0.5b", log: (m) => console.log(`[local-model] ${m}`) });
  // the settings `npm run local-model:start` prints, as the CLI would read them
  judge = createLlmJudge({ baseURL: server.baseURL, apiKey: "local", model: server.model, timeoutMs: 600_000, concurrency: 1, contextTokens: server.ctx });
}, 900_000);

afterAll(async () => {
  if (server?.status === "started") await stopLocalModel({ env, model: "0.5b", log: () => {} });
  console.log(`[local-model] judges-local-model: ${((performance.now() - t0) / 1000).toFixed(1)} s in all`);
});

// A call takes 10-50 s on this 2-core box (prompt processing on the CPU), and more when anything
// else runs beside the model: 60 s (the default) timed out at load ~9, so each test has 5 minutes.
describe("the LLM judges against the real local model (Qwen2.5-Coder-0.5B behind xllamacpp)", { timeout: 300_000 }, () => {
  it("grounding: ragmeter's one claim (the pleasantry is no claim), one call, a verdict read from a schema-constrained reply", async () => {
    const t = performance.now();
    const g = await judgeGrounding(judge, { question: "Which port does PostgreSQL listen on?", answer: "PostgreSQL listens on port 5432 by default. Hope this helps!", chunks });
    console.log(`[local-model] grounding, 1 claim: ${((performance.now() - t) / 1000).toFixed(1)} s, ${JSON.stringify(g)}`);
    expect(g.status).toBe("ok");
    expect(g.claims.map((c) => c.text)).toEqual(["PostgreSQL listens on port 5432 by default."]);
    expect(VERDICTS).toContain(g.claims[0]?.verdict);
    // cited ids are among the passages (the schema's enum): none for UNSUPPORTED
    for (const id of g.claims[0]?.chunk_ids ?? []) expect(["pg#1", "bk#1"]).toContain(id);
    expect(g.value).toBe(g.claims[0]?.verdict === "SUPPORTED" ? 1 : 0);
    // llama.cpp's server gives log-probabilities: the verdict's support probability is there
    expect(g.claims[0]?.support).toBeGreaterThanOrEqual(0);
    expect(g.claims[0]?.support).toBeLessThanOrEqual(1);
    expect(g.calls).toBe(1);
    expect(g.input_tokens).toBeGreaterThan(100);
    // the reply limit sized from the one claim sent, citing at most 2 of "pg#1", "bk#1" (3 tokens each): ceil((24 + 20 + 2 × 7) × 1.2) = 70 tokens
    expect(outputBounds(2048).verdicts(1, ["pg#1", "bk#1"])).toBe(70);
    expect(g.output_tokens).toBeGreaterThan(0);
    expect(g.output_tokens).toBeLessThanOrEqual(70);
  });

  it("grounding: two claims, one verdict each in one call; share supported = the verdicts'", async () => {
    const t = performance.now();
    const g = await judgeGrounding(judge, {
      question: "How is PostgreSQL set up?",
      answer: "PostgreSQL listens on port 5432 by default. Nightly backups are kept for 90 days.",
      chunks,
    });
    console.log(`[local-model] grounding, 2 claims: ${((performance.now() - t) / 1000).toFixed(1)} s, ${JSON.stringify(g)}`);
    expect(g.status).toBe("ok");
    expect(g.claims.map((c) => c.text)).toEqual(["PostgreSQL listens on port 5432 by default.", "Nightly backups are kept for 90 days."]);
    for (const c of g.claims) {
      expect(VERDICTS).toContain(c.verdict);
      expect(c.support).toBeGreaterThanOrEqual(0);
      expect(c.support).toBeLessThanOrEqual(1);
    }
    expect(g.value).toBe(g.claims.filter((c) => c.verdict === "SUPPORTED").length / 2);
    expect(g.calls).toBe(1);
    expect(g.output_tokens).toBeLessThanOrEqual(outputBounds(2048).verdicts(2, ["pg#1", "bk#1"]));
  });

  it("relevance: an integer 0–4 read from a schema-constrained reply", async () => {
    const t = performance.now();
    const r = await judgeRelevance(judge, { question: "Which port does PostgreSQL listen on?", answer: "PostgreSQL listens on port 5432 by default.", answerable: true });
    console.log(`[local-model] relevance: ${((performance.now() - t) / 1000).toFixed(1)} s, ${JSON.stringify(r)}`);
    expect(r.status).toBe("ok");
    expect([0, 1, 2, 3, 4]).toContain(r.value);
    expect(r.calls).toBe(1);
  });
});
