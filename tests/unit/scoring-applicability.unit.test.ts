import type { GoldenItem } from "@ragmeter/golden";
import { describe, expect, it } from "vitest";
import type { StoredSpan } from "../../core/src/extract/spans.js";
import { scoreTrace } from "../../core/src/scoring/trace.js";
import { countingJudge as countingJudgeWith } from "../helpers/countingJudge.js";
import { retrievalOf } from "../helpers/retrieval.js";

// Applicability decided before judging (issue 11): a counting LLM-kind judge shows which calls are made.
const countingJudge = () => countingJudgeWith(["c1"]);
const span = (name: string, attributes: StoredSpan["attributes"], resource: StoredSpan["attributes"] = {}): StoredSpan => ({
  trace_id: "t1",
  span_id: name.replace(/\W/g, "").padEnd(16, "0").slice(0, 16),
  parent_span_id: "",
  name,
  kind: 1,
  start_time_unix_nano: "1",
  end_time_unix_nano: "2",
  status_code: 0,
  attributes,
  resource_attributes: { "service.name": "s", ...resource },
  scope_name: "x",
  events: [],
  service_name: "s",
});
const DOCS = [
  { id: "c1", document_id: "refunds.md", content: "Refunds are accepted within 30 days." },
  { id: "c2", document_id: "shipping.md", content: "Shipping takes 5 days." },
];
const retrieval = (docs: string) =>
  span("retrieval kb", {
    "gen_ai.operation.name": "retrieval",
    "gen_ai.retrieval.query.text": "How long for refunds?",
    "gen_ai.retrieval.documents": docs,
    "ragmeter.golden.id": "g1",
  });
const generation = span("chat m", {
  "gen_ai.operation.name": "chat",
  "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "How long for refunds?" }] }]),
  "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "30 days." }] }]),
});
const golden: GoldenItem = {
  id: "g1",
  question: "How long for refunds?",
  expected_source: "shipping.md",
  expected_substring: "5 days",
  reference_answer: null,
  key_facts: null,
  tags: [],
} as unknown as GoldenItem;

describe("applicability decided before judging (design §5)", () => {
  it("a lone non-RAG span with an LLM judge: zero judge calls, judged metrics not_applicable, 2 calls skipped", async () => {
    const judge = countingJudge();
    const r = await scoreTrace("t1", [span("GET /health", { "http.request.method": "GET" })], [], { judge, ks: [1, 3], liveSampleRate: 1, golden: null });
    expect(judge.calls).toEqual({ grounding: 0, relevance: 0 });
    expect([r.result.metrics["grounding"]?.status, r.result.metrics["relevance"]?.status]).toEqual(["not_applicable", "not_applicable"]);
    expect(r.skipped).toEqual({ not_applicable: 2 });
  });

  it("a retrieval-only golden trace: recall and MRR from the retrieval alone (hit at rank 2), grounding/relevance not_applicable, retrieval stored", async () => {
    const judge = countingJudge();
    const r = await scoreTrace("t1", [retrieval(JSON.stringify(DOCS))], [], { judge, ks: [1, 3], liveSampleRate: 1, golden });
    expect(judge.calls).toEqual({ grounding: 0, relevance: 0 });
    expect([retrievalOf(r.result).recall, retrievalOf(r.result).recall_status, retrievalOf(r.result).reciprocal_rank]).toEqual([{ 1: 0, 3: 1 }, "ok", 0.5]);
    expect([r.result.metrics["grounding"]?.status, r.result.metrics["relevance"]?.status]).toEqual(["not_applicable", "not_applicable"]);
    expect(r.result.metrics["grounding"]?.reason).toBe("no generation span in the trace");
    expect(r.result.contexts.map((c) => c.id)).toEqual(["c1", "c2"]);
    expect(r.result.metrics["key_facts"]?.status).toBe("not_applicable");
  });

  it("documents JSON cut off: recall and grounding context_incomplete naming the attribute, no grounding call; relevance still judged", async () => {
    const judge = countingJudge();
    const cut = JSON.stringify(DOCS).slice(0, 60);
    const r = await scoreTrace("t1", [retrieval(cut), generation], [], { judge, ks: [1], liveSampleRate: 1, golden });
    expect(judge.calls).toEqual({ grounding: 0, relevance: 1 });
    expect(retrievalOf(r.result).recall_status).toBe("context_incomplete");
    expect(r.result.metrics["grounding"]?.status).toBe("context_incomplete");
    expect(r.result.metrics["grounding"]?.reason).toContain("gen_ai.retrieval.documents");
    expect(r.result.metrics["relevance"]?.status).toBe("ok");
    expect(r.skipped).toEqual({ context_incomplete: 1 });
  });

  it("an answer never captured keeps the retrieval and its recall: grounding and relevance content_missing, zero calls", async () => {
    const judge = countingJudge();
    const noAnswer = { ...generation, attributes: { "gen_ai.operation.name": "chat" } };
    const r = await scoreTrace("t1", [retrieval(JSON.stringify(DOCS)), noAnswer], [], { judge, ks: [3], liveSampleRate: 1, golden });
    expect(judge.calls).toEqual({ grounding: 0, relevance: 0 });
    expect([retrievalOf(r.result).recall, r.result.metrics["grounding"]?.status, r.result.metrics["relevance"]?.status]).toEqual([{ 3: 1 }, "content_missing", "content_missing"]);
    expect(r.result.contexts).toHaveLength(2);
  });

  it("a full RAG trace: both judges called once", async () => {
    const judge = countingJudge();
    const r = await scoreTrace("t1", [retrieval(JSON.stringify(DOCS)), generation], [], { judge, ks: [1], liveSampleRate: 1, golden });
    expect(judge.calls).toEqual({ grounding: 1, relevance: 1 });
    expect(r.skipped).toEqual({});
  });

  it("a rerank span that records no documents (AI SDK 7 without reranking: true), golden traffic: recall and grounding content_missing naming the span and the option, relevance judged, one grounding call saved", async () => {
    const judge = countingJudge();
    const rerank = span("rerank r", { "gen_ai.operation.name": "rerank", "gen_ai.request.model": "r", "ragmeter.golden.id": "g1" });
    const r = await scoreTrace("t1", [rerank, generation], [], { judge, ks: [1], liveSampleRate: 1, golden });
    expect([retrievalOf(r.result).recall_status, r.result.metrics["grounding"]?.status, r.result.metrics["relevance"]?.status]).toEqual([
      "content_missing",
      "content_missing",
      "ok",
    ]);
    expect(r.result.metrics["grounding"]?.reason).toMatch(
      /^retrieved documents not recorded: the rerank span records no documents \(ai\.documents\) and ranking \(ai\.ranking\): .*new OpenTelemetry\(\{ reranking: true \}\).* \(span rerank r \(rerankr000000000\)\)$/,
    );
    expect([retrievalOf(r.result).recall, retrievalOf(r.result).hit_rank]).toEqual([null, null]);
    expect(judge.calls).toEqual({ grounding: 0, relevance: 1 });
    expect(r.skipped).toEqual({ content_missing: 1 });
    // live traffic: recall has no golden item (not_applicable), grounding still content_missing
    const live = await scoreTrace("t1", [span("rerank r", { "gen_ai.operation.name": "rerank" }), generation], [], {
      judge: countingJudge(),
      ks: [1],
      liveSampleRate: 1,
      golden: null,
    });
    expect([live.result.metrics["grounding"]?.status, live.result.metrics["relevance"]?.status]).toEqual(["content_missing", "ok"]);
  });
});
