#!/usr/bin/env node
// `npm run bench:judges:ragas` (issue 13, "Cost against Ragas"): the same answers of the shipped
// set through ragmeter's LLM judges (grounding + relevance) and through Ragas (faithfulness +
// answer_relevancy), both against ONE local OpenAI-compatible server that records usage
// (bench/lib/usage-server.mjs: tokens counted there, o200k_base, over the exact messages received
// and the exact reply sent). Prints calls and tokens per scored answer each side and the ratio
// ragmeter / Ragas (goal ≤ 0.5×); writes test-output/judges-ragas.json.
// Ragas is installed once into ~/.cache/ragmeter/ragas-<version>/venv (a marker file makes a second
// run instant); never the system Python.
// Usage: npm run bench:judges:ragas [-- --cases 40] [-- --json]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createLlmJudge } from "../../core/dist/judges/llm/llmJudge.js";
import { judgeGrounding, judgeRelevance } from "../../core/dist/judges/types.js";
import { startUsageServer } from "../lib/usage-server.mjs";

const RAGAS_VERSION = "0.4.3";
// ragas 0.4.3 leaves langchain-community unpinned, and 0.4.x of it dropped
// `langchain_community.chat_models.vertexai`, which `import ragas` needs (ModuleNotFoundError).
const RAGAS_CONSTRAINTS = ["langchain-community<0.4"];
const GOAL = 0.5;
const INSTALL_TIMEOUT_MS = 20 * 60_000;
const RAGAS_RUN_TIMEOUT_MS = 15 * 60_000;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");

const { values: args } = parseArgs({ options: { cases: { type: "string", default: "40" }, json: { type: "boolean", default: false } } });
const wanted = Number(args.cases);
if (!Number.isInteger(wanted) || wanted < 1) {
  console.error("ragmeter: --cases must be a positive integer");
  process.exit(2);
}

/** Cases with an answer and at least one chunk, balanced across en/ru/zh (round robin), at most `n`. */
function pickCases(n) {
  const all = readFileSync(path.join(here, "cases.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l))
    .filter((c) => c.answer.trim() !== "" && c.chunks.length > 0);
  const byLang = new Map();
  for (const c of all) byLang.set(c.language, [...(byLang.get(c.language) ?? []), c]);
  const lists = [...byLang.values()];
  const out = [];
  for (let i = 0; out.length < n && lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length && out.length < n) out.push(l[i]);
  return out;
}

/** The Ragas venv (installed on first use); returns its python and how the install went. */
function ragasPython() {
  const dir = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "ragmeter", `ragas-${RAGAS_VERSION}`);
  const venv = path.join(dir, "venv");
  const python = path.join(venv, "bin", "python");
  const marker = path.join(dir, "installed.json");
  if (existsSync(marker) && existsSync(python)) return { python, install: { ...JSON.parse(readFileSync(marker, "utf8")), cached: true } };
  const probe = spawnSync("python3", ["-c", "import venv, ensurepip"], { timeout: 30_000 });
  if (probe.error) throw new Error("ragmeter: python3 not found (needed once to install Ragas into a venv)");
  if (probe.status !== 0) throw new Error("ragmeter: python3 has no venv/ensurepip module (e.g. apt-get install python3-venv)");
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  console.error(`installing ragas==${RAGAS_VERSION} into ${venv} (once) …`);
  const mk = spawnSync("python3", ["-m", "venv", venv], { stdio: "inherit", timeout: 120_000 });
  if (mk.status !== 0) throw new Error(`ragmeter: python3 -m venv ${venv} failed`);
  const pip = spawnSync(python, ["-m", "pip", "install", "--disable-pip-version-check", "-q", `ragas==${RAGAS_VERSION}`, ...RAGAS_CONSTRAINTS], {
    stdio: "inherit",
    timeout: INSTALL_TIMEOUT_MS,
  });
  if (pip.status !== 0) throw new Error(`ragmeter: pip install ragas==${RAGAS_VERSION} failed (status ${pip.status ?? pip.signal})`);
  const du = spawnSync("du", ["-sm", venv], { encoding: "utf8", timeout: 60_000 });
  const install = {
    version: RAGAS_VERSION,
    seconds: Math.round((performance.now() - t0) / 1000),
    size_mb: Number.parseInt(du.stdout ?? "", 10) || null,
    at: new Date().toISOString(),
  };
  writeFileSync(marker, JSON.stringify(install));
  return { python, install: { ...install, cached: false } };
}

/** Runs bench/judges/ragas_score.py on the cases (JSON on stdin, JSON on stdout), bounded in time. */
function runRagas(python, baseURL, cases) {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [path.join(here, "ragas_score.py")], {
      env: { ...process.env, OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: "x", RAGAS_DO_NOT_TRACK: "true", PYTHONUNBUFFERED: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`ragmeter: Ragas run exceeded ${RAGAS_RUN_TIMEOUT_MS / 1000} s`));
    }, RAGAS_RUN_TIMEOUT_MS);
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`ragmeter: ragas_score.py exited ${code}:\n${err.slice(-3000)}`));
      else resolve({ ...JSON.parse(out), stderr: err });
    });
    child.stdin.end(JSON.stringify(cases.map((c) => ({ id: c.id, question: c.question, answer: c.answer, contexts: c.chunks.map((k) => k.text) }))));
  });
}

/** How many times each string occurs. */
function countBy(keys) {
  const out = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

function perAnswer(u, n) {
  const total = u.prompt_tokens + u.schema_tokens + u.completion_tokens + u.embedding_tokens;
  return {
    calls: (u.chat_calls + u.embedding_calls) / n,
    chat_calls: u.chat_calls / n,
    embedding_calls: u.embedding_calls / n,
    prompt_tokens: (u.prompt_tokens + u.schema_tokens) / n,
    schema_tokens: u.schema_tokens / n,
    completion_tokens: u.completion_tokens / n,
    embedding_tokens: u.embedding_tokens / n,
    total_tokens: total / n,
  };
}

async function main() {
  const cases = pickCases(wanted);
  const { python, install } = ragasPython();
  const server = await startUsageServer();
  let result;
  try {
    // ragmeter: the product's LLM judge, grounding + relevance per answer (no cache at this level).
    const judge = createLlmJudge({ baseURL: server.url("ragmeter"), apiKey: "x", model: "usage-recorder", timeoutMs: 60_000 });
    const t0 = performance.now();
    const rm = await Promise.all(
      cases.map(async (c) => {
        const g = await judgeGrounding(judge, { question: c.question, answer: c.answer, chunks: c.chunks });
        const r = await judgeRelevance(judge, { question: c.question, answer: c.answer, answerable: true });
        return { id: c.id, grounding: g.value ?? null, grounding_status: g.status, relevance: r.value ?? null, relevance_status: r.status };
      }),
    );
    const rmSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const rg = await runRagas(python, server.url("ragas"), cases);
    const rgSeconds = (performance.now() - t1) / 1000;
    const n = cases.length;
    const zero = { chat_calls: 0, prompt_tokens: 0, schema_tokens: 0, completion_tokens: 0, embedding_calls: 0, embedding_tokens: 0 };
    const a = perAnswer(server.usage.ragmeter ?? zero, n);
    const b = perAnswer(server.usage.ragas ?? zero, n);
    const ratio = b.total_tokens > 0 ? a.total_tokens / b.total_tokens : null;
    result = {
      date: new Date().toISOString(),
      ragas_version: rg.ragas_version,
      ragas_api: rg.api,
      install,
      tokenizer: "o200k_base (gpt-tokenizer), counted by the server",
      cases: n,
      languages: Object.fromEntries(["en", "ru", "zh"].map((l) => [l, cases.filter((c) => c.language === l).length])),
      per_answer: { ragmeter: a, ragas: b },
      ratio_total_tokens: ratio,
      goal: GOAL,
      meets_goal: ratio !== null && ratio <= GOAL,
      seconds: { ragmeter: rmSeconds, ragas: rgSeconds },
      ragmeter_statuses: countBy(rm.map((x) => `${x.grounding_status}/${x.relevance_status}`)),
      ragas_scored: rg.results.filter((x) => x.faithfulness !== null && x.answer_relevancy !== null).length,
      unrecognised_prompts: server.unknown.length,
      results: { ragmeter: rm, ragas: rg.results },
    };
  } finally {
    await server.close();
  }

  mkdirSync(path.join(root, "test-output"), { recursive: true });
  writeFileSync(path.join(root, "test-output", "judges-ragas.json"), `${JSON.stringify(result, null, 2)}\n`);
  if (args.json) console.log(JSON.stringify(result, null, 2));
  else {
    const f = (x) => x.toFixed(1);
    const row = (name, p) => `| ${name} | ${f(p.calls)} | ${f(p.prompt_tokens)} | ${f(p.completion_tokens)} | ${f(p.embedding_tokens)} | ${f(p.total_tokens)} |`;
    console.log(
      `${result.cases} answers (en ${result.languages.en}, ru ${result.languages.ru}, zh ${result.languages.zh}); Ragas ${result.ragas_version} (${result.ragas_api}); tokens: ${result.tokenizer}`,
    );
    console.log("| per scored answer | calls | prompt tokens | completion tokens | embedding tokens | total tokens |");
    console.log("|---|---:|---:|---:|---:|---:|");
    console.log(row("ragmeter grounding + relevance", result.per_answer.ragmeter));
    console.log(row("Ragas faithfulness + answer_relevancy", result.per_answer.ragas));
    console.log(`ratio ragmeter / Ragas (total tokens): ${result.ratio_total_tokens?.toFixed(2)}×`);
    console.log(
      `verdict: ${result.meets_goal ? "meets" : "misses"} the goal (≤ ${GOAL}×): ragmeter spends ${result.ratio_total_tokens?.toFixed(2)}× Ragas's tokens per scored answer` +
        (result.unrecognised_prompts > 0 ? ` — WARNING: ${result.unrecognised_prompts} prompts not recognised by the server` : ""),
    );
    console.log("written: test-output/judges-ragas.json");
  }
}

// Any failure (no python3, install, a Ragas run past its bound) is one line, after the server has stopped.
main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
