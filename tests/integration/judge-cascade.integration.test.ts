import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { judgeGrounding } from "../../core/src/judges/types.js";
import { cli } from "../helpers/cli.js";
import { startFixtureTarget } from "../helpers/fixtureTarget.js";
import { startFakeOpenAI } from "../helpers/openaiServer.js";

// The cascade judge (issue 40) through `ragmeter eval --json`: the real heuristic judge as tier 1, the
// LLM tier through the real `openai` client against the scripted OpenAI-compatible server
// (tests/helpers/openaiServer.ts). Question a's answer copies its chunk (tier-1 risk near 0, outside
// the band); question b's says "two weeks" where the chunk says "14 days" (tier 1: UNSUPPORTED, risk
// in the band), so it alone goes to the LLM, which says SUPPORTED.
const GOLDEN = [
  { id: "a", question: "Which port does PostgreSQL listen on?", expected_source: "pg.md" },
  { id: "b", question: "How long are backups kept?", expected_source: "bk.md" },
];
const A = { answer: "PostgreSQL listens on port 5432.", chunk: "PostgreSQL listens on port 5432." };
const B = { answer: "Backups are kept for two weeks.", chunk: "Backups are kept for 14 days." };
const TABLE = {
  [GOLDEN[0]!.question]: { answer: A.answer, contexts: [{ id: "pg#1", document_id: "pg.md", text: A.chunk, score: 1 }] },
  [GOLDEN[1]!.question]: { answer: B.answer, contexts: [{ id: "bk#1", document_id: "bk.md", text: B.chunk, score: 1 }] },
};

let dir: string;
let goldenFile: string;
let target: Awaited<ReturnType<typeof startFixtureTarget>>;
let llm: Awaited<ReturnType<typeof startFakeOpenAI>>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-cascade-"));
  goldenFile = path.join(dir, "golden.jsonl");
  await writeFile(goldenFile, GOLDEN.map((g) => JSON.stringify(g)).join("\n"));
  target = await startFixtureTarget(TABLE);
  llm = await startFakeOpenAI(() => ({ content: JSON.stringify({ verdicts: [{ verdict: "SUPPORTED", chunk_ids: ["bk#1"] }] }) }));
  env = {
    OPENAI_BASE_URL: llm.baseURL,
    OPENAI_API_KEY: "test",
    RAGMETER_JUDGE_MODEL: "judge-1",
    RAGMETER_JUDGE_RETRIES: "0",
    RAGMETER_JUDGE: "cascade",
    RAGMETER_CASCADE_BAND: "0.1,0.9",
  };
});
afterAll(async () => {
  await target.close();
  await llm.close();
});

describe("cascade judge through ragmeter eval (real openai client, scripted server)", () => {
  it("RAGMETER_CASCADE_RULE=llm: the band's answer alone goes to the LLM, whose verdict decides; --json records the tier of each judgment", async () => {
    // the premise, from the real heuristic judge: a outside the band, b inside it and UNSUPPORTED
    const h = createHeuristicJudge();
    const ra = await judgeGrounding(h, { question: GOLDEN[0]!.question, answer: A.answer, chunks: [{ id: "pg#1", text: A.chunk }] });
    const rb = await judgeGrounding(h, { question: GOLDEN[1]!.question, answer: B.answer, chunks: [{ id: "bk#1", text: B.chunk }] });
    expect(ra.risk).toBeLessThan(0.1);
    expect(rb.risk).toBeGreaterThan(0.1);
    expect(rb.risk).toBeLessThan(0.9);
    expect(rb.value).toBe(0);

    const json = path.join(dir, "r1.json");
    const r = await cli(["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", "p1", "--k", "1", "--home", dir, "--json", json], {
      ...env,
      RAGMETER_CASCADE_RULE: "llm",
    });
    expect(r.code, r.err).toBe(0);
    // one call: b's grounding; relevance stays with tier 1
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.body.messages[1]!.content).toContain("1. Backups are kept for two weeks.");
    const j = JSON.parse(await readFile(json, "utf8"));
    expect(j.judge).toMatchObject({ kind: "cascade", model: "judge-1" });
    const byId = new Map(j.questions.map((q: { golden_id: string; metrics: Record<string, { tier?: string }> }) => [q.golden_id, q.metrics]));
    const a = byId.get("a") as Record<string, { tier?: string }>;
    const b = byId.get("b") as Record<string, { tier?: string }>;
    expect(a["grounding"]).toMatchObject({ value: 1, status: "ok", tier: "heuristic", risk: ra.risk });
    // the scripted server gives no log-probabilities: b keeps tier 1's risk, with the LLM's verdict
    expect(b["grounding"]).toMatchObject({ value: 1, status: "ok", tier: "llm", risk: rb.risk, claims: [{ verdict: "SUPPORTED", chunk_ids: ["bk#1"] }] });
    expect(a["relevance"]?.tier).toBe("heuristic");
    expect(j.metrics.grounding).toBe(1);
    expect(j.judge_report).toMatchObject({ calls: 1, input_tokens: 100, output_tokens: 20 });
  });

  it("the default rule (stricter): the LLM's SUPPORTED does not clear tier 1's UNSUPPORTED; the LLM's call is counted and named in the reason", async () => {
    const before = llm.requests.length;
    const home = path.join(dir, "stricter");
    const json = path.join(dir, "r2.json");
    const r = await cli(["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", "p1", "--k", "1", "--home", home, "--json", json], env);
    expect(r.code, r.err).toBe(0);
    expect(llm.requests.length - before).toBe(1);
    const j = JSON.parse(await readFile(json, "utf8"));
    const b = new Map(j.questions.map((q: { golden_id: string; metrics: Record<string, unknown> }) => [q.golden_id, q.metrics])).get("b") as Record<string, { reason?: string }>;
    // tier 1's own verdicts on b (the real heuristic judge, as in the test above)
    const rb = await judgeGrounding(createHeuristicJudge(), { question: GOLDEN[1]!.question, answer: B.answer, chunks: [{ id: "bk#1", text: B.chunk }] });
    expect(rb.claims.map((c) => c.verdict)).not.toContain("SUPPORTED");
    expect(b["grounding"]).toMatchObject({ value: 0, status: "ok", tier: "heuristic", risk: rb.risk, claims: rb.claims.map((c) => ({ verdict: c.verdict })) });
    expect(b["grounding"]?.reason).toContain("the LLM found 100% of its claims supported; tier 1's stricter reading stands");
    expect(j.judge_report).toMatchObject({ calls: 1, input_tokens: 100, output_tokens: 20 });
  });
});
