import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";
import { startFixtureTarget } from "../helpers/fixtureTarget.js";
import { startFakeOpenAI } from "../helpers/openaiServer.js";

// ragmeter eval with an LLM judge (the local OpenAI-compatible server, real openai client):
// price table and cost, the judge cache, --no-cache, --repeat 3 with a flipping judge, --max-cost,
// and calibrate sample → score → the next run's summary. Every figure is computed by hand below.
// The fake server reports 100 prompt and 20 completion tokens per call.
const GOLDEN = [
  { id: "a", question: "Which port does PostgreSQL listen on?", expected_source: "pg.md", expected_substring: "port 5432", reference_answer: "Port 5432." },
  { id: "b", question: "How long are backups kept?", expected_source: "bk.md", expected_substring: "14 days" },
];
const TABLE = {
  "Which port does PostgreSQL listen on?": {
    answer: "PostgreSQL listens on port 5432.",
    contexts: [{ id: "pg#1", document_id: "pg.md", text: "PostgreSQL listens on port 5432.", score: 1 }],
  },
  "How long are backups kept?": { answer: "Backups are kept for 14 days.", contexts: [{ id: "bk#1", document_id: "bk.md", text: "Backups are kept for 14 days.", score: 1 }] },
};

let dir: string;
let goldenFile: string;
let target: Awaited<ReturnType<typeof startFixtureTarget>>;
let judge: Awaited<ReturnType<typeof startFakeOpenAI>>;
let env: NodeJS.ProcessEnv;
const relevanceCalls = new Map<string, number>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-judges-"));
  goldenFile = path.join(dir, "golden.jsonl");
  await writeFile(goldenFile, GOLDEN.map((g) => JSON.stringify(g)).join("\n"));
  const prices = path.join(dir, "prices.json");
  await writeFile(prices, JSON.stringify({ "judge-1": { input_per_1m: 2, output_per_1m: 10 }, "judge-dear": { input_per_1m: 10_000, output_per_1m: 0 } }));
  target = await startFixtureTarget(TABLE);
  judge = await startFakeOpenAI((req) => {
    const system = req.body.messages[0]!.content;
    const user = req.body.messages[1]!.content;
    if (system.startsWith("You rate")) {
      // question b flips: its k-th relevance call scores 2, 3, 4, 2, … ; question a always 4
      if (!user.includes("backups")) return { content: '{"score": 4, "reason": "answers it"}' };
      const k = relevanceCalls.get("b") ?? 0;
      relevanceCalls.set("b", k + 1);
      return { content: JSON.stringify({ score: 2 + (k % 3), reason: "flips" }) };
    }
    if (system.startsWith("You compare")) return { content: '{"facts": [{"fact": "port 5432", "stated": true}]}' };
    const claim = user.includes("5432") ? "PostgreSQL listens on port 5432." : "Backups are kept for 14 days.";
    return { content: JSON.stringify({ claims: [claim], verdicts: [{ verdict: "SUPPORTED", chunk_ids: [user.includes("5432") ? "pg#1" : "bk#1"] }] }) };
  });
  env = { OPENAI_BASE_URL: judge.baseURL, OPENAI_API_KEY: "test", RAGMETER_JUDGE_MODEL: "judge-1", RAGMETER_PRICES: prices, RAGMETER_JUDGE_RETRIES: "0" };
});
afterAll(async () => {
  await target.close();
  await judge.close();
});

const evalArgs = (v: string, ...more: string[]) => ["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", v, "--k", "1", "--home", dir, ...more];

describe("judge cost, cache, repeats, max cost and calibration through ragmeter eval", () => {
  let firstRun = "";

  it("first run: 5 calls (a: grounding, relevance, reference_facts; b: grounding, relevance) and their cost", async () => {
    const json = path.join(dir, "r1.json");
    const r = await cli(evalArgs("p1", "--json", json), env);
    expect(r.code, r.err).toBe(0);
    expect(judge.requests).toHaveLength(5);
    // tokens: 5 × 100 = 500 in, 5 × 20 = 100 out; cost = 500·2/1e6 + 100·10/1e6 = 0.001 + 0.001 = $0.0020
    expect(r.out).toContain("judge: 5 calls, 0 cached, 0 not sampled · tokens in 500 / out 100 · cost $0.0020 (judge-1: $2/$10 per 1M tokens in/out)");
    expect(r.out).toMatch(/^calibration: none for this judge \(llm judge-1, prompt \S+\)/mu);
    const j = JSON.parse(await readFile(json, "utf8"));
    firstRun = j.run_id;
    expect(j.metrics.reference_facts).toBe(1);
    expect(j.counts.reference_facts).toEqual({ ok: 1, not_applicable: 1 });
    expect(j.judge_report).toMatchObject({ calls: 5, cached: 0, input_tokens: 500, output_tokens: 100, repeat: 1, cache: true });
    expect(j.judge_report.cost_usd).toBeCloseTo(0.002, 12);
    expect(r.out).toMatch(/^ref\. facts {3}1\.00 {2}\(n=1\)$/mu);
  });

  it("second run of the unchanged pipeline: zero judge calls, 5 cached, cost $0, same figures", async () => {
    const json = path.join(dir, "r2.json");
    const r = await cli(evalArgs("p1", "--json", json), env);
    expect(r.code, r.err).toBe(0);
    expect(judge.requests).toHaveLength(5);
    expect(r.out).toContain("judge: 0 calls, 5 cached, 0 not sampled · tokens in 0 / out 0 · cost $0.0000");
    const j = JSON.parse(await readFile(json, "utf8"));
    expect(j.metrics).toMatchObject({ grounding: 1, relevance: 3, reference_facts: 1 }); // relevance (4 + 2) / 2
  });

  it("--no-cache calls the judge again", async () => {
    const r = await cli(evalArgs("p1", "--no-cache"), env);
    expect(r.code, r.err).toBe(0);
    expect(judge.requests).toHaveLength(10);
    expect(r.out).toContain("judge: 5 calls, 0 cached (cache off)");
  });

  it("--repeat 3 with a judge that flips on question b: 15 calls, repeats stored, variance reported", async () => {
    relevanceCalls.set("b", 0);
    const json = path.join(dir, "r3.json");
    const r = await cli(evalArgs("p1", "--repeat", "3", "--json", json), env);
    expect(r.code, r.err).toBe(0);
    expect(judge.requests).toHaveLength(25);
    // relevance: a = 4, 4, 4 (sample variance 0); b = 2, 3, 4 (sample variance 1)
    //   mean = (12 + 9) / 6 = 3.50; pooled sd = sqrt((0 + 1) / 2) = 0.71; flipped 1 of 2 = 50.0%
    // grounding: 1, 1, 1 on both → mean 1.00, sd 0.00, flipped 0 of 2
    // reference_facts: a only → mean 1.00, sd 0.00 (sd needs 2 ok repeats: a has 3), flipped 0 of 1
    expect(r.out).toContain("judge variance over 3 repeats (sd pooled within questions; flipped = questions whose repeats disagree)");
    expect(r.out).toContain("  grounding    mean 1.00  sd 0.00  flipped 0.0% (0 of 2)");
    expect(r.out).toContain("  relevance    mean 3.5/4  sd 0.71  flipped 50.0% (1 of 2): b");
    expect(r.out).toContain("  ref. facts   mean 1.00  sd 0.00  flipped 0.0% (0 of 1)");
    expect(r.out).toContain("judge: 15 calls, 0 cached (cache off: --repeat)");
    const j = JSON.parse(await readFile(json, "utf8"));
    // the per-question value averages the repeats: a 4, b 3 → 3.5
    expect(j.metrics.relevance).toBe(3.5);
    // compare averages the repeats per question before pairing: vs the first run (a 4, b 2) the delta is (0 + 1) / 2 = +0.5
    const c = await cli(["compare", firstRun, j.run_id, "--json", "--home", dir], env);
    expect(c.code, c.err).toBe(0);
    const cmp = JSON.parse(c.out);
    expect(cmp.metrics.relevance).toMatchObject({ n: 2, mean_a: 3, mean_b: 3.5 });
    expect(cmp.metrics.relevance.delta).toBeCloseTo(0.5, 12);
  });

  it("--max-cost: once the estimated cost reaches it the rest is not_sampled", async () => {
    // judge-dear: $10,000 per 1M input tokens → one call of 100 tokens costs $1.00.
    // --concurrency 1: question a's three judges start together at $0 (3 calls, $3.00 ≥ $2.50);
    // question b's two judgments are not_sampled.
    const json = path.join(dir, "r4.json");
    const r = await cli(evalArgs("p2", "--max-cost", "2.5", "--concurrency", "1", "--json", json), { ...env, RAGMETER_JUDGE_MODEL: "judge-dear" });
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(await readFile(json, "utf8"));
    expect(j.counts.grounding).toEqual({ ok: 1, not_sampled: 1 });
    expect(j.counts.relevance).toEqual({ ok: 1, not_sampled: 1 });
    expect(j.judge_report).toMatchObject({ calls: 3, not_sampled: 2, cost_usd: 3 });
    expect(r.out).toContain("--max-cost $2.5000 reached: 2 judgments not_sampled");
    // b's grounding and relevance: two calls not made, said in the summary and --json
    expect(j.judge_report.skipped).toEqual({ not_sampled: 2 });
    expect(r.out).toContain("\n  not called (decided before judging): not_sampled 2\n");
    // the golden set has no tags: one line, not an empty table
    expect(r.out).toContain("\nby tag: none (no item has tags)\n");
    expect(r.out).not.toContain("by tag (value·n)");
    // without a price for the model, --max-cost is a configuration error (exit 2)
    const bad = await cli(evalArgs("p2", "--max-cost", "1"), { ...env, RAGMETER_JUDGE_MODEL: "judge-unpriced" });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--max-cost needs the price of judge model "judge-unpriced"');
  });

  it("calibrate sample → a person fills in labels → calibrate score; the next run shows the calibration", async () => {
    const file = path.join(dir, "review.json");
    const s = await cli(["calibrate", "sample", "--run", firstRun, "--n", "20", "--out", file, "--home", dir], env);
    expect(s.code, s.err).toBe(0);
    const review = JSON.parse(await readFile(file, "utf8"));
    expect(review.items.map((i: { golden_id: string }) => i.golden_id)).toEqual(["a", "b"]);
    expect(review.items[0]).toMatchObject({
      question: GOLDEN[0]!.question,
      answer: "PostgreSQL listens on port 5432.",
      chunks: [{ id: "pg#1", text: "PostgreSQL listens on port 5432." }],
      judge_relevance: 4,
      human_relevance: null,
    });
    expect(review.items[0].claims).toEqual([{ index: 0, claim: "PostgreSQL listens on port 5432.", judge_verdict: "SUPPORTED", judge_chunk_ids: ["pg#1"], human_verdict: null }]);
    // the person: claim a SUPPORTED (agrees), claim b UNSUPPORTED (disagrees); relevance a 4 (agrees), b 3 (judge said 2)
    // claims: agreement 1/2 = 50%; judge marginals S 2 → p_e = 1·0.5 + 0·0.5 = 0.5 → κ = (0.5 − 0.5)/(1 − 0.5) = 0
    // relevance: agreement 1/2; pairs (4,4), (2,3): observed Σw·o = (1/16)/2 = 1/32;
    //   judge X ∈ {4:.5, 2:.5}, person Y ∈ {4:.5, 3:.5}: E[(X−Y)²] = ¼(0 + 1 + 4 + 1) = 1.5 → Σw·e = 1.5/16 = 3/32
    //   κ_w = 1 − (1/32)/(3/32) = 2/3
    review.items[0].claims[0].human_verdict = "SUPPORTED";
    review.items[1].claims[0].human_verdict = "UNSUPPORTED";
    review.items[0].human_relevance = 4;
    review.items[1].human_relevance = 3;
    await writeFile(file, JSON.stringify(review));
    const sc = await cli(["calibrate", "score", file, "--home", dir], env);
    expect(sc.code, sc.err).toBe(0);
    expect(sc.out).toContain("claim verdicts  agreement 50.0%  Cohen's κ 0.00  (n=2 claims)");
    expect(sc.out).toContain("relevance 0–4   agreement 50.0%  quadratic-weighted κ 0.67  (n=2 questions)");
    expect(sc.err).toContain("warning: claim-verdict agreement 50.0% is below 85.0%");
    const next = await cli(evalArgs("p1"), env);
    expect(next.code, next.err).toBe(0);
    expect(next.out).toMatch(
      /^calibration: last for this judge \d{4}-\d{2}-\d{2} \(cal-\S+, run r-\S+\): claims 50\.0% agreement, κ 0\.00 \(n=2\); relevance 50\.0%, quadratic-weighted κ 0\.67 \(n=2\)$/mu,
    );
    // A model change: the judge in use has no calibration; the summary names the prompt (and model) last calibrated.
    const pv = review.judge.prompt_version as string;
    const changed = await cli(evalArgs("p1", "--json", path.join(dir, "changed.json")), { ...env, RAGMETER_JUDGE_MODEL: "judge-2" });
    expect(changed.code, changed.err).toBe(0);
    expect(changed.out).toContain(`calibration: not calibrated since prompt ${pv} (model judge-1): the judge in use (llm judge-2, prompt ${pv}) has none;`);
    expect(changed.out).toContain("had claims 50.0% agreement, relevance 50.0%");
    const changedJson = JSON.parse(await readFile(path.join(dir, "changed.json"), "utf8"));
    expect(changedJson.judge_report.calibration).toBeNull();
    expect(changedJson.judge_report.calibration_before_change).toMatchObject({ judge_model: "judge-1", judge_prompt_version: pv, claim_agreement: 0.5 });
  });
});
