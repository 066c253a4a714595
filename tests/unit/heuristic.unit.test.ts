import { describe, expect, it } from "vitest";
import { isAbstention } from "../../core/src/domain/metrics/abstention.js";
import { createHeuristicJudge, heuristicClaims, heuristicVerdict } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { judgeGrounding, judgeRelevance } from "../../core/src/judges/types.js";

const judge = createHeuristicJudge();

describe("heuristic grounding judge (design §5)", () => {
  it("context [] and a refusal → null, no_claims", async () => {
    const g = await judgeGrounding(judge, { question: "q", answer: "Sorry, I could not find that in the documentation.", chunks: [] });
    expect(g.status).toBe("no_claims");
    expect(g.value).toBeNull();
    expect(g.claims).toEqual([]);
  });

  it("context [\"\"] and 'The service listens on port 8443.' → the claim UNSUPPORTED, grounding 0", async () => {
    const g = await judgeGrounding(judge, { question: "which port?", answer: "The service listens on port 8443.", chunks: [{ id: "c1", text: "" }] });
    expect(g.status).toBe("ok");
    expect(g.value).toBe(0);
    expect(g.claims.map((c) => c.verdict)).toEqual(["UNSUPPORTED"]);
  });

  it("a Chinese claim against a chunk saying the same → SUPPORTED, grounding 1.0", async () => {
    const g = await judgeGrounding(judge, { question: "水的沸点是多少？", answer: "水的沸点是100摄氏度。", chunks: [{ id: "z1", text: "在标准大气压下，水的沸点是100摄氏度。" }] });
    expect(g.claims.length).toBeGreaterThanOrEqual(1);
    expect(g.claims[0]?.verdict).toBe("SUPPORTED");
    expect(g.value).toBe(1);
  });

  it("'port 5433' against a chunk saying 'port 5432' → CONTRADICTED", () => {
    const v = heuristicVerdict("The database listens on port 5433.", [{ id: "p", text: "The managed PostgreSQL database listens on port 5432 for TLS connections." }]);
    expect(v).toEqual({ verdict: "CONTRADICTED", chunk_ids: ["p"] });
  });

  it("a claim adding an invented number absent from the chunks → UNSUPPORTED, not CONTRADICTED", () => {
    const chunk = { id: "b", text: "Daily backups are kept for 14 days. You can restore any of them from the control panel." };
    expect(heuristicVerdict("Daily backups are kept for 14 days.", [chunk]).verdict).toBe("SUPPORTED");
    expect(heuristicVerdict("Daily backups are kept for 14 days and cost 3 euros each.", [chunk]).verdict).toBe("UNSUPPORTED");
  });

  it("a Russian claim against a Russian chunk", () => {
    const chunk = { id: "r", text: "В одном проекте можно создать не более 25 серверов." };
    expect(heuristicVerdict("В проекте можно создать не более 25 серверов.", [chunk]).verdict).toBe("SUPPORTED");
    expect(heuristicVerdict("В проекте можно создать не более 30 серверов.", [chunk]).verdict).toBe("CONTRADICTED");
  });

  it("unanswerable: declining passes abstention; an invented 'Yes, it is supported' is a claim that is UNSUPPORTED", async () => {
    expect(isAbstention("I could not find that in the documentation.")).toBe(true);
    expect(isAbstention("Yes, it is supported.")).toBe(false);
    const g = await judgeGrounding(judge, {
      question: "Do you support Windows servers?",
      answer: "Yes, it is supported.",
      chunks: [{ id: "c", text: "Servers run Debian or Ubuntu images." }],
    });
    expect(g.claims.map((c) => c.verdict)).toEqual(["UNSUPPORTED"]);
    expect(g.value).toBe(0);
  });

  it("splits claims on CJK full-width terminators and drops refusal sentences and questions", () => {
    expect(heuristicClaims("第一句。第二句！第三句？")).toEqual(["第一句。", "第二句！"]);
    expect(heuristicClaims("Port 22 is open. Sorry, I could not find anything else.")).toEqual(["Port 22 is open."]);
  });
});

describe("heuristic relevance judge (design §5)", () => {
  it("from the share of the question's content tokens in the answer (rules v2)", async () => {
    // content tokens of the question: reset, postgres, password → 2 of 3 in the answer → 0.67 ≥ DIRECT_SHARE 0.5 → 4
    const r = await judgeRelevance(judge, { question: "How do I reset the postgres password?", answer: "Use the panel to reset the password.", answerable: true });
    expect(r.value).toBe(4);
    // 1 of 3 (password; "passwords" stems to "password") → 0.33 ≥ FOCUS_SHARE 0.2 → 3
    expect((await judgeRelevance(judge, { question: "How do I reset the postgres password?", answer: "Passwords expire yearly.", answerable: true })).value).toBe(3);
    // none of 3 → 0 (off-topic)
    expect((await judgeRelevance(judge, { question: "How do I reset the postgres password?", answer: "Invoices are sent monthly.", answerable: true })).value).toBe(0);
    // an empty answer → 0
    expect((await judgeRelevance(judge, { question: "How do I reset the postgres password?", answer: "  ", answerable: true })).value).toBe(0);
  });
  it("a number given to a quantity question is a direct answer (at least 3)", async () => {
    // question content stems: long, daili, backup, kept, standard, host, plan (7) → the answer shares backup: 1/7 < 0.2 → 1,
    // but "How long" asks for a quantity and the answer gives 9 → 3
    const r = await judgeRelevance(judge, { question: "How long are daily backups kept on the Standard hosting plan?", answer: "Backups: 9 days.", answerable: true });
    expect(r.value).toBe(3);
  });
  it("an abstention on an answerable question scores 1", async () => {
    const r = await judgeRelevance(judge, { question: "How do I reset the postgres password?", answer: "Sorry, I could not find that in the documentation.", answerable: true });
    expect(r.value).toBe(1);
  });
});
