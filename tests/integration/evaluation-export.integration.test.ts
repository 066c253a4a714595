// Evaluation results back into OpenTelemetry (issue 14): every stored score arrives at a local
// OTLP/HTTP receiver as one `gen_ai.evaluation.result` event, decoded with the official
// opentelemetry-proto files (protobufjs), and compared with the store queried on its own.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_GOLDEN_FILE } from "../../examples/sample-rag/src/index.js";
import { serveCommand } from "../../scorer/src/cli/streamCommands.js";
import { openStore } from "../../store/src/client.js";
import { cli } from "../helpers/cli.js";
import { FOUR_QUESTION_TABLE, startFixtureTarget } from "../helpers/fixtureTarget.js";
import { startFakeOpenAI } from "../helpers/openaiServer.js";
import { type ReceivedRecord, startLogsReceiver } from "../helpers/otlpLogsReceiver.js";
import { startLiveAndDarkSamples } from "../helpers/sampleServe.js";
import { freePort, startSampleTracingTo, viaTracesFlags } from "../helpers/viaTraces.js";

const GOLDEN = [
  { id: "g1", question: "How many days is the refund window?", expected_source: "billing/refunds.md", expected_substring: "within 30 days", key_facts: ["30 days"] },
  { id: "g2", question: "Which port does PostgreSQL listen on?", expected_source: "postgres/connecting.md", expected_substring: "port 5432", key_facts: ["5432"] },
  { id: "g3", question: "Do you offer GPU servers?", expected_source: null },
  { id: "g4", question: "What is the price of a snapshot?", expected_source: "backups/snapshots.md", expected_substring: "per GB" },
];
const TABLE = FOUR_QUESTION_TABLE;

interface StoredScore {
  trace_id: string;
  golden_id: string;
  metric: string;
  value: number | null;
  status: string;
  reason: string;
  judge_kind: string;
  judge_model: string;
  judge_prompt_version: string;
  repeat_index: number;
  pipeline_version: string;
  source: string;
}

async function storedScores(home: string, runId: string | null): Promise<StoredScore[]> {
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  try {
    const rs = await store.client.query({
      query: `SELECT trace_id, golden_id, metric, value, status, reason, judge_kind, judge_model, judge_prompt_version, repeat_index, pipeline_version, source
              FROM ragmeter.scores FINAL ${runId === null ? "" : "WHERE run_id = {run:String}"} ORDER BY trace_id, metric`,
      format: "JSONEachRow",
      ...(runId === null ? {} : { query_params: { run: runId } }),
    });
    return (await rs.json()) as StoredScore[];
  } finally {
    await store.close();
  }
}

const str = (r: ReceivedRecord, k: string): string | undefined => {
  const v = r.attributes[k];
  return v?.kind === "string" ? (v.value as string) : undefined;
};
const key = (trace: string, metric: string): string => `${trace} ${metric}`;

/** Every record against its stored score: one event per row, same value, status, provenance. */
function expectMatchesStore(records: readonly ReceivedRecord[], scores: readonly StoredScore[], runId: string): void {
  expect(records).toHaveLength(scores.length);
  const byKey = new Map<string, ReceivedRecord[]>();
  for (const r of records) {
    const k = key(r.traceId, str(r, "gen_ai.evaluation.name") ?? "?");
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  for (const s of scores) {
    const got = byKey.get(key(s.trace_id, s.metric)) ?? [];
    expect(got, `${s.metric} of ${s.trace_id}`).toHaveLength(1);
    const r = got[0] as ReceivedRecord;
    expect(r.eventName).toBe("gen_ai.evaluation.result");
    expect(r.attributes["event.name"]).toBeUndefined(); // deprecated: the name is the LogRecord's event_name
    expect(r.hasBody).toBe(false);
    expect(str(r, "ragmeter.run.id")).toBe(runId);
    expect(str(r, "ragmeter.score.status")).toBe(s.status);
    expect(str(r, "ragmeter.pipeline.version")).toBe(s.pipeline_version);
    expect(str(r, "ragmeter.source")).toBe(s.source);
    expect(str(r, "ragmeter.judge.kind")).toBe(s.judge_kind);
    expect(str(r, "ragmeter.judge.model")).toBe(s.judge_model === "" ? undefined : s.judge_model);
    expect(str(r, "ragmeter.judge.prompt_version")).toBe(s.judge_prompt_version === "" ? undefined : s.judge_prompt_version);
    expect(r.attributes["ragmeter.repeat.index"]?.value).toBe(s.repeat_index);
    const value = r.attributes["gen_ai.evaluation.score.value"];
    if (s.status === "ok") {
      expect(value?.value).toBe(s.value);
      // OTel JS encodes an integral number as int_value (opentelemetry-js#3436), any other as double_value.
      expect(value?.kind).toBe(Number.isInteger(s.value) ? "int" : "double");
      expect(r.severityNumber).toBe(9);
    } else {
      expect(value).toBeUndefined(); // never a number that was not measured
      expect(str(r, "gen_ai.evaluation.score.label")).toBe(s.status);
      expect(str(r, "gen_ai.evaluation.explanation")).toBe(s.reason === "" ? undefined : s.reason);
    }
  }
}

/** Per trace, from the stored spans alone: the latest-ending span of each GenAI operation name. */
async function storedOperationSpans(home: string): Promise<Map<string, Map<string, string>>> {
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  try {
    const rs = await store.client.query({
      query: "SELECT trace_id, span_id, attributes, toString(end_time_unix_nano) AS end FROM ragmeter.spans FINAL ORDER BY trace_id, end_time_unix_nano",
      format: "JSONEachRow",
    });
    const out = new Map<string, Map<string, string>>();
    for (const s of (await rs.json()) as { trace_id: string; span_id: string; attributes: string; end: string }[]) {
      const op = (JSON.parse(s.attributes) as Record<string, unknown>)["gen_ai.operation.name"];
      if (typeof op !== "string") continue;
      const m = out.get(s.trace_id) ?? new Map<string, string>();
      m.set(op, s.span_id); // ordered by end time: the latest wins
      out.set(s.trace_id, m);
    }
    return out;
  } finally {
    await store.close();
  }
}

let dir: string;
let goldenFile: string;
let target: Awaited<ReturnType<typeof startFixtureTarget>>;
let receiver: Awaited<ReturnType<typeof startLogsReceiver>>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-evalexport-"));
  goldenFile = path.join(dir, "golden.jsonl");
  await writeFile(goldenFile, GOLDEN.map((g) => JSON.stringify(g)).join("\n"));
  target = await startFixtureTarget(TABLE);
  receiver = await startLogsReceiver();
});
afterAll(async () => {
  await target.close();
  await receiver.close();
});

describe("evaluation export (RAGMETER_EVALUATION_EXPORT_ENDPOINT)", () => {
  it("eval: one gen_ai.evaluation.result per stored score, parented to the traceparent ragmeter sent", async () => {
    const home = path.join(dir, "eval");
    const out = path.join(dir, "eval.json");
    receiver.records.length = 0;
    target.headers.length = 0;
    const r = await cli(["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", "fx-1", "--k", "1,3", "--json", out, "--home", home], {
      RAGMETER_EVALUATION_EXPORT_ENDPOINT: receiver.base,
      OTEL_EXPORTER_OTLP_LOGS_HEADERS: "x-tenant=team%20a",
    });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const runId = (JSON.parse(await readFile(out, "utf8")) as { run_id: string }).run_id;
    const scores = await storedScores(home, runId);
    // 4 questions × 14 metrics (recall, precision and ndcg at 1 and 3, mrr, grounding, grounding_risk, relevance, context_relevance, key_facts, abstention, reference_facts)
    expect(scores).toHaveLength(4 * 14);
    expect(receiver.requests.every((q) => q.path === "/v1/logs" && q.contentType === "application/x-protobuf" && q.headers["x-tenant"] === "team a")).toBe(true);
    expectMatchesStore(receiver.records, scores, runId);

    // The span of every event is the span id of the traceparent the target received for that trace.
    const sent = new Map(
      target.headers.map((h) => {
        const [, trace, span] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/u.exec(String(h["traceparent"])) ?? [];
        return [trace as string, span as string] as const;
      }),
    );
    expect(sent.size).toBe(4);
    for (const rec of receiver.records) expect(rec.spanId).toBe(sent.get(rec.traceId));
    expect(receiver.records.every((x) => x.resource["service.name"]?.value === "ragmeter-eval" && x.scope === "ragmeter")).toBe(true);

    // Figures by hand (the same table as eval-cli.integration.test.ts).
    const golden = new Map(scores.map((s) => [s.trace_id, s.golden_id] as const));
    const ev = (g: string, metric: string) => receiver.records.find((x) => golden.get(x.traceId) === g && str(x, "gen_ai.evaluation.name") === metric) as ReceivedRecord;
    const label = (g: string, metric: string) => str(ev(g, metric), "gen_ai.evaluation.score.label");
    const value = (g: string, metric: string) => ev(g, metric).attributes["gen_ai.evaluation.score.value"]?.value;
    expect([value("g1", "recall@1"), label("g1", "recall@1"), value("g2", "recall@1"), label("g2", "recall@1"), label("g2", "recall@3")]).toEqual([1, "hit", 0, "miss", "hit"]);
    expect(value("g2", "mrr")).toBeCloseTo(1 / 3, 15);
    // g1's one claim is SUPPORTED; g2 says 5433 where the chunk says 5432: CONTRADICTED.
    expect([value("g1", "grounding"), label("g1", "grounding"), str(ev("g1", "grounding"), "gen_ai.evaluation.explanation")]).toEqual([1, "supported", "1 claim: 1 SUPPORTED"]);
    expect([value("g2", "grounding"), label("g2", "grounding"), str(ev("g2", "grounding"), "gen_ai.evaluation.explanation")]).toEqual([
      0,
      "contradicted",
      "1 claim: 1 CONTRADICTED",
    ]);
    expect([label("g3", "grounding"), value("g3", "abstention"), label("g3", "abstention"), label("g3", "recall@1")]).toEqual(["no_claims", 1, "abstained", "not_applicable"]);
    expect([label("g4", "grounding"), value("g4", "grounding"), label("g4", "relevance")]).toEqual(["target_error", undefined, "target_error"]);
    expect(str(ev("g4", "grounding"), "gen_ai.evaluation.explanation")).toMatch(/500/u);
    // Heuristic judges: no evaluation ended in an error (error.type is for judge_error / context_too_long).
    expect(receiver.records.some((x) => x.attributes["error.type"] !== undefined)).toBe(false);
  });

  it("eval with the endpoint down: the run completes, every score is stored, one warning", async () => {
    const home = path.join(dir, "down");
    const out = path.join(dir, "down.json");
    const t0 = Date.now();
    const r = await cli(["eval", "--golden", goldenFile, "--target", target.url, "--pipeline-version", "fx-1", "--k", "1,3", "--json", out, "--home", home], {
      RAGMETER_EVALUATION_EXPORT_ENDPOINT: "http://127.0.0.1:9/v1/logs", // discard port: nothing listens
      OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: "1000",
    });
    expect(r.code).toBe(0);
    const warnings = r.err.split("\n").filter((l) => l !== "");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: evaluation export to http:\/\/127\.0\.0\.1:9\/v1\/logs failed \(.+\); its events are dropped, the scores are stored$/u);
    const runId = (JSON.parse(await readFile(out, "utf8")) as { run_id: string }).run_id;
    expect(await storedScores(home, runId)).toHaveLength(4 * 14);
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it("serve (the streaming scorer): live scores parented to the generation span of the stored trace", async () => {
    const home = path.join(dir, "serve");
    receiver.records.length = 0;
    const ac = new AbortController();
    let url = "";
    let done: Promise<number> = Promise.resolve(-1);
    await new Promise<void>((ready) => {
      done = serveCommand(
        { out: () => {}, err: () => {}, interactive: false, env: { RAGMETER_EVALUATION_EXPORT_ENDPOINT: `${receiver.base}/` }, cwd: process.cwd() },
        { home, port: 0, host: "127.0.0.1", quietMs: 300 },
        ac.signal,
        (u) => {
          url = u;
          ready();
        },
      );
    });
    const { withContent, noContent } = await startLiveAndDarkSamples(url);
    const ask = (u: string, q: string) =>
      fetch(u, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question: q }) }).then((x) => x.json());
    await ask(withContent.url, "What port does managed PostgreSQL listen on?");
    await ask(withContent.url, "How do I enable automatic top-up?");
    await ask(noContent.url, "What port does managed PostgreSQL listen on?");
    await Promise.all([withContent.stop(), noContent.stop()]);
    await new Promise((r) => setTimeout(r, 800)); // > quiet window
    ac.abort();
    expect(await done).toBe(0); // serve returns once its export is flushed and shut down

    const scores = await storedScores(home, "live");
    // Live traffic stores the live metrics per trace (design §3: grounding, grounding_risk, relevance, context_relevance): 3 traces × 4.
    expect(scores).toHaveLength(12);
    expectMatchesStore(receiver.records, scores, "live");
    const dark = scores.filter((s) => s.status === "content_missing");
    expect(dark.map((s) => s.metric).sort()).toEqual(["context_relevance", "grounding", "grounding_risk", "relevance"]);

    // The generation span of each trace, found from the stored spans on their own.
    const ops = await storedOperationSpans(home);
    expect(ops.size).toBe(3);
    // grounding and relevance read the answer: the chat span; context relevance reads the retrieval alone: its span
    for (const rec of receiver.records) {
      const op = str(rec, "gen_ai.evaluation.name") === "context_relevance" ? "retrieval" : "chat";
      expect(rec.spanId).toBe(ops.get(rec.traceId)?.get(op));
    }
    expect(receiver.records.every((x) => x.resource["service.name"]?.value === "ragmeter-scorer")).toBe(true);
  }, 60_000);

  it("eval --via-traces on the bundled sample: recall@k and MRR parented to the retrieval span, the rest to the chat span", async () => {
    const home = path.join(dir, "via");
    const out = path.join(dir, "via.json");
    receiver.records.length = 0;
    const otlpPort = await freePort();
    const sample = await startSampleTracingTo(otlpPort);
    try {
      const r = await cli(
        ["eval", "--golden", SAMPLE_GOLDEN_FILE, "--target", sample.url, "--pipeline-version", "sample-v1", "--json", out, "--home", home].concat(viaTracesFlags(otlpPort)),
        { RAGMETER_EVALUATION_EXPORT_ENDPOINT: `${receiver.base}/v1/logs` },
      );
      expect(r.code, r.err).toBe(0);
    } finally {
      await sample.stop();
    }
    const report = JSON.parse(await readFile(out, "utf8")) as { run_id: string; counts: { questions: Record<string, number> } };
    expect(report.counts.questions).toEqual({ ok: 121 });
    const scores = await storedScores(home, report.run_id);
    // 121 questions × 20 metrics (recall, precision and ndcg at 1, 3, 5, 10, mrr, grounding, grounding_risk, relevance, context_relevance, key_facts, abstention, reference_facts)
    expect(scores).toHaveLength(121 * 20);
    expectMatchesStore(receiver.records, scores, report.run_id);
    const ops = await storedOperationSpans(home);
    expect(ops.size).toBe(121);
    for (const rec of receiver.records) {
      const metric = str(rec, "gen_ai.evaluation.name") ?? "";
      // the metrics that read the retrieval alone evaluate its span; the others the chat span
      const op = /^(recall|precision|ndcg)@/u.test(metric) || metric === "mrr" || metric === "context_relevance" ? "retrieval" : "chat";
      expect(rec.spanId, `${metric} of ${rec.traceId}`).toBe(ops.get(rec.traceId)?.get(op));
    }
    expect(new Set(receiver.records.map((x) => x.resource["service.name"]?.value))).toEqual(new Set(["ragmeter-eval"]));
  }, 120_000);

  it("an LLM judge that fails: judge_error events carry error.type, severity WARN and no value", async () => {
    const home = path.join(dir, "llm");
    const out = path.join(dir, "llm.json");
    const twoGolden = path.join(dir, "two.jsonl");
    await writeFile(
      twoGolden,
      GOLDEN.slice(0, 2)
        .map((g) => JSON.stringify(g))
        .join("\n"),
    );
    const llm = await startFakeOpenAI(() => ({ content: "I would rather not answer in JSON." }));
    receiver.records.length = 0;
    try {
      const r = await cli(["eval", "--golden", twoGolden, "--target", target.url, "--pipeline-version", "fx-llm", "--k", "1", "--json", out, "--home", home], {
        RAGMETER_EVALUATION_EXPORT_ENDPOINT: receiver.base,
        OPENAI_BASE_URL: llm.baseURL,
        RAGMETER_JUDGE_MODEL: "judge-x",
        RAGMETER_JUDGE_RETRIES: "0",
      });
      expect(r.code, r.err).not.toBe(2);
    } finally {
      await llm.close();
    }
    const runId = (JSON.parse(await readFile(out, "utf8")) as { run_id: string }).run_id;
    const scores = await storedScores(home, runId);
    expectMatchesStore(receiver.records, scores, runId);
    const judged = receiver.records.filter((x) => ["grounding", "relevance"].includes(str(x, "gen_ai.evaluation.name") ?? ""));
    // 2 questions × grounding and relevance, every one a judge_error (reference_facts: no reference answer, not_applicable)
    expect(judged).toHaveLength(4);
    for (const x of judged) {
      expect([str(x, "ragmeter.score.status"), str(x, "error.type"), str(x, "gen_ai.evaluation.score.label"), x.severityNumber, x.severityText]).toEqual([
        "judge_error",
        "judge_error",
        "judge_error",
        13,
        "WARN",
      ]);
      expect(x.attributes["gen_ai.evaluation.score.value"]).toBeUndefined();
      expect([str(x, "ragmeter.judge.kind"), str(x, "ragmeter.judge.model")]).toEqual(["llm", "judge-x"]);
    }
    // The mechanical metrics were measured: values, INFO, no error.type.
    const recall = receiver.records.filter((x) => str(x, "gen_ai.evaluation.name") === "recall@1");
    expect(recall.map((x) => [x.attributes["gen_ai.evaluation.score.value"]?.value, x.severityNumber, x.attributes["error.type"]]).sort()).toEqual([
      [0, 9, undefined],
      [1, 9, undefined],
    ]);
  }, 60_000);
});
