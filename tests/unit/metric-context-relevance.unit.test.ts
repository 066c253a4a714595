import { describe, expect, it } from "vitest";
import { metricDef } from "../../core/src/domain/metricTable.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { Tokens } from "../../core/src/judges/heuristic/tokens.js";
import { scoreInteraction } from "../../core/src/scoring/score.js";

const subject = { trace_id: "t", golden_id: "g", tags: [], question: "Which port does PostgreSQL listen on?", latency_ms: 0 };
const ctx = (id: string, text: string) => ({ id, document_id: id, text, score: null });

describe("context_relevance, no-LLM form: each chunk's share of the question's content terms, averaged", () => {
  it("scores each chunk and the answer by hand", async () => {
    // question terms (stems): {port, postgresql, listen} ("which", "does", "on" are stop words)
    const r = await scoreInteraction(
      subject,
      {
        answer: "Port 5432.",
        contexts: [
          ctx("a", "PostgreSQL listens on port 5432 by default."), // 3 of 3
          ctx("b", "The PostgreSQL service restarts nightly."), // postgresql: 1 of 3
          ctx("c", "Backups are kept for 30 days."), // 0 of 3
        ],
        model: null,
      },
      null,
      { judge: createHeuristicJudge(), ks: [1] },
    );
    const o = r.metrics["context_relevance"];
    expect(o?.status).toBe("ok");
    expect(o?.chunks).toEqual([
      { id: "a", value: 1 },
      { id: "b", value: 1 / 3 },
      { id: "c", value: 0 },
    ]);
    expect(o?.value).toBeCloseTo((1 + 1 / 3 + 0) / 3, 12);
    expect(o?.reason).toBe("1 of 3 chunks hold at least half of the question's 3 terms");
  });

  it("applies to live traffic (no golden item) and needs no answer; nothing retrieved is not_applicable, without a call", async () => {
    const judge = createHeuristicJudge();
    const noAnswer = await scoreInteraction(subject, { answer: "", contexts: [ctx("a", "PostgreSQL port 5432.")], model: null }, null, { judge, ks: [1] });
    expect(noAnswer.metrics["context_relevance"]).toMatchObject({ status: "ok", value: 2 / 3 });
    const none = await scoreInteraction(subject, { answer: "x", contexts: [ctx("a", "  ")], model: null }, null, { judge, ks: [1] });
    expect(none.metrics["context_relevance"]).toMatchObject({ status: "not_applicable", value: null, reason: "no retrieved chunk with text" });
    expect(metricDef("context_relevance")).toMatchObject({ kind: "judged", live: true, needs: ["question", "chunks"] });
  });

  it("is a task of the no-LLM backend with its own prompt version", () => {
    const v = createHeuristicJudge().promptVersion;
    expect(v["context_relevance"]).toMatch(/^[0-9a-f]{12}$/u);
    expect(v["context_relevance"]).not.toBe(v["grounding"]);
  });
});

describe("context_relevance's chunk terms: kept by the chunk text's hash", () => {
  it("are the terms relevance reads of the same text, and a chunk seen again is not tokenized again", () => {
    const tokens = new Tokens();
    const text = "PostgreSQL listens on port 5432; however, the port can be changed.";
    const direct = tokens.relevanceText(text);
    // "however" is a discourse word: relevance counts it as content, so the chunk's terms hold it too
    expect([...tokens.chunkTerms(text)].sort()).toEqual([...new Set([...direct.content, ...direct.numbers])].sort());
    expect(tokens.chunkTerms(text)).toContain("howev");
    expect(tokens.chunkTerms(text)).toBe(tokens.chunkTerms(text));
    // bounded like the chunk cache: with no entries kept, each call makes a new set
    const uncached = new Tokens({ entries: 0, segments: 0 });
    expect(uncached.chunkTerms(text)).not.toBe(uncached.chunkTerms(text));
  });
});
