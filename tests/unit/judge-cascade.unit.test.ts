import { describe, expect, it } from "vitest";
import { createJudge } from "../../core/src/judges/backends.js";
import { bandRisk, type CascadeOptions, createCascadeJudge } from "../../core/src/judges/cascade/cascadeJudge.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { type GroundingJudgment, type Judge, type JudgeRequest, type Judgment, judgeGrounding, judgeOf, judgeRelevance } from "../../core/src/judges/types.js";
import { loadConfig } from "../../scorer/src/cli/config.js";

// The cascade judge (issue 40 deliverable 4) over scripted tiers: tier 1 gives each answer the risk
// its text names ("risk 0.25"), the LLM double records what it was asked and answers as scripted.

const cost = { input_tokens: 0, output_tokens: 0, latency_ms: 2 };

/** A tier-1 double: grounding ok with the risk written in the answer ("risk 0.25"), no_claims for "none". */
function tier1(): Judge {
  return judgeOf(
    { kind: "heuristic", model: "heuristic", metered: false },
    {
      grounding: {
        version: "h-1",
        run: async (r: JudgeRequest): Promise<GroundingJudgment> => {
          if (r.answer === "none") return { status: "no_claims", value: null, claims: [], reason: "no claim", ...cost };
          const risk = Number(/risk ([\d.]+)/u.exec(r.answer ?? "")?.[1]);
          if (r.answer?.includes("doubt")) {
            return { status: "ok", value: 0, risk, claims: [{ index: 0, text: r.answer, verdict: "UNSUPPORTED", chunk_ids: [], support: 1 - risk }], ...cost };
          }
          return { status: "ok", value: 1, risk, claims: [{ index: 0, text: r.answer ?? "", verdict: "SUPPORTED", chunk_ids: ["c1"], support: 1 - risk }], ...cost };
        },
      },
      relevance: { version: "h-1", run: async () => ({ status: "ok", value: 3, ...cost }) },
    },
  );
}

/** An LLM double answering every grounding request with `reply` (and relevance 4); `asked` lists the answers it got. */
function llm(reply: Judgment): { judge: Judge; asked: string[] } {
  const asked: string[] = [];
  const judge = judgeOf(
    { kind: "llm", model: "judge-7b", metered: true },
    {
      grounding: {
        version: "l-1",
        run: async (r) => {
          asked.push(r.answer ?? "");
          return reply;
        },
      },
      relevance: { version: "l-1", run: async () => ({ status: "ok", value: 4, input_tokens: 50, output_tokens: 5, latency_ms: 100, calls: 1 }) },
    },
  );
  return { judge, asked };
}

const doubted: Judgment = {
  status: "ok",
  value: 0.5,
  claims: [
    { index: 0, text: "a", verdict: "SUPPORTED", chunk_ids: ["c1"], support: 0.9 },
    { index: 1, text: "b", verdict: "UNSUPPORTED", chunk_ids: [], support: 0.25 },
  ],
  input_tokens: 300,
  output_tokens: 12,
  latency_ms: 1000,
  calls: 1,
};
const options = (o: Partial<CascadeOptions> = {}): CascadeOptions => ({ band: { low: 0.2, high: 0.4 }, maxShare: null, maxAnswers: null, llmTasks: [], rule: "stricter", ...o });
const ask = (j: Judge, answer: string) => judgeGrounding(j, { question: "q", answer, chunks: [{ id: "c1", text: "x" }] });

describe("cascade judge (issue 40): tier 1 on every answer, the LLM on the uncertain band within a budget", () => {
  it("keeps tier 1's judgment outside the band (bounds included in it) and no_claims, without asking the LLM", async () => {
    const l = llm(doubted);
    const c = createCascadeJudge(tier1(), l.judge, options());
    expect(await ask(c, "risk 0.1")).toMatchObject({ status: "ok", value: 1, risk: 0.1, tier: "heuristic" });
    expect(await ask(c, "risk 0.41")).toMatchObject({ risk: 0.41, tier: "heuristic" });
    expect(await ask(c, "none")).toMatchObject({ status: "no_claims", tier: "heuristic" });
    expect(l.asked).toEqual([]);
    await ask(c, "risk 0.2");
    await ask(c, "risk 0.4");
    expect(l.asked).toEqual(["risk 0.2", "risk 0.4"]);
  });

  it("in the band, the LLM's judgment when it is the stricter (or as strict): its verdicts and value, its cost, the risk the mean of tier 1's and its placement", async () => {
    const l = llm(doubted);
    const c = createCascadeJudge(tier1(), l.judge, options());
    const g = await ask(c, "risk 0.3");
    // the LLM's placement: low + (high − low) × (1 − lowest support) = 0.2 + 0.2 × 0.75 = 0.35; mean with tier 1's 0.3
    expect(g.risk).toBeCloseTo(0.325, 12);
    expect(g).toMatchObject({ status: "ok", value: 0.5, tier: "llm", input_tokens: 300, output_tokens: 12, calls: 1, latency_ms: 1002 });
    expect(g.claims.map((x) => x.verdict)).toEqual(["SUPPORTED", "UNSUPPORTED"]);
    expect(l.asked).toEqual(["risk 0.3"]);
    const tie = await ask(
      createCascadeJudge(tier1(), llm({ ...doubted, value: 1, claims: [{ index: 0, text: "a", verdict: "SUPPORTED", chunk_ids: ["c1"], support: 0.9 }] }).judge, options()),
      "risk 0.3",
    );
    // a tie (both 1): the LLM's; risk (0.3 + 0.2 + 0.2 × 0.1) / 2
    expect(tie).toMatchObject({ value: 1, tier: "llm" });
    expect(tie.risk).toBeCloseTo(0.26, 12);
  });

  it("rule llm: in the band the LLM's judgment replaces tier 1's, its risk placed by its lowest support; the version says the rule", async () => {
    const supported: Judgment = { ...doubted, value: 1, claims: [{ index: 0, text: "a", verdict: "SUPPORTED", chunk_ids: ["c1"], support: 0.9 }] };
    const c = createCascadeJudge(tier1(), llm(supported).judge, options({ rule: "llm" }));
    const g = await ask(c, "risk 0.3 doubt");
    // 0.2 + 0.2 × (1 − 0.9)
    expect(g).toMatchObject({ status: "ok", value: 1, tier: "llm", input_tokens: 300 });
    expect(g.risk).toBeCloseTo(0.22, 12);
    expect(c.promptVersion["grounding"]).not.toBe(createCascadeJudge(tier1(), llm(supported).judge, options()).promptVersion["grounding"]);
  });

  it("in the band, tier 1's judgment when it is the stricter, with the LLM's reading as its reason and the LLM's cost", async () => {
    const l = llm(doubted);
    const g = await ask(createCascadeJudge(tier1(), l.judge, options()), "risk 0.3 doubt");
    expect(g).toMatchObject({ status: "ok", value: 0, tier: "heuristic", input_tokens: 300, output_tokens: 12, calls: 1, latency_ms: 1002 });
    expect(g.claims.map((x) => x.verdict)).toEqual(["UNSUPPORTED"]);
    expect(g.reason).toBe("the LLM found 50% of its claims supported; tier 1's stricter reading stands");
    expect(g.risk).toBeCloseTo(0.325, 12);
    expect(l.asked).toEqual(["risk 0.3 doubt"]);
  });

  it("keeps tier 1's risk when a claim of the LLM has no support probability", () => {
    const noLogprobs: Judgment = { ...doubted, claims: [{ index: 0, text: "a", verdict: "SUPPORTED", chunk_ids: [] }] };
    expect(bandRisk({ low: 0.2, high: 0.4 }, noLogprobs, 0.33)).toBe(0.33);
    expect(bandRisk({ low: 0.2, high: 0.4 }, { ...doubted, claims: [{ index: 0, text: "a", verdict: "SUPPORTED", chunk_ids: [], support: 1 }] }, 0.33)).toBe(0.2);
  });

  it("a share budget of 0.5: an answer in the band goes while those sent are fewer than half of those seen", async () => {
    const l = llm(doubted);
    const c = createCascadeJudge(tier1(), l.judge, options({ maxShare: 0.5 }));
    const tiers: (string | undefined)[] = [];
    // seen 1: 0 < 0.5 sent; seen 2: 1 < 1 no; seen 3: 1 < 1.5 sent; seen 4: 2 < 2 no; seen 5 (outside); seen 6: 2 < 3 sent
    for (const r of ["0.3", "0.31", "0.32", "0.33", "0.9", "0.34"]) tiers.push((await ask(c, `risk ${r}`)).tier);
    expect(tiers).toEqual(["llm", "heuristic", "llm", "heuristic", "heuristic", "llm"]);
    expect(l.asked).toEqual(["risk 0.3", "risk 0.32", "risk 0.34"]);
    // seen 7: 3 < 3.5 sent; seen 8: 4 < 4 no
    expect((await ask(c, "risk 0.35")).tier).toBe("llm");
    const kept = await ask(c, "risk 0.36");
    expect(kept).toMatchObject({ tier: "heuristic", risk: 0.36 });
    expect(kept.reason).toBe("risk 0.360 in the band, not sent: RAGMETER_CASCADE_MAX_SHARE 0.5 reached (4 of 8 answers sent)");
  });

  it("an answer budget of 2: the third answer in the band stays with tier 1", async () => {
    const l = llm(doubted);
    const c = createCascadeJudge(tier1(), l.judge, options({ maxAnswers: 2 }));
    const got = await Promise.all(["0.3", "0.3", "0.3"].map((r) => ask(c, `risk ${r}`)));
    expect(got.map((g) => g.tier)).toEqual(["llm", "llm", "heuristic"]);
    expect(got[2]?.reason).toContain("RAGMETER_CASCADE_MAX_ANSWERS 2 reached");
    expect(l.asked).toHaveLength(2);
  });

  it("an LLM failure leaves tier 1's judgment, with the LLM's reason and what its calls cost", async () => {
    const failed: Judgment = { status: "judge_error", value: null, reason: "reply truncated at 64 tokens", input_tokens: 200, output_tokens: 64, latency_ms: 500, calls: 2 };
    const c = createCascadeJudge(tier1(), llm(failed).judge, options());
    const g = await ask(c, "risk 0.25");
    expect(g).toMatchObject({ status: "ok", value: 1, risk: 0.25, tier: "heuristic", input_tokens: 200, output_tokens: 64, calls: 2, latency_ms: 502 });
    expect(g.reason).toBe("the LLM tier gave judge_error (reply truncated at 64 tokens); tier 1 decided");
  });

  it("relevance is tier 1's unless RAGMETER_CASCADE_LLM_TASKS names it; both carry their tier", async () => {
    const r = { question: "q", answer: "a", answerable: true };
    expect(await judgeRelevance(createCascadeJudge(tier1(), llm(doubted).judge, options()), r)).toMatchObject({ value: 3, tier: "heuristic", input_tokens: 0 });
    expect(await judgeRelevance(createCascadeJudge(tier1(), llm(doubted).judge, options({ llmTasks: ["relevance"] })), r)).toMatchObject({
      value: 4,
      tier: "llm",
      input_tokens: 50,
    });
  });

  it("is kind cascade, metered, named by the LLM's model; its grounding version changes with the band and the budget", () => {
    const a = createCascadeJudge(tier1(), llm(doubted).judge, options());
    expect([a.kind, a.model, a.metered]).toEqual(["cascade", "judge-7b", true]);
    expect(Object.keys(a.promptVersion).sort()).toEqual(["grounding", "relevance"]);
    const b = createCascadeJudge(tier1(), llm(doubted).judge, options({ band: { low: 0.2, high: 0.5 } }));
    const c = createCascadeJudge(tier1(), llm(doubted).judge, options({ maxShare: 0.3 }));
    expect(new Set([a, b, c].map((j) => j.promptVersion["grounding"])).size).toBe(3);
    expect(b.promptVersion["relevance"]).toBe(a.promptVersion["relevance"]);
  });

  it("refuses a band outside [0, 1] or upside down, and a task the LLM judge does not have", () => {
    expect(() => createCascadeJudge(tier1(), llm(doubted).judge, options({ band: { low: 0.5, high: 0.2 } }))).toThrow(/RAGMETER_CASCADE_BAND: 0.5,0.2/u);
    expect(() => createCascadeJudge(tier1(), llm(doubted).judge, options({ llmTasks: ["reference_facts"] }))).toThrow(
      /RAGMETER_CASCADE_LLM_TASKS: the llm judge has no "reference_facts" task/u,
    );
  });

  it("with the real heuristic judge: a confident answer stays with tier 1, its risk and claims unchanged", async () => {
    const l = llm(doubted);
    const h = createHeuristicJudge();
    const input = {
      question: "Which port?",
      answer: "The managed PostgreSQL service listens on port 5432.",
      chunks: [{ id: "c1", text: "The managed PostgreSQL service listens on port 5432." }],
    };
    const alone = await judgeGrounding(h, input);
    const g = await judgeGrounding(createCascadeJudge(h, l.judge, options()), input);
    expect(alone.risk).toBeLessThan(0.2);
    expect(g).toMatchObject({ status: alone.status, value: alone.value, risk: alone.risk, tier: "heuristic" });
    expect(l.asked).toEqual([]);
  });
});

describe("cascade settings (RAGMETER_JUDGE=cascade, RAGMETER_CASCADE_*)", () => {
  const endpoint = { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", RAGMETER_JUDGE_MODEL: "m-1" };
  it("reads the band, the budget and the tasks; the defaults are 0.3,0.5 and a share of 0.3", () => {
    expect(loadConfig({ ...endpoint, RAGMETER_JUDGE: "cascade" }).cascade).toEqual({
      band: { low: 0.3, high: 0.5 },
      maxShare: 0.3,
      maxAnswers: null,
      llmTasks: [],
      rule: "stricter",
    });
    const c = loadConfig({
      ...endpoint,
      RAGMETER_JUDGE: "cascade",
      RAGMETER_CASCADE_BAND: "0.1, 0.6",
      RAGMETER_CASCADE_MAX_SHARE: "0.1",
      RAGMETER_CASCADE_MAX_ANSWERS: "50",
      RAGMETER_CASCADE_LLM_TASKS: "relevance,",
      RAGMETER_CASCADE_RULE: "llm",
    });
    expect(c.cascade).toEqual({ band: { low: 0.1, high: 0.6 }, maxShare: 0.1, maxAnswers: 50, llmTasks: ["relevance"], rule: "llm" });
    expect(loadConfig(endpoint).cascade).toBeNull();
  });

  it("a bad band, a share over 1 or a cascade without endpoint is one line naming the variable", () => {
    expect(() => loadConfig({ ...endpoint, RAGMETER_JUDGE: "cascade", RAGMETER_CASCADE_BAND: "0.7,0.3" })).toThrow(/RAGMETER_CASCADE_BAND: must be `low,high`.*got "0.7,0.3"/u);
    expect(() => loadConfig({ ...endpoint, RAGMETER_JUDGE: "cascade", RAGMETER_CASCADE_BAND: "0.3" })).toThrow(/RAGMETER_CASCADE_BAND/u);
    expect(() => loadConfig({ ...endpoint, RAGMETER_CASCADE_MAX_SHARE: "1.5" })).toThrow(/RAGMETER_CASCADE_MAX_SHARE/u);
    expect(() => loadConfig({ RAGMETER_JUDGE: "cascade" })).toThrow("RAGMETER_JUDGE=cascade needs an LLM endpoint: set OPENAI_BASE_URL and RAGMETER_JUDGE_MODEL");
    expect(() => loadConfig({ RAGMETER_JUDGE: "gpt" })).toThrow(/RAGMETER_JUDGE/u);
    expect(() => loadConfig({ ...endpoint, RAGMETER_JUDGE: "cascade", RAGMETER_CASCADE_RULE: "either" })).toThrow(/RAGMETER_CASCADE_RULE/u);
  });

  it("RAGMETER_JUDGE=heuristic keeps the heuristic judge with an endpoint set; the registry builds the cascade from the settings", async () => {
    expect(loadConfig({ ...endpoint, RAGMETER_JUDGE: "heuristic" }).judge).toBeNull();
    const c = await createJudge({ llm: { baseURL: endpoint.OPENAI_BASE_URL, model: "m-1" }, cascade: options() });
    expect([c.kind, c.model, c.metered]).toEqual(["cascade", "m-1", true]);
    await expect(createJudge({ llm: null, cascade: options() })).rejects.toThrow(/RAGMETER_JUDGE=cascade needs an LLM endpoint/u);
  });
});
