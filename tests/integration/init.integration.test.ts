// `ragmeter init` (issue 37): from the URL of a RAG service ragmeter did not write to a first stored
// eval run in three commands, none of them an edited file — the real CLI binary in a fresh folder:
// `init --yes`, `eval` with the files it wrote, `runs --json`. Then the same against a service of
// another shape (question as "query", top_k required), and the one-line failures.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { runCli } from "../../scorer/src/cli/main.js";
import { cli } from "../helpers/cli.js";
import { startOtherShapeService } from "../helpers/otherShapeTarget.js";
import { startSampleServeChild } from "../helpers/sampleServe.js";

const root = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(root, "scorer/bin/ragmeter.js");
// the heuristic judges and the embedded store of the folder, whatever the shell has set
const ENV = { ...process.env, OPENAI_BASE_URL: "", RAGMETER_JUDGE_MODEL: "", CLICKHOUSE_URL: "", RAGMETER_HOME: "", CI: "true" };

/** One `ragmeter` command in `cwd`, as a person types it. */
function ragmeter(cwd: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env: ENV, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, out: stdout, err: stderr });
    });
  });
}

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), "ragmeter-init-"));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe("init → eval → a stored run, against the sample server (npm run sample:serve)", () => {
  let sample: Awaited<ReturnType<typeof startSampleServeChild>>;
  beforeAll(async () => {
    sample = await startSampleServeChild({});
  }, 60_000);
  afterAll(async () => sample?.stop());

  it("takes three commands and no edited file", async () => {
    const dir = await freshDir();
    const question = "How long is the grace period when my balance reaches zero?";
    const init = await ragmeter(dir, ["init", "--url", sample.url, "--question", question, "--yes"]);
    expect(init.code, init.err).toBe(0);
    expect(init.out).toContain(`POST ${sample.url} {"question":"${question}"} → a reply with an answer`);
    expect(init.out).toContain("  answer       $.answer ");
    expect(init.out).toContain("  contexts     $.contexts[*]  (10 in this reply)");
    expect(init.out).toMatch(/^checked: eval's mapping reads this reply as an answer of \d+ characters and 10 contexts$/mu);
    expect(init.out).toContain("wrote ragmeter.target.json\nwrote ragmeter.golden.jsonl\nwrote .github/workflows/ragmeter.yml\n");

    // the starter item: the top context's document and a sentence of it (the sample's own reply, asked here independently)
    const reply = (await (await fetch(sample.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question }) })).json()) as {
      contexts: { document_id: string; text: string }[];
    };
    const top = reply.contexts[0];
    const starter = JSON.parse((await readFile(path.join(dir, "ragmeter.golden.jsonl"), "utf8")).split("\n").find((l) => l.startsWith("{")) ?? "") as Record<string, unknown>;
    expect(starter).toMatchObject({ id: "starter-1", question, expected_source: top?.document_id, unconfirmed: true, tags: ["starter"] });
    expect(top?.text.replace(/\s+/gu, " ")).toContain(starter["expected_substring"]);

    const run = await ragmeter(dir, ["eval", "--golden", "ragmeter.golden.jsonl", "--target-config", "ragmeter.target.json", "--pipeline-version", "v1", "--json", "run.json"]);
    expect(run.code, run.err).toBe(0);
    const json = JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")) as { run_id: string; metrics: Record<string, number | null> };
    // the starter's expected source is the top context: a hit at rank 1
    expect(json.metrics["recall@1"]).toBe(1);

    const runs = await ragmeter(dir, ["runs", "--json"]);
    expect(runs.code, runs.err).toBe(0);
    const stored = JSON.parse(runs.out) as { run_id: string; status: string; pipeline_version: string }[];
    expect(stored.map((r) => [r.run_id, r.pipeline_version])).toEqual([[json.run_id, "v1"]]);
    expect(existsSync(path.join(dir, ".ragmeter"))).toBe(true);

    // the drafted file passes golden check, with the warning on its unconfirmed item
    const check = await ragmeter(dir, ["golden", "check", "ragmeter.golden.jsonl"]);
    expect(check.code).toBe(0);
    expect(check.err).toContain("warning: 1 of 1 items unconfirmed (drafted, no person has checked them): starter-1");

    // the workflow runs eval with the written files, then the gate
    const wf = parseYaml(await readFile(path.join(dir, ".github/workflows/ragmeter.yml"), "utf8")) as { jobs: { ragmeter: { steps: { run?: string }[] } } };
    const runsOf = wf.jobs.ragmeter.steps.map((s) => s.run ?? "").join("\n");
    expect(runsOf).toContain('npx ragmeter eval --golden ragmeter.golden.jsonl --target-config ragmeter.target.json --pipeline-version "$GITHUB_SHA" --json ragmeter-run.json');
    expect(runsOf).toContain('npx ragmeter compare "$BASELINE" "$CANDIDATE" --fail-on "recall@5<-0.05,grounding<-0.03"');

    // a second init writes nothing over the files without --force
    const again = await ragmeter(dir, ["init", "--url", sample.url, "--question", question, "--yes"]);
    expect(again.code).toBe(2);
    expect(again.err.trim()).toBe(
      "ragmeter: init: ragmeter.target.json, ragmeter.golden.jsonl, .github/workflows/ragmeter.yml already exist: nothing written (--force overwrites)",
    );
    const forced = await ragmeter(dir, ["init", "--url", sample.url, "--question", question, "--yes", "--force", "--no-workflow"]);
    expect(forced.code, forced.err).toBe(0);
    expect(forced.out).toContain("wrote ragmeter.target.json (overwritten: --force)");
  }, 180_000);

  it("on a terminal, asks once before writing: no writes nothing, yes writes", async () => {
    const dir = await freshDir();
    const asked: string[] = [];
    const run = async (answer: boolean) => {
      let out = "";
      const code = await runCli(["node", "ragmeter", "init", "--url", sample.url, "--question", "Which port does managed Postgres listen on?", "--no-workflow"], {
        out: (t) => (out += `${t}\n`),
        err: (t) => (out += `${t}\n`),
        interactive: false,
        env: {},
        cwd: dir,
        confirm: async (q) => {
          asked.push(q);
          return answer;
        },
      });
      return { code, out };
    };
    const no = await run(false);
    expect(no.code).toBe(0);
    expect(no.out).toContain("nothing written");
    expect(existsSync(path.join(dir, "ragmeter.target.json"))).toBe(false);
    const yes = await run(true);
    expect(yes.code).toBe(0);
    expect(asked).toEqual(["Write these 2 files?", "Write these 2 files?"]);
    expect(existsSync(path.join(dir, "ragmeter.target.json")) && existsSync(path.join(dir, "ragmeter.golden.jsonl"))).toBe(true);
  }, 60_000);

  it("without --yes and no terminal, says what it would write and writes nothing", async () => {
    const dir = await freshDir();
    const r = await ragmeter(dir, ["init", "--url", sample.url, "--question", "What does point-in-time recovery restore?"]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("will write:\n  ragmeter.target.json ");
    expect(r.err.trim()).toBe("ragmeter: init: nothing written: stdin is not a terminal to confirm on; run again with --yes to write these files");
    expect(existsSync(path.join(dir, "ragmeter.target.json"))).toBe(false);
  }, 60_000);
});

describe("init against a service of another shape", () => {
  it("finds that it takes the question as query with top_k, and the config it writes evaluates", async () => {
    const svc = await startOtherShapeService({
      "Which port does managed Postgres listen on?": {
        response: "Managed Postgres listens on port 5432 for every plan.",
        sources: [
          { chunk: "pg-3", doc: "postgres/connecting.md", content: "Every managed Postgres instance listens on port 5432. Use TLS.", score: 0.93 },
          { chunk: "bk-1", doc: "backups/intro.md", content: "Backups run every night at two in the morning.", score: 0.31 },
        ],
      },
    });
    try {
      const dir = await freshDir();
      const url = `${svc.url}/search`;
      const init = await ragmeter(dir, ["init", "--url", url, "--question", "Which port does managed Postgres listen on?", "--yes", "--no-workflow"]);
      expect(init.code, init.err).toBe(0);
      expect(init.out).toContain(`POST ${url} {"question":"{{question}}"} → HTTP 400: bad request`);
      expect(init.out).toContain('the service takes the question as "query" with "top_k"');
      const cfg = JSON.parse(await readFile(path.join(dir, "ragmeter.target.json"), "utf8")) as unknown;
      expect(cfg).toEqual({
        url,
        method: "POST",
        body: { query: "{{question}}", top_k: "{{k}}" },
        response: { answer: "$.response", contexts: "$.sources[*]", context: { id: "$.chunk", document_id: "$.doc", text: "$.content", score: "$.score" } },
      });
      expect(existsSync(path.join(dir, ".github"))).toBe(false);
      const run = await ragmeter(dir, ["eval", "--golden", "ragmeter.golden.jsonl", "--target-config", "ragmeter.target.json", "--pipeline-version", "v1", "--json", "run.json"]);
      expect(run.code, run.err).toBe(0);
      const json = JSON.parse(await readFile(path.join(dir, "run.json"), "utf8")) as { metrics: Record<string, number | null> };
      expect(json.metrics["recall@1"]).toBe(1);
    } finally {
      await svc.close();
    }
  }, 120_000);
});

describe("init --module", () => {
  it("asks the module, writes the starter set and a workflow that runs eval --target-module; eval then stores a run", async () => {
    const dir = await freshDir();
    await writeFile(
      path.join(dir, "my-rag.mjs"),
      `export async function ask(question, { k }) {
  return { answer: "Backups are kept for 14 days on every plan.", contexts: [
    { id: "b#1", document_id: "backups.md", text: "Intro line. Backups are kept for 14 days. Restores take an hour.", score: 0.9 },
    { id: "p#1", document_id: "plans.md", text: "Plans differ in memory and disk.", score: 0.1 },
  ].slice(0, k) };
}
`,
    );
    let out = "";
    const io = { out: (t: string) => (out += `${t}\n`), err: (t: string) => (out += `${t}\n`), interactive: false, env: {}, cwd: dir };
    const code = await runCli(["node", "ragmeter", "init", "--module", "my-rag.mjs", "--question", "How long are backups kept?", "--yes"], io);
    expect(code, out).toBe(0);
    expect(out).toContain("the module answers {answer, contexts} itself: no target config needed (eval --target-module my-rag.mjs)");
    expect(out).toContain("wrote ragmeter.golden.jsonl\nwrote .github/workflows/ragmeter.yml\n");
    expect(existsSync(path.join(dir, "ragmeter.target.json"))).toBe(false);
    const golden = await readFile(path.join(dir, "ragmeter.golden.jsonl"), "utf8");
    expect(golden).toContain('"expected_source":"backups.md","expected_substring":"Backups are kept for 14 days."');
    expect(await readFile(path.join(dir, ".github/workflows/ragmeter.yml"), "utf8")).toContain("npx ragmeter eval --golden ragmeter.golden.jsonl --target-module my-rag.mjs ");
    const r = await cli([
      "eval",
      "--golden",
      path.join(dir, "ragmeter.golden.jsonl"),
      "--target-module",
      path.join(dir, "my-rag.mjs"),
      "--pipeline-version",
      "m1",
      "--home",
      path.join(dir, "home"),
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/recall@1\s+1\.00/u);
  }, 60_000);
});

describe("init's one-line failures (exit 2)", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/html") return void res.writeHead(200, { "content-type": "text/html" }).end("<html><body>hello</body></html>");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok", id: "x-1" }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const errLines = (err: string): string[] => err.split("\n").filter((l) => l.trim() !== "");

  it("an unreachable URL", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await cli(["init", "--url", `http://127.0.0.1:${port}/ask`, "--yes"]);
    expect(r.code).toBe(2);
    expect(errLines(r.err)).toHaveLength(1);
    expect(r.err).toMatch(new RegExp(`^ragmeter: init: http://127\\.0\\.0\\.1:${port}/ask is unreachable: request failed: .*ECONNREFUSED`, "u"));
  });

  it("a reply that is not JSON", async () => {
    const r = await cli(["init", "--url", `${base}/html`, "--yes"]);
    expect(r.code).toBe(2);
    expect(errLines(r.err)).toEqual([`ragmeter: init: ${base}/html answered, but the reply is not JSON; it starts "<html><body>hello</body></html>"`]);
  });

  it("a reply with no text that looks like an answer", async () => {
    const r = await cli(["init", "--url", `${base}/ask`, "--yes"]);
    expect(r.code).toBe(2);
    expect(errLines(r.err)).toEqual([
      `ragmeter: init: ${base}/ask: the reply has no text that looks like an answer (a string of three or more words outside the contexts); string fields: $.status, $.id; the reply starts "{\\"status\\":\\"ok\\",\\"id\\":\\"x-1\\"}"`,
    ]);
  });

  it("a module that is not there", async () => {
    const dir = await freshDir();
    await writeFile(path.join(dir, "noask.mjs"), "export const x = 1;\n");
    const r = await cli(["init", "--module", path.join(dir, "noask.mjs"), "--yes"]);
    expect(r.code).toBe(2);
    expect(errLines(r.err)[0]).toContain('exports no function "ask"');
  });
});
