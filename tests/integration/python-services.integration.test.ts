import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractInteraction, type Interaction } from "../../core/src/extract/interaction.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { judgePromptVersion } from "../../core/src/judges/promptVersion.js";
import { scoreTrace, traceRows } from "../../core/src/scoring/trace.js";
import { rescoreCommand } from "../../scorer/src/cli/rescoreCommand.js";
import { serveCommand } from "../../scorer/src/cli/streamCommands.js";
import { rescore } from "../../scorer/src/runs/rescore.js";
import { withChunkTexts } from "../../store/src/chunks.js";
import { openStore, type Store } from "../../store/src/client.js";
import { saveResults } from "../../store/src/results.js";
import { loadTraces } from "../../store/src/spans.js";
import { startFakeOpenAI } from "../helpers/openaiServer.js";
import { type ProgramRun, runProgram, testPython } from "../helpers/pythonPrograms.js";

// Python RAG services as a user writes them (issue 28): each program under tests/python/programs
// runs a real framework with a real instrumentation library (pinned in tests/python/requirements.txt),
// calls the local OpenAI-compatible server through the real `openai` client, and exports its spans
// with opentelemetry-exporter-otlp-proto-http to a running `ragmeter serve` (embedded store, heuristic
// judge). What serve stored is compared with what the program printed it produced.

const ANSWER = "Customers have 30 days to ask for a refund.";
const USAGE = { prompt_tokens: 187, completion_tokens: 11 };
const MODEL = "gpt-4o-mini";

/** The programs, by the service name each reports. */
const PROGRAMS: Record<string, { script: string; args: string[] }> = {
  "py-langchain-openinference": { script: "langchain_app.py", args: ["openinference"] },
  "py-langchain-openllmetry": { script: "langchain_app.py", args: ["openllmetry"] },
  "py-llamaindex-openinference": { script: "llamaindex_app.py", args: ["openinference"] },
  "py-llamaindex-openllmetry": { script: "llamaindex_app.py", args: ["openllmetry"] },
  "py-llamaindex-synth-nodes": { script: "llamaindex_synth.py", args: ["nodes"] },
  "py-llamaindex-synth-text_chunks": { script: "llamaindex_synth.py", args: ["text_chunks"] },
  "py-haystack-openinference": { script: "haystack_app.py", args: [] },
  "py-openai-v2-handwritten": { script: "openai_app.py", args: ["handwritten"] },
  "py-openai-v2-util-genai": { script: "openai_app.py", args: ["util-genai"] },
  "py-dspy-openinference": { script: "dspy_app.py", args: [] },
};

interface StoredRow {
  trace_id: string;
  question: string;
  answer: string | null;
  retrieved: { id: string; document_id: string; text: string; score: number | null; rank: number }[];
  generator_model: string | null;
  input_tokens: string | null;
  output_tokens: string | null;
}
interface ScoreRow {
  metric: string;
  status: string;
  reason: string;
}

const runs = new Map<string, ProgramRun>();
const stored = new Map<string, StoredRow[]>();
const scores = new Map<string, ScoreRow[]>();
let store: Store | null = null;
let home = "";
let started = new Date();

const io = (env: NodeJS.ProcessEnv) => ({ out: () => {}, err: () => {}, interactive: false, env, cwd: process.cwd() });

beforeAll(async () => {
  const python = testPython();
  // DSPy's ChatAdapter asks for its fields in `[[ ## name ## ]]` sections, and reads the reply so.
  const ai = await startFakeOpenAI((r) => ({
    content: JSON.stringify(r.body.messages).includes("[[ ## response ## ]]") ? `[[ ## response ## ]]\n${ANSWER}\n\n[[ ## completed ## ]]` : ANSWER,
    usage: USAGE,
  }));
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-python-"));
  started = new Date(Date.now() - 1000);
  const ac = new AbortController();
  let otlpUrl = "";
  let served: Promise<number> = Promise.resolve(0);
  await new Promise<void>((ready) => {
    served = serveCommand(io({}), { home, port: 0, host: "127.0.0.1", quietMs: 300 }, ac.signal, (u) => {
      otlpUrl = u;
      ready();
    });
  });
  try {
    for (const [service, p] of Object.entries(PROGRAMS)) runs.set(service, await runProgram(python, p.script, p.args, { otlpUrl, openaiBaseURL: ai.baseURL }));
    await new Promise((r) => setTimeout(r, 800)); // > quiet window
  } finally {
    ac.abort();
    expect(await served).toBe(0);
    await ai.close();
  }
  store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  const rs = await store.client.query({
    query:
      "SELECT service_name, trace_id, question, answer, retrieved, chunk_hashes, generator_model, toString(input_tokens) AS input_tokens, toString(output_tokens) AS output_tokens FROM ragmeter.interactions FINAL",
    format: "JSONEachRow",
  });
  // The chunks' text is stored once, by hash (design §12, chunks): read it back as the scorer's reads do.
  for (const r of await withChunkTexts(store, (await rs.json()) as (StoredRow & { service_name: string; chunk_hashes: string[] })[]))
    stored.set(r.service_name, [...(stored.get(r.service_name) ?? []), r]);
  const ss = await store.client.query({
    query:
      "SELECT i.service_name AS service_name, s.metric AS metric, s.status AS status, s.reason AS reason FROM ragmeter.scores AS s FINAL INNER JOIN ragmeter.interactions AS i FINAL ON i.trace_id = s.trace_id ORDER BY metric",
    format: "JSONEachRow",
  });
  for (const r of (await ss.json()) as (ScoreRow & { service_name: string })[]) scores.set(r.service_name, [...(scores.get(r.service_name) ?? []), r]);
}, 900_000);

afterAll(async () => {
  await store?.close();
});

/** The one stored interaction of a program's trace, after checking the program ran. */
function storedOf(service: string): { row: StoredRow; run: ProgramRun & { produced: NonNullable<ProgramRun["produced"]> } } {
  const run = runs.get(service);
  expect(run?.code, `${service} failed:\n${run?.output}`).toBe(0);
  expect(run?.produced, `${service} printed no result:\n${run?.output}`).not.toBeNull();
  const rows = stored.get(service) ?? [];
  expect(rows, `${service}: one interaction stored`).toHaveLength(1);
  return { row: rows[0]!, run: run as ProgramRun & { produced: NonNullable<ProgramRun["produced"]> } };
}

/** The stored reading equals what the program produced: question, items in rank order, answer, model, tokens. */
/**
 * What an instrumentation does not record at all (`textsOnly`: documents as bare passages, without
 * ids, document ids or scores; `noTokens`: no usage on the LLM span) is stored empty, never made up.
 */
function expectReadRight(service: string, opts: { textsOnly?: boolean; noTokens?: boolean } = {}): void {
  const { row, run } = storedOf(service);
  const p = run.produced;
  expect(row.question).toBe(p.question);
  expect(row.retrieved.map((d) => d.rank)).toEqual(p.retrieved.map((_, i) => i + 1));
  expect(row.retrieved.map((d) => d.id)).toEqual(p.retrieved.map((d) => (opts.textsOnly ? "" : d.id)));
  expect(row.retrieved.map((d) => d.document_id)).toEqual(p.retrieved.map((d) => (opts.textsOnly ? "" : d.document_id)));
  expect(row.retrieved.map((d) => d.text)).toEqual(p.retrieved.map((d) => d.text));
  expect(row.retrieved.map((d) => d.score)).toEqual(p.retrieved.map((d) => (opts.textsOnly ? null : d.score)));
  expect(row.answer).toBe(p.answer);
  expect(p.answer).toBe(ANSWER);
  expect(row.generator_model).toBe(MODEL);
  expect([row.input_tokens, row.output_tokens]).toEqual(opts.noTokens ? [null, null] : [String(USAGE.prompt_tokens), String(USAGE.completion_tokens)]);
  if (p.input_tokens !== null) expect([p.input_tokens, p.output_tokens]).toEqual([USAGE.prompt_tokens, USAGE.completion_tokens]);
  // Read with confidence: the judged metrics are scored (heuristic judge), never skipped.
  expect((scores.get(service) ?? []).map((s) => [s.metric, s.status])).toEqual([
    ["context_relevance", "ok"],
    ["grounding", "ok"],
    ["grounding_risk", "ok"],
    ["relevance", "ok"],
  ]);
}

describe("Python RAG services through their instrumentation libraries, exported to ragmeter serve (design §4)", () => {
  it("LangChain through OpenInference (openinference-instrumentation-langchain): question, chunk ids, document ids, texts, scores in rank order, answer, model, tokens", () => {
    expectReadRight("py-langchain-openinference");
  });

  it("LangChain through OpenLLMetry (opentelemetry-instrumentation-langchain): the question is the retriever's query (traceloop.entity.input), not its class name", () => {
    expectReadRight("py-langchain-openllmetry");
  });

  it("LlamaIndex through OpenInference (openinference-instrumentation-llama-index): answer and tokens from the inner LLM span (OpenAI.chat), not the outer OpenAI.predict", () => {
    expectReadRight("py-llamaindex-openinference");
  });

  it("LlamaIndex through OpenLLMetry (opentelemetry-instrumentation-llamaindex + -openai): documents from the retriever task's output, question the query, not the rendered prompt", () => {
    expectReadRight("py-llamaindex-openllmetry");
  });

  it("LlamaIndex's response synthesizer given nodes the program found itself (OpenLLMetry): the documents from the nodes it was given, with ids and scores", () => {
    expectReadRight("py-llamaindex-synth-nodes");
  });

  it("never ok on a guess: the synthesizer given plain texts (OpenLLMetry) leaves only the splitter's joined text; grounding uncertain_reading naming the span and attribute, relevance scored", () => {
    const service = "py-llamaindex-synth-text_chunks";
    const { row, run } = storedOf(service);
    const p = run.produced;
    expect([row.question, row.answer]).toEqual([p.question, p.answer]);
    // One item without id or score: LlamaIndex joins the chunks with a blank line before splitting.
    expect(row.retrieved).toEqual([{ id: "", document_id: "", text: p.retrieved.map((d) => d.text).join("\n\n"), score: null, rank: 1 }]);
    const s = Object.fromEntries((scores.get(service) ?? []).map((x) => [x.metric, x]));
    expect([s["grounding"]?.status, s["relevance"]?.status]).toEqual(["uncertain_reading", "ok"]);
    expect(s["grounding"]?.reason).toMatch(
      /^retrieval read from a fallback: a list of 1 bare text\(s\), no ids or scores, read as the retrieved documents \(span TokenTextSplitter\.task \([0-9a-f]{16}\), attribute traceloop\.entity\.output\)$/,
    );
  });

  it("Haystack through OpenInference (openinference-instrumentation-haystack): a pipeline with a retriever component, ChatPromptBuilder and OpenAIChatGenerator", () => {
    expectReadRight("py-haystack-openinference");
  });

  it("plain OpenAI through opentelemetry-instrumentation-openai-v2 with a hand-written OTel GenAI retrieval span; the chat's content only in OTLP log events", () => {
    expectReadRight("py-openai-v2-handwritten");
  });

  it("plain OpenAI through opentelemetry-instrumentation-openai-v2 with opentelemetry-util-genai's retrieval span; content on spans", () => {
    expectReadRight("py-openai-v2-util-genai");
  });

  it("DSPy through OpenInference (openinference-instrumentation-dspy): the answer is the output field of the ChatAdapter's reply; passages are texts only and the LM span has no usage, so those stay empty", () => {
    expectReadRight("py-dspy-openinference", { textsOnly: true, noTokens: true });
    // The program itself saw the usage: the instrumentation does not record it.
    expect([runs.get("py-dspy-openinference")?.produced?.input_tokens, runs.get("py-dspy-openinference")?.produced?.output_tokens]).toEqual([
      USAGE.prompt_tokens,
      USAGE.completion_tokens,
    ]);
  });
});

describe("ragmeter rescore: traces stored with a reader that was wrong are re-read from their spans and re-scored", () => {
  const KS = [1, 3, 5, 10];
  const FIRST_SCORED = Date.parse("2026-11-30T10:00:00Z");
  type Row = { trace_id: string; metric: string; judge_prompt_version: string; value: number | null; status: string };
  const scoreRows = async (ids: readonly string[]): Promise<Row[]> =>
    (await (
      await store!.client.query({
        query:
          "SELECT trace_id, metric, judge_prompt_version, value, status FROM ragmeter.scores FINAL WHERE trace_id IN {ids:Array(String)} ORDER BY trace_id, metric, judge_prompt_version",
        query_params: { ids },
        format: "JSONEachRow",
      })
    ).json()) as Row[];
  const meanOk = (rows: readonly Row[], metric: string): number => {
    const xs = rows.filter((r) => r.metric === metric && r.status === "ok").map((r) => r.value as number);
    return xs.reduce((a, x) => a + x, 0) / xs.length;
  };

  it("only the traces whose reading changed, one score per trace and metric, the time first scored kept; the aggregates move back to the right reading", async () => {
    const judge = createHeuristicJudge();
    const current = judgePromptVersion(judge);
    const idOf = (service: string) => stored.get(service)![0]!.trace_id;
    const [a, b, c] = [idOf("py-langchain-openllmetry"), idOf("py-llamaindex-openllmetry"), idOf("py-langchain-openinference")];
    const right = await scoreRows([a, b, c]);
    const traces = await loadTraces(store!, [a, b]);
    // What the readers before issue 28 stored (the findings), scored as they scored it:
    // A: the question was the retriever's class name (same judge); B: the rendered prompt as the
    // question and one item of the joined chunks, under an older judge prompt version.
    const wrongly = async (id: string, wrong: (i: Interaction) => Interaction, promptVersion: string) => {
      const t = traces.get(id)!;
      const i = extractInteraction(id, t.spans, t.logs);
      const s = await scoreTrace(id, t.spans, t.logs, { judge, ks: KS, liveSampleRate: 1, golden: null }, wrong(i));
      const rows = traceRows(s, judge, KS, promptVersion);
      const pv = { judge_prompt_version: promptVersion };
      // under the current judge each row keeps its task's version; under an older one, every row has the older version
      const older = promptVersion !== current;
      await saveResults(store!, {
        interactions: [{ ...rows.interaction, ...pv, created_at: FIRST_SCORED }],
        scores: rows.scores.map((r) => (older ? { ...r, ...pv } : r)),
        claims: rows.claims.map((r) => (older ? { ...r, ...pv } : r)),
      });
    };
    await wrongly(a, (i) => ({ ...i, question: "KeywordRetriever" }), current);
    const promptOf = (i: Interaction): string => {
      const chat = traces.get(b)!.spans.find((x) => x.attributes["gen_ai.operation.name"] === "chat")!;
      return (JSON.parse(chat.attributes["gen_ai.input.messages"] as string) as { role: string; parts: { content: string }[] }[]).at(-1)!.parts[0]!.content ?? i.question!;
    };
    await wrongly(
      b,
      (i) => ({ ...i, question: promptOf(i), retrieved: [{ id: null, document_id: null, text: i.retrieved!.map((d) => d.text).join("\n\n"), score: null }], guesses: [] }),
      "heuristic-before",
    );
    // B as stored under the older version alone (each judged metric's rows under the current one go)
    await store!.client.command({
      query: "DELETE FROM ragmeter.scores WHERE trace_id = {b:String} AND judge_prompt_version != {pv:String}",
      query_params: { b, pv: "heuristic-before" },
    });
    const wrong = await scoreRows([a, b, c]);
    // The class name shares no word with the answer: relevance was scored lower than from the query.
    const relevanceOf = (rows: readonly Row[]) => rows.find((r) => r.trace_id === a && r.metric === "relevance");
    expect(relevanceOf(wrong)?.status).toBe("ok");
    expect(relevanceOf(wrong)!.value!).toBeLessThan(relevanceOf(right)!.value!);
    expect(wrong.filter((r) => r.trace_id === b).map((r) => r.judge_prompt_version)).toEqual(["heuristic-before", "heuristic-before", "heuristic-before", "heuristic-before"]);

    const settings = { judge, ks: KS, quietMs: 300, liveSampleRate: 1, concurrency: 2, batchSize: 500, evaluations: null };
    const services = ["py-langchain-openllmetry", "py-llamaindex-openllmetry", "py-langchain-openinference"];
    // Dry run: lists, writes nothing.
    const dry = await Promise.all(services.map((service) => rescore(store!, settings, { service, since: started, dryRun: true })));
    expect(dry.map((r) => [r.traces, r.changed.map((x) => [x.trace_id, x.fields])])).toEqual([
      [1, [[a, ["question"]]]],
      [1, [[b, ["question", "retrieved"]]]],
      [1, []],
    ]);
    expect(await scoreRows([a, b, c])).toEqual(wrong);

    const done = await Promise.all(services.map((service) => rescore(store!, settings, { service, since: started, dryRun: false })));
    expect(done.map((r) => r.changed.length)).toEqual([1, 1, 0]);
    const after = await scoreRows([a, b, c]);
    // One score per trace and metric, each under its task's current prompt version, equal to what serve scored from the right reading.
    expect(after).toEqual(right);
    // (grounding_risk reads the grounding judgment: grounding's version)
    expect(after.every((r) => r.judge_prompt_version === judge.promptVersion[r.metric === "grounding_risk" ? "grounding" : r.metric])).toBe(true);
    expect(meanOk(wrong, "relevance")).not.toBe(meanOk(after, "relevance"));
    expect(meanOk(after, "relevance")).toBe(meanOk(right, "relevance"));
    const rows = (await (
      await store!.client.query({
        query: "SELECT trace_id, question, toUnixTimestamp64Milli(created_at) AS t FROM ragmeter.interactions FINAL WHERE trace_id IN {ids:Array(String)} ORDER BY trace_id",
        query_params: { ids: [a, b] },
        format: "JSONEachRow",
      })
    ).json()) as { trace_id: string; question: string; t: string }[];
    const asked = new Map([
      [a, runs.get("py-langchain-openllmetry")!.produced!.question],
      [b, runs.get("py-llamaindex-openllmetry")!.produced!.question],
    ]);
    expect(rows.map((r) => [r.question, Number(r.t)])).toEqual(rows.map((r) => [asked.get(r.trace_id), FIRST_SCORED]));
  });

  it("the command: a second run finds nothing to re-score (--dry-run --json), and usage errors are one line", async () => {
    await store!.close();
    store = null;
    const out: string[] = [];
    const code = await rescoreCommand(
      { out: (l: string) => out.push(l), err: () => {}, interactive: false, env: {}, cwd: process.cwd() },
      { service: "py-llamaindex-openllmetry", since: started, dryRun: true, json: true, home },
    );
    expect(code).toBe(0);
    expect(JSON.parse(out.join("\n"))).toMatchObject({ service: "py-llamaindex-openllmetry", dry_run: true, traces: 1, without_spans: 0, changed: [] });
    await expect(rescoreCommand(io({}), { since: started, home })).rejects.toThrow("rescore: --service NAME is required");
  });
});
