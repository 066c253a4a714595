import { describe, expect, it } from "vitest";
import { ConfigError } from "../../core/src/domain/errors.js";
import type { ClaimInsert, ScoreInsert } from "../../core/src/domain/rows.js";
import { evaluatedSpan, evaluationsOf } from "../../core/src/scoring/evaluations.js";
import { evaluationLogsUrl, loadConfig } from "../../scorer/src/cli/config.js";

const ENDPOINT = "RAGMETER_EVALUATION_EXPORT_ENDPOINT";

describe("evaluation export configuration", () => {
  it("is off without the endpoint, and the OTLP variables are then not read", () => {
    expect(loadConfig({}).evaluationExport).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: "not a header list" }).evaluationExport).toBeNull();
  });

  it("appends /v1/logs to a base URL and keeps a full logs URL", () => {
    expect(evaluationLogsUrl("http://collector:4318")).toBe("http://collector:4318/v1/logs");
    expect(evaluationLogsUrl("http://collector:4318/")).toBe("http://collector:4318/v1/logs");
    expect(evaluationLogsUrl("https://otel.example.com/otlp")).toBe("https://otel.example.com/otlp/v1/logs");
    expect(evaluationLogsUrl("http://collector:4318/v1/logs")).toBe("http://collector:4318/v1/logs");
    expect(loadConfig({ [ENDPOINT]: "http://127.0.0.1:4318" }).evaluationExport).toEqual({ url: "http://127.0.0.1:4318/v1/logs", headers: {}, timeoutMs: 10_000 });
  });

  it("reads headers and timeout, the logs-specific variables first", () => {
    const c = loadConfig({
      [ENDPOINT]: "http://127.0.0.1:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20generic",
      OTEL_EXPORTER_OTLP_LOGS_HEADERS: "authorization=Bearer%20logs, x-team = rag ",
      OTEL_EXPORTER_OTLP_TIMEOUT: "3000",
      OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: "2500",
    }).evaluationExport;
    expect(c).toEqual({ url: "http://127.0.0.1:4318/v1/logs", headers: { authorization: "Bearer logs", "x-team": "rag" }, timeoutMs: 2500 });
    expect(loadConfig({ [ENDPOINT]: "http://h:1", OTEL_EXPORTER_OTLP_HEADERS: "a=1", OTEL_EXPORTER_OTLP_TIMEOUT: "700" }).evaluationExport).toEqual({
      url: "http://h:1/v1/logs",
      headers: { a: "1" },
      timeoutMs: 700,
    });
  });

  it.each([
    [{ [ENDPOINT]: "not a url" }, /^environment variable RAGMETER_EVALUATION_EXPORT_ENDPOINT: /u],
    [{ [ENDPOINT]: "ftp://h/v1/logs" }, /^environment variable RAGMETER_EVALUATION_EXPORT_ENDPOINT: must be an http:\/\/ or https:\/\/ URL$/u],
    [{ [ENDPOINT]: "http://h:4318", OTEL_EXPORTER_OTLP_LOGS_HEADERS: "novalue" }, /^environment variable OTEL_EXPORTER_OTLP_LOGS_HEADERS: "novalue" is not key=value/u],
    [{ [ENDPOINT]: "http://h:4318", OTEL_EXPORTER_OTLP_HEADERS: "a=%zz" }, /^environment variable OTEL_EXPORTER_OTLP_HEADERS: the value of "a" is not percent-encoded correctly$/u],
    [{ [ENDPOINT]: "http://h:4318", OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: "-5" }, /^environment variable OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: /u],
    [{ [ENDPOINT]: "http://h:4318", OTEL_EXPORTER_OTLP_TIMEOUT: "soon" }, /^environment variable OTEL_EXPORTER_OTLP_TIMEOUT: /u],
  ])("refuses %o with one line naming the variable", (env, message) => {
    let err: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain("\n");
  });
});

const row = (metric: string, value: number | null, status: string, reason = "", judge = { kind: "llm", model: "judge-1", prompt: "p1" }): ScoreInsert => ({
  run_id: "r1",
  trace_id: "0af7651916cd43dd8448eb211c80319c",
  golden_id: "g1",
  metric,
  value,
  status,
  reason,
  judge_kind: judge.kind,
  judge_model: judge.model,
  judge_prompt_version: judge.prompt,
  repeat_index: 0,
  pipeline_version: "v2",
  source: "golden",
  judge_input_tokens: 0,
  judge_output_tokens: 0,
  latency_ms: 0,
});
const claim = (i: number, verdict: string): ClaimInsert => ({
  run_id: "r1",
  trace_id: "0af7651916cd43dd8448eb211c80319c",
  golden_id: "g1",
  judge_prompt_version: "p1",
  repeat_index: 0,
  claim_index: i,
  claim: `claim ${i}`,
  verdict,
  chunk_ids: [],
  judge_model: "judge-1",
  pipeline_version: "v2",
});
const mech = { kind: "mechanical", model: "", prompt: "" };
const SPANS = { retrieval: "1111111111111111", generation: "2222222222222222", root: "3333333333333333" };

describe("gen_ai.evaluation.result attributes of stored rows", () => {
  it("parents retrieval metrics to the retrieval span, the others to the generation span, else the root", () => {
    expect(["recall@5", "mrr", "grounding", "relevance", "key_facts", "abstention", "reference_facts"].map((m) => evaluatedSpan(m, SPANS))).toEqual([
      SPANS.retrieval,
      SPANS.retrieval,
      SPANS.generation,
      SPANS.generation,
      SPANS.generation,
      SPANS.generation,
      SPANS.generation,
    ]);
    const noGen = { ...SPANS, generation: null };
    expect([evaluatedSpan("grounding", noGen), evaluatedSpan("recall@1", { ...SPANS, retrieval: null }), evaluatedSpan("mrr", null)]).toEqual([SPANS.root, SPANS.root, null]);
  });

  it("an ok score carries its value, label and explanation; provenance as ragmeter.*", () => {
    const [g] = evaluationsOf({ scores: [row("grounding", 2 / 3, "ok")], claims: [claim(0, "SUPPORTED"), claim(1, "UNSUPPORTED"), claim(2, "SUPPORTED")] }, SPANS);
    expect(g).toEqual({
      trace_id: "0af7651916cd43dd8448eb211c80319c",
      span_id: SPANS.generation,
      error: false,
      attributes: {
        "gen_ai.evaluation.name": "grounding",
        "gen_ai.evaluation.score.value": 2 / 3,
        "gen_ai.evaluation.score.label": "unsupported",
        "gen_ai.evaluation.explanation": "3 claims: 2 SUPPORTED, 1 UNSUPPORTED",
        "ragmeter.run.id": "r1",
        "ragmeter.golden.id": "g1",
        "ragmeter.pipeline.version": "v2",
        "ragmeter.source": "golden",
        "ragmeter.score.status": "ok",
        "ragmeter.judge.kind": "llm",
        "ragmeter.judge.model": "judge-1",
        "ragmeter.judge.prompt_version": "p1",
        "ragmeter.repeat.index": 0,
      },
    });
  });

  it("labels: hit/miss, abstained/answered, ok; claims of another repeat are not counted", () => {
    const evs = evaluationsOf(
      {
        scores: [
          row("recall@3", 0, "ok", "", mech),
          row("mrr", 0.5, "ok", "", mech),
          row("abstention", 0, "ok", "", mech),
          row("relevance", 3, "ok", "answers the focus"),
          row("grounding", 1, "ok"),
        ],
        claims: [claim(0, "SUPPORTED"), { ...claim(1, "CONTRADICTED"), repeat_index: 1 }],
      },
      SPANS,
    );
    expect(evs.map((e) => e.attributes["gen_ai.evaluation.score.label"])).toEqual(["miss", "hit", "answered", "ok", "supported"]);
    expect(evs[3]?.attributes["gen_ai.evaluation.explanation"]).toBe("answers the focus");
    expect(evs[0]?.attributes["ragmeter.judge.model"]).toBeUndefined();
    expect(evs[0]?.attributes["ragmeter.judge.kind"]).toBe("mechanical");
  });

  it("a non-ok status emits no value: label = status, explanation = reason; judge_error and context_too_long set error.type", () => {
    const evs = evaluationsOf(
      {
        scores: [
          row("grounding", null, "judge_error", "reply did not parse after 3 attempts"),
          row("relevance", null, "context_too_long", "context of 40000 tokens > window"),
          row("recall@1", null, "content_missing", "no retrieval content captured", mech),
          row("key_facts", null, "not_applicable", "", mech),
        ],
        claims: [],
      },
      SPANS,
    );
    for (const e of evs) expect(e.attributes).not.toHaveProperty("gen_ai.evaluation.score.value");
    expect(evs.map((e) => [e.attributes["gen_ai.evaluation.score.label"], e.attributes["gen_ai.evaluation.explanation"], e.attributes["error.type"], e.error])).toEqual([
      ["judge_error", "reply did not parse after 3 attempts", "judge_error", true],
      ["context_too_long", "context of 40000 tokens > window", "context_too_long", true],
      ["content_missing", "no retrieval content captured", undefined, false],
      ["not_applicable", undefined, undefined, false],
    ]);
  });
});
