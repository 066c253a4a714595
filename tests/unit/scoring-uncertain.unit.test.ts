import type { GoldenItem } from "@ragmeter/golden";
import { describe, expect, it } from "vitest";
import { extractInteraction } from "../../core/src/extract/interaction.js";
import type { StoredSpan } from "../../core/src/extract/spans.js";
import { scoreTrace } from "../../core/src/scoring/trace.js";
import { countingJudge } from "../helpers/countingJudge.js";
import { retrievalOf } from "../helpers/retrieval.js";

// Never `ok` on a guess (issue 28, design §5 `uncertain_reading`): a question or retrieval read from a
// fallback makes the metrics that need it uncertain_reading, naming span and attribute, with no judge call.

const QUESTION = "How many days do customers have to ask for a refund?";
const TEXTS = ["Refunds: customers can ask for a refund within 30 days of purchase.", "A refund is paid back to the original card within 5 business days."];
let n = 0;
const span = (name: string, attributes: StoredSpan["attributes"], parent = "", end = 10): StoredSpan => ({
  trace_id: "t1",
  span_id: (++n).toString(16).padStart(16, "0"),
  parent_span_id: parent,
  name,
  kind: 1,
  start_time_unix_nano: "1",
  end_time_unix_nano: String(end),
  status_code: 0,
  attributes,
  resource_attributes: { "service.name": "s" },
  scope_name: "x",
  events: [],
  service_name: "s",
});
const rendered = `Context information is below.\n---------------------\n${TEXTS.join("\n\n")}\n---------------------\nQuery: ${QUESTION}\nAnswer: `;
const chat = (user: string) =>
  span("openai.chat", {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "m",
    "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: user }] }]),
    "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "Customers have 30 days." }] }]),
  });
const golden = {
  id: "g1",
  question: QUESTION,
  expected_source: "refunds.md",
  expected_substring: "30 days",
  reference_answer: null,
  key_facts: null,
  tags: [],
} as unknown as GoldenItem;

describe("readings from a fallback are never ok (design §4, §5)", () => {
  it("retrieval from a task's bare texts (OpenLLMetry, a splitter's joined context): recall and grounding uncertain_reading naming span and attribute, no grounding call; relevance judged", async () => {
    const splitter = span("TokenTextSplitter.task", {
      "traceloop.span.kind": "task",
      "traceloop.entity.input": JSON.stringify({ text: TEXTS.join("\n\n") }),
      "traceloop.entity.output": JSON.stringify([TEXTS.join("\n\n")]),
    });
    const workflow = span("CompactAndRefine.workflow", { "traceloop.span.kind": "workflow", "traceloop.entity.input": JSON.stringify({ query_str: QUESTION }) });
    const spans = [splitter, workflow, chat(rendered)];
    const i = extractInteraction("t1", spans);
    expect(i.question).toBe(QUESTION); // the workflow's query_str, not the rendered prompt
    expect(i.guesses).toEqual([
      {
        field: "retrieval",
        span: `TokenTextSplitter.task (${splitter.span_id})`,
        attribute: "traceloop.entity.output",
        reason: "a list of 1 bare text(s), no ids or scores, read as the retrieved documents",
      },
    ]);
    const judge = countingJudge();
    const r = await scoreTrace("t1", spans, [], { judge, ks: [1], liveSampleRate: 1, golden });
    expect(judge.calls).toEqual({ grounding: 0, relevance: 1 });
    expect([retrievalOf(r.result).recall_status, r.result.metrics["grounding"]?.status, r.result.metrics["relevance"]?.status]).toEqual([
      "uncertain_reading",
      "uncertain_reading",
      "ok",
    ]);
    expect(r.result.metrics["grounding"]?.reason).toBe(
      `retrieval read from a fallback: a list of 1 bare text(s), no ids or scores, read as the retrieved documents (span TokenTextSplitter.task (${splitter.span_id}), attribute traceloop.entity.output)`,
    );
    expect(r.skipped).toEqual({ uncertain_reading: 1 });
  });

  it("a task listing documents wins over a later one with bare texts: read with confidence", () => {
    const retriever = span(
      "KeywordRetriever.task",
      {
        "traceloop.span.kind": "task",
        "traceloop.entity.input": JSON.stringify({ query_bundle: { query_str: QUESTION } }),
        "traceloop.entity.output": JSON.stringify(
          TEXTS.map((t, k) => JSON.stringify({ node: { id_: `c${k}`, text: t, metadata: { document_id: "refunds.md" } }, score: 0.9 - k / 10 })),
        ),
      },
      "",
      5,
    );
    const splitter = span("TokenTextSplitter.task", { "traceloop.span.kind": "task", "traceloop.entity.output": JSON.stringify([TEXTS.join("\n\n")]) }, "", 20);
    const i = extractInteraction("t1", [retriever, splitter, chat(rendered)]);
    expect(i.retrieved).toEqual([
      { id: "c0", document_id: "refunds.md", text: TEXTS[0], score: 0.9 },
      { id: "c1", document_id: "refunds.md", text: TEXTS[1], score: 0.8 },
    ]);
    expect([i.question, i.guesses]).toEqual([QUESTION, []]);
  });

  it("the question only in a rendered prompt: relevance and grounding uncertain_reading naming the chat span and gen_ai.input.messages, zero judge calls; recall still ok", async () => {
    const retriever = span("retrieve", {
      "openinference.span.kind": "RETRIEVER",
      ...Object.fromEntries(
        TEXTS.flatMap((t, k) => [
          [`retrieval.documents.${k}.document.id`, `c${k}`],
          [`retrieval.documents.${k}.document.content`, t],
          [`retrieval.documents.${k}.document.metadata`, JSON.stringify({ document_id: "refunds.md" })],
        ]),
      ),
    });
    const c = chat(rendered);
    const judge = countingJudge();
    const r = await scoreTrace("t1", [retriever, c], [], { judge, ks: [1], liveSampleRate: 1, golden });
    expect(r.interaction.question).toBe(rendered);
    expect(judge.calls).toEqual({ grounding: 0, relevance: 0 });
    expect([retrievalOf(r.result).recall_status, r.result.metrics["grounding"]?.status, r.result.metrics["relevance"]?.status]).toEqual([
      "ok",
      "uncertain_reading",
      "uncertain_reading",
    ]);
    expect(r.result.metrics["relevance"]?.reason).toBe(
      `question read from a fallback: the last user message holds the retrieved context (a rendered prompt) and no query was recorded elsewhere (span openai.chat (${c.span_id}), attribute gen_ai.input.messages)`,
    );
    expect(r.skipped).toEqual({ uncertain_reading: 2 });
  });

  it("a question guessed from an input's first text field (no query key) is uncertain; the retriever's class name is never read", () => {
    const task = span("vector_db_retrieve KeywordRetriever", {
      "traceloop.span.kind": "task",
      "traceloop.entity.input": JSON.stringify({ text: "refund days", kwargs: { name: "KeywordRetriever" } }),
      "traceloop.entity.output": JSON.stringify({ documents: TEXTS.map((t) => ({ page_content: t, metadata: { document_id: "refunds.md" } })) }),
    });
    const i = extractInteraction("t1", [task]);
    expect(i.question).toBe("refund days");
    expect(i.guesses.map((g) => [g.field, g.attribute, g.reason])).toEqual([["question", "traceloop.entity.input", "the first text field (text) of an input without a query key"]]);
    const named = extractInteraction("t1", [
      span("vector_db_retrieve KeywordRetriever", {
        "traceloop.span.kind": "task",
        "traceloop.entity.input": JSON.stringify({ tags: [], kwargs: { name: "KeywordRetriever" } }),
        "traceloop.entity.output": JSON.stringify({ documents: TEXTS.map((t) => ({ page_content: t })) }),
      }),
    ]);
    expect(named.question).toBeNull();
  });
});
