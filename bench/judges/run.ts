// `npm run bench:judges`: the hand-labelled judge set (cases.jsonl) through the product's normal
// `eval` path — a golden set built from the cases, a scripted target replaying each case (question →
// its chunks and its answer), the run recorder writing into a fresh embedded store — then the
// judges' agreement with the labels (agreement.ts), per judge kind, overall, by language and by
// category, with calls, tokens, cost and wall time.
//   heuristic judges: always;
//   LLM judges: when OPENAI_BASE_URL is set (RAGMETER_JUDGE_MODEL etc., as for `ragmeter eval`);
//   --local-model: a local OpenAI-compatible server with a small open model (issue 13, part B).
// Usage: npm run bench:judges [-- --json] [-- --only heuristic|llm]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseGoldenSet } from "@ragmeter/golden";
import { loadConfig } from "../../scorer/src/cli/config.js";
import { judgeFor } from "../../scorer/src/cli/context.js";
import { createHeuristicJudge } from "../../scorer/src/judges/heuristic/heuristicJudge.js";
import type { Judge } from "../../scorer/src/judges/types.js";
import { runEval } from "../../scorer/src/runs/eval.js";
import type { Target } from "../../scorer/src/runs/target.js";
import { openStore } from "../../scorer/src/store/client.js";
import { agreementTable, type CaseJudgment, formatTable, goalCheck } from "./agreement.js";
import { type JudgeCase, loadJudgeCases } from "./cases.js";

/** One judge the bench runs. */
interface BenchJudge {
  readonly label: string;
  readonly judge: Judge;
  /** Checked against the goal of issue 13 (the heuristic judges). */
  readonly goal: boolean;
}

/**
 * The judges to run (the one place the bench chooses them): the heuristic judges; the LLM judges of
 * the environment when OPENAI_BASE_URL is set; `--local-model` is filled by issue 13 part B.
 */
export async function benchJudges(env: NodeJS.ProcessEnv, flags: { localModel: boolean; only: string | undefined }): Promise<BenchJudge[]> {
  if (flags.localModel) throw new Error("ragmeter: --local-model: not available yet (issue 13, part B)");
  const out: BenchJudge[] = [];
  if (flags.only === undefined || flags.only === "heuristic") out.push({ label: "heuristic", judge: createHeuristicJudge(), goal: true });
  if ((flags.only === undefined || flags.only === "llm") && env["OPENAI_BASE_URL"]) {
    const judge = await judgeFor(loadConfig(env));
    out.push({ label: `llm ${judge.model}`, judge, goal: false });
  }
  return out;
}

/** The golden set of the cases: every case answerable (bench/judges/README.md, "Labels"). */
function goldenText(cases: readonly JudgeCase[]): string {
  return cases.map((c) => JSON.stringify({ id: c.id, question: c.question, expected_source: "bench", tags: [c.language, c.category] })).join("\n");
}

/** A scripted target: the case named by the golden id in the baggage answers with its chunks and answer. */
function replayTarget(cases: readonly JudgeCase[]): Target {
  const byId = new Map(cases.map((c) => [c.id, c]));
  return {
    description: "judge bench replay",
    async ask(_question, headers) {
      const m = /ragmeter\.golden\.id=([^,]*)/u.exec(headers.baggage);
      const c = m ? byId.get(decodeURIComponent(m[1] as string)) : undefined;
      if (c === undefined) return { ok: false, reason: "no case for this golden id", latency_ms: 0 };
      return {
        ok: true,
        reply: { answer: c.answer, contexts: c.chunks.map((k) => ({ id: k.id, document_id: "bench", text: k.text, score: null })), model: "bench-replay", pipeline_version: null },
        latency_ms: 0,
      };
    },
  };
}

/** Runs the cases through `eval` with one judge; returns what it said per case and its usage. */
export async function benchOne(cases: readonly JudgeCase[], judge: Judge, concurrency: number) {
  const home = mkdtempSync(path.join(tmpdir(), "ragmeter-bench-judges-"));
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  try {
    const golden = await parseGoldenSet(goldenText(cases), "bench/judges/cases.jsonl", { format: "jsonl" });
    const t0 = performance.now();
    const outcome = await runEval({ golden, target: replayTarget(cases), pipelineVersion: "bench", ks: [1], concurrency, judge, store, cache: false });
    const wallMs = performance.now() - t0;
    // runEval keeps the per-question results unless told not to (keepResults), and this run does not say so.
    if (outcome.results === null) throw new Error("bench/judges: runEval kept no per-question results");
    const judged = new Map<string, CaseJudgment>(
      outcome.results.map((q) => [
        q.golden_id,
        {
          grounding: { status: q.grounding.status, value: q.grounding.value },
          claims: q.grounding.claims.map((c) => ({ text: c.text, verdict: c.verdict })),
          relevance: { status: q.relevance.status, value: q.relevance.value },
        },
      ]),
    );
    return { judged, stats: outcome.judgeReport.stats, wallMs, runId: outcome.run.run_id };
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: "boolean", default: false },
      "local-model": { type: "boolean", default: false },
      only: { type: "string" },
      concurrency: { type: "string", default: "8" },
    },
  });
  const cases = loadJudgeCases();
  const judges = await benchJudges(process.env, { localModel: values["local-model"] ?? false, only: values.only });
  const report: unknown[] = [];
  let failed = false;
  for (const b of judges) {
    const r = await benchOne(cases, b.judge, Number(values.concurrency));
    const table = agreementTable(cases, r.judged);
    const s = r.stats;
    const scored = cases.length;
    if (values.json) {
      report.push({ judge: b.label, prompt_version: b.judge.promptVersion, table, stats: s, wall_ms: r.wallMs });
      continue;
    }
    console.log(`\n== ${b.label} judges (prompt ${b.judge.promptVersion.grounding}) on ${cases.length} cases (bench/judges/cases.jsonl)`);
    console.log(formatTable(table));
    console.log(
      `calls ${s.calls}, tokens ${s.input_tokens} in + ${s.output_tokens} out (${((s.input_tokens + s.output_tokens) / scored).toFixed(0)} per scored answer), cost ${s.cost_usd === null ? "unknown (no price for the model)" : `$${s.cost_usd.toFixed(4)}`}, wall ${(r.wallMs / 1000).toFixed(1)} s (${(r.wallMs / scored).toFixed(1)} ms per case)`,
    );
    if (b.goal) {
      const g = goalCheck(table);
      console.log(`goal (issue 13):\n  ${g.lines.join("\n  ")}`);
      failed ||= !g.met;
    }
  }
  if (values.json) console.log(JSON.stringify(report, null, 2));
  if (failed) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 2;
  });
}
