import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extractInteraction, type Interaction } from "../../core/src/extract/interaction.js";
import type { StoredLog, StoredSpan } from "../../core/src/extract/spans.js";

// The `vercel-ai` reader (design §4) on the spans AI SDK 6 really emitted: tests/fixtures/conventions
// holds what tests/conventions/drivers/vercel-ai.mjs and vercel-ai-rerank.mjs exported with `ai`
// 6.0.325 and @ai-sdk/openai 3.0.141 (`experimental_telemetry`, `ai.*` attributes), decoded as the
// collector does and dumped by the conventions integration test (RAGMETER_DUMP_CONVENTIONS). Teams
// still run AI SDK 6; the integration test drives AI SDK 7 since issue 29. The expected values are
// the scenario's (tests/conventions/drivers/scenario.mjs) and the local chat server's
// (tests/conventions/servers.ts: a tool call costs 300/10 tokens, an answer 321/54), written out here.

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/conventions");
const ANSWER = "Customers have 30 days to ask for a refund [chunk-10].";
const QUESTION = "How many days do customers have to ask for a refund?";
const MODEL = "gpt-4o-mini-2024-07-18";
const N = 12;
const CHUNK_IDS = Array.from({ length: N }, (_, i) => `chunk-${i}`);
const DOCUMENT_IDS = Array.from({ length: N }, (_, i) => `doc-${String.fromCharCode(97 + i)}`);
const TEXTS = CHUNK_IDS.map((_, i) => `Passage ${i}: refunds are accepted within ${i + 20} days of purchase.`);
const SCORES = [0.99, 0.94, 0.89, 0.84, 0.79, 0.74, 0.69, 0.64, 0.59, 0.54, 0.49, 0.44];

interface Fixture {
  produced_by: { libraries: Record<string, string> };
  spans: StoredSpan[];
  logs: StoredLog[];
}
const load = (name: string): Fixture => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")) as Fixture;
const extract = (f: Fixture): Interaction => extractInteraction(f.spans[0]!.trace_id, f.spans, f.logs);

function expectRetrieved(i: Interaction): void {
  const r = i.retrieved!;
  expect(r.map((d) => d.id)).toEqual(CHUNK_IDS);
  expect(r[10]!.id).toBe("chunk-10"); // index 10 follows 9, never 1
  expect(r.map((d) => d.text)).toEqual(TEXTS);
  expect(r.map((d) => d.document_id)).toEqual(DOCUMENT_IDS);
  expect(r.map((d) => d.score)).toEqual(SCORES);
}

describe("Vercel AI SDK 6 telemetry (vercel-ai reader) on spans ai 6.0.325 emitted", () => {
  it("the fixtures are AI SDK 6's: ai.* spans, one trace", () => {
    for (const name of ["ai-sdk6-vercel-ai", "ai-sdk6-vercel-ai-rerank"]) {
      const f = load(name);
      expect(f.produced_by.libraries).toEqual({ ai: "6.0.325", "@ai-sdk/openai": "3.0.141" });
      expect(new Set(f.spans.map((s) => s.trace_id)).size).toBe(1);
      expect(f.spans.filter((s) => s.scope_name === "ai").every((s) => typeof s.attributes["ai.operationId"] === "string")).toBe(true);
    }
  });

  it("a retrieval tool: documents from ai.toolCall.result, the question from ai.prompt (not the model-written query), answer and the run's total usage from ai.generateText", () => {
    const f = load("ai-sdk6-vercel-ai");
    const i = extract(f);
    expect(i.conventions).toEqual({ retrieval: "vercel-ai", generation: "vercel-ai" });
    expect(i.question).toBe(QUESTION);
    expectRetrieved(i);
    expect(i.answer).toBe(ANSWER);
    expect(i.generator_model).toBe(MODEL);
    // two steps: the tool call (300 in, 10 out) and the answer (321 in, 54 out)
    expect([i.input_tokens, i.output_tokens]).toEqual([String(300 + 321), String(10 + 54)]);
    const steps = f.spans.filter((s) => s.name === "ai.generateText.doGenerate").map((s) => [s.attributes["ai.usage.inputTokens"], s.attributes["ai.usage.outputTokens"]]);
    expect(steps.sort()).toEqual([
      [300, 10],
      [321, 54],
    ]);
    const tool = f.spans.find((s) => s.name === "ai.toolCall")!;
    expect(i.spans.retrieval).toBe(tool.span_id);
    expect(i.spans.generation).toBe(f.spans.find((s) => s.name === "ai.generateText")!.span_id);
    expect(i.guesses).toEqual([]);
  });

  it("rerank(): documents in the order of ai.ranking with its scores (candidates were given in reverse), answer and usage of the one step", () => {
    const f = load("ai-sdk6-vercel-ai-rerank");
    const i = extract(f);
    expect(i.conventions).toEqual({ retrieval: "vercel-ai", generation: "vercel-ai" });
    expect(i.question).toBe(QUESTION);
    expectRetrieved(i);
    expect(i.answer).toBe(ANSWER);
    expect(i.generator_model).toBe(MODEL);
    expect([i.input_tokens, i.output_tokens]).toEqual(["321", "54"]);
    const rerank = f.spans.find((s) => s.name === "ai.rerank.doRerank")!;
    expect(i.spans.retrieval).toBe(rerank.span_id);
    // what the spans carry: the candidates as given (chunk-11 first), the ranking from the last index down
    const given = (rerank.attributes["ai.documents"] as string[]).map((d) => (JSON.parse(d) as { id: string }).id);
    expect(given).toEqual([...CHUNK_IDS].reverse());
    const ranking = (rerank.attributes["ai.ranking"] as string[]).map((e) => JSON.parse(e) as { index: number });
    expect(ranking.map((e) => e.index)).toEqual(Array.from({ length: N }, (_, k) => N - 1 - k));
    expect(i.guesses).toEqual([]);
  });
});
