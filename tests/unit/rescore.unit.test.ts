import { describe, expect, it } from "vitest";
import { extractInteraction } from "../../core/src/extract/interaction.js";
import type { StoredSpan } from "../../core/src/extract/spans.js";
import { formatRescore } from "../../scorer/src/cli/rescoreCommand.js";
import { changedFields } from "../../scorer/src/runs/rescore.js";
import type { StoredReading } from "../../store/src/rescore.js";

const span = (attributes: StoredSpan["attributes"]): StoredSpan => ({
  trace_id: "t1",
  span_id: "0000000000000001",
  parent_span_id: "",
  name: "retrieval kb",
  kind: 1,
  start_time_unix_nano: "1",
  end_time_unix_nano: "2",
  status_code: 0,
  attributes,
  resource_attributes: { "service.name": "s" },
  scope_name: "x",
  events: [],
  service_name: "s",
});

describe("rescore: which readings changed", () => {
  const docs = [{ id: "c1", document_id: "d1", content: "Refunds within 30 days.", score: 0.8 }];
  const now = extractInteraction("t1", [
    span({ "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.query.text": "How long?", "gen_ai.retrieval.documents": JSON.stringify(docs) }),
  ]);
  const stored: StoredReading = {
    trace_id: "t1",
    question: "How long?",
    answer: null,
    retrieved: [{ id: "c1", document_id: "d1", text: "Refunds within 30 days.", score: 0.8 }],
    generator_model: null,
    input_tokens: null,
    output_tokens: null,
    created_at: 0,
  };

  it("the same reading as stored: no field; each difference named (question, retrieved items, answer, model, tokens)", () => {
    expect(changedFields(stored, now)).toEqual([]);
    expect(changedFields({ ...stored, answer: "" }, now)).toEqual([]); // no answer is stored as null or ""
    expect(changedFields({ ...stored, question: "KeywordRetriever" }, now)).toEqual(["question"]);
    expect(changedFields({ ...stored, retrieved: [{ id: "", document_id: "", text: "Refunds within 30 days.", score: null }] }, now)).toEqual(["retrieved"]);
    expect(changedFields({ ...stored, answer: "x", generator_model: "m", input_tokens: "3" }, now)).toEqual(["answer", "model", "tokens"]);
  });

  it("prints each changed trace with its scores before → after, then the mean per metric over traces ok in both", () => {
    const s = (metric: string, value: number | null, status = "ok") => ({ trace_id: "t1", run_id: "live", metric, judge_prompt_version: "pv", value, status });
    const lines = formatRescore(
      {
        service: "svc",
        since: "2026-12-01T00:00:00.000Z",
        dry_run: false,
        traces: 3,
        without_spans: 0,
        changed: [{ trace_id: "t1", fields: ["question"], before: [s("grounding", 1), s("relevance", 0)], after: [s("grounding", 1), s("relevance", 4)] }],
        judge_prompt_version: "pv",
      },
      "/tmp/store",
    );
    expect(lines).toEqual([
      're-scored 1 of 3 trace(s) of service "svc" since 2026-12-01T00:00:00.000Z in /tmp/store (their reading changed)',
      "  t1  question  grounding 1 → 1  relevance 0 → 4",
      "  grounding: ok before and after 1; mean 1.000 → 1.000",
      "  relevance: ok before and after 1; mean 0.000 → 4.000",
    ]);
  });
});
