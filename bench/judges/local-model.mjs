#!/usr/bin/env node
// The LLM judges with a real model in the loop (`npm run bench:judges:local`, issue 13): starts
// llama.cpp's llama-server with SmolLM2-135M (scripts/local-model, installed into the user's cache
// first when missing), runs the product's LLM judges (scorer/dist, the real `openai` client) on a
// subset of the shipped hand-labelled set (bench/judges/cases.jsonl), prints agreement, output
// tokens per call and statuses by reason, and stops the server (only when this run started it).
// A small model judges badly; the point is that every reply ends as a value or a status with a
// reason: never a crash, a hang or a silent 1.00.
//
// Usage: node bench/judges/local-model.mjs [--cases 12] [--timeout-ms 120000] [--max-output-tokens 512]
//   --cases N   N short cases, N/3 per language, spread over the categories (default 12)
//   Writes test-output/judges-local-model.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createLlmJudge } from "../../scorer/dist/judges/llm/llmJudge.js";
import { startLocalModel, stopLocalModel } from "../../scripts/local-model/local-model.mjs";

const CASES_PATH = fileURLToPath(new URL("./cases.jsonl", import.meta.url));
/** Categories in the order a subset takes them (one case per category per language). */
const CATEGORY_ORDER = [
  "verbatim",
  "changed-number",
  "refusal",
  "mixed",
  "paraphrase",
  "invented-number",
  "empty-context",
  "off-topic-grounded",
  "relevant-ungrounded",
  "blank-chunk",
  "idk-answer-in-question",
  "cross-lingual",
];
/** Grounding agrees with the label when both have no claims, or both are numbers within this distance. */
export const GROUNDING_TOLERANCE = 0.25;

/** The shipped cases (JSON Lines), as bench/judges/cases.ts reads them (validation is that module's test). */
export function loadCases(file = CASES_PATH) {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l));
}

const size = (c) => c.question.length + c.answer.length + c.chunks.reduce((s, ch) => s + ch.text.length, 0);

/** `n` cases, about n/3 per language, one per category in CATEGORY_ORDER, the shortest of each. */
export function pickCases(cases, n) {
  const out = [];
  for (const lang of ["en", "ru", "zh"]) {
    const per = Math.floor(n / 3) + (["en", "ru", "zh"].indexOf(lang) < n % 3 ? 1 : 0);
    const mine = cases.filter((c) => c.language === lang);
    for (const cat of CATEGORY_ORDER) {
      if (out.filter((c) => c.language === lang).length >= per) break;
      const pick = mine.filter((c) => c.category === cat).sort((a, b) => size(a) - size(b))[0];
      if (pick) out.push(pick);
    }
  }
  return out;
}

/** Numbers in a reason replaced by N, so reasons group ("reply truncated at N tokens"). */
const reasonKey = (status, reason) =>
  `${status}${
    reason
      ? `: ${String(reason)
          .replace(/\d+(\.\d+)?/gu, "N")
          .slice(0, 140)}`
      : ""
  }`;

/**
 * Runs the LLM judges on `cases` against an OpenAI-compatible endpoint.
 * @returns per case rows and the summary figures.
 */
export async function judgeCases(cases, { baseURL, model, timeoutMs = 120_000, maxOutputTokens = 512, contextTokens = 8192, log = () => {} }) {
  const judge = createLlmJudge({ baseURL, apiKey: "local", model, timeoutMs, maxRetries: 1, concurrency: 1, contextTokens, maxOutputTokens });
  const rows = [];
  for (const c of cases) {
    const row = { id: c.id, language: c.language, category: c.category, crash: null };
    try {
      const g = await judge.grounding({ question: c.question, answer: c.answer, chunks: c.chunks });
      const r = await judge.relevance({ question: c.question, answer: c.answer, answerable: c.chunks.some((ch) => ch.text.trim().length > 0) });
      row.grounding = {
        status: g.status,
        value: g.value,
        reason: g.reason ?? null,
        claims: g.claims.map((x) => x.verdict),
        calls: g.calls,
        input_tokens: g.input_tokens,
        output_tokens: g.output_tokens,
        latency_ms: Math.round(g.latency_ms),
      };
      row.relevance = {
        status: r.status,
        value: r.value,
        reason: r.status === "ok" ? null : (r.reason ?? null),
        calls: r.calls,
        input_tokens: r.input_tokens,
        output_tokens: r.output_tokens,
        latency_ms: Math.round(r.latency_ms),
      };
    } catch (err) {
      row.crash = String(err?.stack ?? err);
    }
    row.expected = { grounding: c.expected_grounding, grounding_status: c.expected_grounding_status, labels: c.claims.map((x) => x.label), relevance: c.relevance };
    log(
      `${c.id}: grounding ${row.grounding?.status ?? "CRASH"} ${row.grounding?.value ?? ""} (expected ${c.expected_grounding ?? c.expected_grounding_status}); relevance ${row.relevance?.status ?? "CRASH"} ${row.relevance?.value ?? ""} (expected ${c.relevance.min}–${c.relevance.max})`,
    );
    rows.push(row);
  }
  return { rows, summary: summarize(rows) };
}

/** Agreement, tokens per call and statuses by reason over the rows of {@link judgeCases}. */
export function summarize(rows) {
  const done = rows.filter((r) => r.crash === null);
  const gAgree = done.filter((r) => {
    const g = r.grounding;
    if (r.expected.grounding_status === "no_claims") return g.status === "no_claims";
    return g.status === "ok" && Math.abs(g.value - r.expected.grounding) <= GROUNDING_TOLERANCE;
  }).length;
  const rAgree = done.filter((r) => r.relevance.status === "ok" && r.relevance.value >= r.expected.relevance.min && r.relevance.value <= r.expected.relevance.max).length;
  let claimPairs = 0;
  let claimSame = 0;
  for (const r of done) {
    if (r.grounding.status !== "ok" || r.grounding.claims.length !== r.expected.labels.length) continue;
    r.grounding.claims.forEach((v, i) => {
      claimPairs++;
      if (v === r.expected.labels[i]) claimSame++;
    });
  }
  const calls = (k) => done.reduce((s, r) => s + r[k].calls, 0);
  const out = (k) => done.reduce((s, r) => s + r[k].output_tokens, 0);
  const statuses = {};
  for (const r of done)
    for (const k of ["grounding", "relevance"]) statuses[`${k} ${reasonKey(r[k].status, r[k].reason)}`] = (statuses[`${k} ${reasonKey(r[k].status, r[k].reason)}`] ?? 0) + 1;
  // a silent 1.00: grounding 1 where the people's label is lower or no claims at all
  const silentOnes = done.filter((r) => r.grounding.status === "ok" && r.grounding.value === 1 && (r.expected.grounding === null || r.expected.grounding < 1)).length;
  return {
    cases: rows.length,
    crashes: rows.length - done.length,
    grounding_agreement: done.length ? gAgree / done.length : null,
    grounding_ok: done.filter((r) => r.grounding.status === "ok").length,
    claim_verdict_agreement: claimPairs ? claimSame / claimPairs : null,
    claim_pairs: claimPairs,
    relevance_agreement: done.length ? rAgree / done.length : null,
    relevance_ok: done.filter((r) => r.relevance.status === "ok").length,
    grounding_calls: calls("grounding"),
    relevance_calls: calls("relevance"),
    grounding_output_tokens_per_call: calls("grounding") ? out("grounding") / calls("grounding") : null,
    relevance_output_tokens_per_call: calls("relevance") ? out("relevance") / calls("relevance") : null,
    max_output_tokens_one_judgment: Math.max(0, ...done.flatMap((r) => [r.grounding.output_tokens, r.relevance.output_tokens])),
    input_tokens: done.reduce((s, r) => s + r.grounding.input_tokens + r.relevance.input_tokens, 0),
    judge_seconds: done.reduce((s, r) => s + r.grounding.latency_ms + r.relevance.latency_ms, 0) / 1000,
    ones_against_lower_labels: silentOnes,
    statuses,
  };
}

const pct = (v) => (v === null ? "n/a" : `${(v * 100).toFixed(1)}%`);

/** Prints the summary as the bench's table. */
export function printSummary(s, print = console.log) {
  print(`cases ${s.cases}   crashes ${s.crashes}`);
  print(`grounding agreement   ${pct(s.grounding_agreement)}  (ok ${s.grounding_ok}/${s.cases}; within ±${GROUNDING_TOLERANCE} of the label, or no_claims for no claims)`);
  print(`claim verdicts        ${pct(s.claim_verdict_agreement)}  (n=${s.claim_pairs} claims, where the claim count matched)`);
  print(`relevance agreement   ${pct(s.relevance_agreement)}  (ok ${s.relevance_ok}/${s.cases}; score within the labelled range)`);
  print(
    `output tokens / call  grounding ${s.grounding_output_tokens_per_call?.toFixed(1) ?? "n/a"} (${s.grounding_calls} calls)   relevance ${s.relevance_output_tokens_per_call?.toFixed(1) ?? "n/a"} (${s.relevance_calls} calls)   max one judgment ${s.max_output_tokens_one_judgment}`,
  );
  print(`input tokens ${s.input_tokens}   judge time ${s.judge_seconds.toFixed(1)} s   grounding 1.00 against a lower label: ${s.ones_against_lower_labels}`);
  print("statuses by reason:");
  for (const [k, n] of Object.entries(s.statuses).sort((a, b) => b[1] - a[1])) print(`  ${String(n).padStart(3)}  ${k}`);
}

async function main() {
  const { values } = parseArgs({
    options: { cases: { type: "string", default: "12" }, "timeout-ms": { type: "string", default: "120000" }, "max-output-tokens": { type: "string", default: "512" } },
  });
  const cases = pickCases(loadCases(), Number(values.cases));
  const t0 = performance.now();
  const server = await startLocalModel({ log: (m) => console.error(m) });
  try {
    console.error(`local model ${server.model} at ${server.baseURL} (ctx ${server.ctx}, ${server.status}); ${cases.length} cases`);
    const { rows, summary } = await judgeCases(cases, {
      baseURL: server.baseURL,
      model: server.model,
      timeoutMs: Number(values["timeout-ms"]),
      maxOutputTokens: Number(values["max-output-tokens"]),
      contextTokens: server.ctx,
      log: (m) => console.error(m),
    });
    printSummary(summary);
    console.log(`wall ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    mkdirSync("test-output", { recursive: true });
    writeFileSync(path.join("test-output", "judges-local-model.json"), `${JSON.stringify({ model: server.model, ctx: server.ctx, summary, rows }, null, 2)}\n`);
    if (summary.crashes > 0) process.exitCode = 1;
  } finally {
    if (server.status === "started") await stopLocalModel();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
