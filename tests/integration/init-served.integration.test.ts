// `ragmeter init` (issue 37) on a RAG service whose HTTP shape ragmeter did not design: a LangChain
// retrieval chain served by LangServe (tests/python/programs/langserve_app.py, a real uvicorn
// process with the pinned langserve), its LLM the local scripted OpenAI-compatible server. The
// three commands of docs/commands.md, as a person types them, in a fresh folder: `init --url … --yes`,
// `eval` with the files it wrote, `runs --json`. No file is edited between them.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI } from "../helpers/openaiServer.js";
import { type PythonService, startPythonService, testPython } from "../helpers/pythonPrograms.js";

const root = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(root, "scorer/bin/ragmeter.js");
// the heuristic judges and the embedded store of the folder, whatever the shell has set
const ENV = { ...process.env, OPENAI_BASE_URL: "", RAGMETER_JUDGE_MODEL: "", CLICKHOUSE_URL: "", RAGMETER_HOME: "", CI: "true" };

/** rag_common.QUESTION: its keyword retrieval ranks kb-refunds-1 (score 4/5), kb-refunds-2 (2/5), kb-shipping-1 (1/5). */
const QUESTION = "How many days do customers have to ask for a refund?";
const ANSWER = "Customers have 30 days to ask for a refund.";

/** One `ragmeter` command in `cwd`, as a person types it, timed. */
function ragmeter(cwd: string, args: string[]): Promise<{ code: number; out: string; err: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env: ENV, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, out: stdout, err: stderr, ms: performance.now() - t0 });
    });
  });
}

describe("init → eval → a stored run, against a LangChain chain served by LangServe", () => {
  let ai: Awaited<ReturnType<typeof startFakeOpenAI>>;
  let svc: PythonService;
  let dir = "";
  beforeAll(async () => {
    const python = testPython();
    ai = await startFakeOpenAI(() => ({ content: ANSWER }));
    svc = await startPythonService(python, "langserve_app.py", ai.baseURL);
    dir = await mkdtemp(path.join(tmpdir(), "ragmeter-init-served-"));
  }, 900_000);
  afterAll(async () => {
    await svc?.stop();
    await ai?.close();
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });

  it("takes three commands and no edited file", async () => {
    const url = `${svc.baseURL}/rag/invoke`;
    const init = await ragmeter(dir, ["init", "--url", url, "--question", QUESTION, "--yes"]);
    expect(init.code, `${init.err}\n${svc.output()}`).toBe(0);
    // LangServe refuses the flat bodies (422, field "input" missing), takes the question inside "input"
    expect(init.out).toContain(`POST ${url} {"question":"{{question}}"} → HTTP 422: {"detail":[{"type":"missing","loc":["input"]`);
    expect(init.out).toContain(`POST ${url} {"input":{"input":${JSON.stringify(QUESTION)}}} → a reply with an answer`);
    expect(init.out).toContain('the service takes the question as "input.input"');
    expect(init.out).toMatch(/^checked: eval's mapping reads this reply as an answer of 43 characters and 3 contexts$/mu);

    // the config, read off the reply by hand: {"output": {"input", "context": [Document], "answer"}, "metadata": {…}}
    const cfg = JSON.parse(await readFile(path.join(dir, "ragmeter.target.json"), "utf8")) as unknown;
    expect(cfg).toEqual({
      url,
      method: "POST",
      body: { input: { input: "{{question}}" } },
      response: {
        answer: "$.output.answer",
        contexts: "$.output.context[*]",
        context: { id: "$.id", document_id: "$.metadata.source", text: "$.page_content", score: "$.metadata.score" },
      },
    });
    // the starter item: the top document of rag_common's keyword retrieval, kb-refunds-1 (source "acme-kb")
    const golden = await readFile(path.join(dir, "ragmeter.golden.jsonl"), "utf8");
    const starter = JSON.parse(golden.split("\n").find((l) => l.startsWith("{")) ?? "") as Record<string, unknown>;
    expect(starter).toEqual({
      id: "starter-1",
      question: QUESTION,
      expected_source: "acme-kb",
      expected_substring: "Refunds: customers can ask for a refund within 30 days of purchase.",
      tags: ["starter"],
      unconfirmed: true,
    });

    const run = await ragmeter(dir, ["eval", "--golden", "ragmeter.golden.jsonl", "--target-config", "ragmeter.target.json", "--pipeline-version", "v1"]);
    expect(run.code, `${run.err}\n${svc.output()}`).toBe(0);

    const runs = await ragmeter(dir, ["runs", "--json"]);
    expect(runs.code, runs.err).toBe(0);
    const stored = JSON.parse(runs.out) as { run_id: string; status: string; pipeline_version: string; metrics: Record<string, number | null> }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: "completed", pipeline_version: "v1" });
    // the expected source is the first context: found at rank 1
    expect(stored[0]?.metrics).toMatchObject({ "recall@1": 1, "recall@5": 1, mrr: 1 });

    // the chain really ran its LLM once per question (init's and eval's), with the retrieved text in the prompt
    expect(ai.requests).toHaveLength(2);
    for (const r of ai.requests) expect(JSON.stringify(r.body.messages)).toContain("[kb-refunds-1] Refunds: customers can ask for a refund within 30 days of purchase.");
    process.stderr.write(
      `[init-served] init ${Math.round(init.ms)} ms (${init.out.split("\n").filter((l) => l.startsWith("POST ")).length} requests), eval ${Math.round(run.ms)} ms, runs ${Math.round(runs.ms)} ms\n`,
    );
  }, 300_000);
});
