// `npx tsx bench/judges/llmSubset.ts [--limit N] [--sample boundary|balanced] [--seed S] [--dry-run]`:
// the LLM judge of the environment (OPENAI_BASE_URL, RAGMETER_JUDGE_MODEL, …; e.g.
// `npm run -s local-model:start -- --model 1.5b`) on RAGTruth development answers, grounding only.
// `boundary` (the default): the answers a cascade sends first, those whose out-of-fold tier-1
// grounding risk (tier1Oof.ts) lies nearest tier 1's own flag boundary (the risk that best separates
// the answers tier 1 flags, grounding < 1, from the others: no label read), nearest first.
// `balanced`: a random sample of the development answers (the order of sha256(seed + id)) taking
// hallucinated and clean answers in turn, so tier 3's own AUROC (which the class ratio does not bias)
// is measured on answers a cascade did not pick, with as many positives as negatives. Each judgment is appended as one JSON line to llm-results/<model>.jsonl as soon as it is
// made (a stopped run loses nothing; a later run skips the ids already there), so the cascade curve
// (cascadeCurve.ts) combines stored tier-3 results with tier 1 offline.
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { committedGroundingModel } from "../../core/src/judges/heuristic/model.js";
import { judgeGrounding } from "../../core/src/judges/types.js";
import { loadConfig } from "../../scorer/src/cli/config.js";
import { judgeFor } from "../../scorer/src/cli/context.js";
import { goodAnswers, judgeDevDir, loadRagTruth } from "./ragtruth.js";
import { type Tier1Judged, tier1OutOfFold } from "./tier1Oof.js";

/** Folder of the stored per-answer LLM results. */
export const LLM_RESULTS_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), "llm-results");

/**
 * Tier 1's flag boundary: the risk c for which "risk ≥ c" disagrees least with tier 1's own flag
 * (grounding < 1), midway between neighbouring risks; the labels are not read.
 */
export function flagBoundary(judged: readonly Tier1Judged[]): number {
  const ok = judged.filter((j) => j.judgment.status === "ok" && j.judgment.risk !== undefined).sort((a, b) => (a.judgment.risk as number) - (b.judgment.risk as number));
  const flagged = ok.map((j) => (j.judgment.value ?? 1) < 1);
  // cut before index i: answers < i unflagged by risk, ≥ i flagged
  let errors = flagged.filter((f) => !f).length;
  let best = { errors, i: 0 };
  for (let i = 1; i <= ok.length; i++) {
    errors += flagged[i - 1] ? 1 : -1;
    if (errors < best.errors) best = { errors, i };
  }
  const r = (i: number): number => ok[i]?.judgment.risk as number;
  return best.i === 0 ? r(0) : best.i === ok.length ? r(ok.length - 1) : (r(best.i - 1) + r(best.i)) / 2;
}

/** The order in which a cascade around `threshold` would send answers: nearest risk first (answers without a risk never go). */
export function cascadeOrder(judged: readonly Tier1Judged[], threshold: number): Tier1Judged[] {
  return judged
    .filter((j) => j.judgment.status === "ok" && j.judgment.risk !== undefined)
    .sort((a, b) => Math.abs((a.judgment.risk as number) - threshold) - Math.abs((b.judgment.risk as number) - threshold) || Number(a.answer.id) - Number(b.answer.id));
}

/**
 * A random order of `judged` fixed by `seed` (ascending sha256 of seed and id) that takes hallucinated
 * and clean answers in turn, a hallucinated one first, until one class runs out.
 */
export function balancedOrder(judged: readonly Tier1Judged[], seed: string): Tier1Judged[] {
  const key = (j: Tier1Judged): string => createHash("sha256").update(`${seed}\u0000${j.answer.id}`).digest("hex");
  const shuffled = [...judged]
    .map((j) => ({ j, k: key(j) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((x) => x.j);
  const pos = shuffled.filter((j) => j.answer.hallucinated);
  const neg = shuffled.filter((j) => !j.answer.hallucinated);
  return Array.from({ length: Math.min(pos.length, neg.length) }, (_, i) => [pos[i] as Tier1Judged, neg[i] as Tier1Judged]).flat();
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      limit: { type: "string", default: "40" },
      sample: { type: "string", default: "boundary" },
      seed: { type: "string", default: "1" },
      "dry-run": { type: "boolean", default: false },
    },
  });
  const limit = Number(values.limit);
  if (values.sample !== "boundary" && values.sample !== "balanced") throw new Error(`llmSubset: --sample "${values.sample}" is neither boundary nor balanced`);
  const answers = goodAnswers(loadRagTruth(path.join(judgeDevDir(), "ragtruth-qa-dev.jsonl")));
  const judged = await tier1OutOfFold(answers);
  const centre = flagBoundary(judged);
  const sample = values.sample === "balanced" ? `balanced:${values.seed}` : "boundary";
  const order = (values.sample === "balanced" ? balancedOrder(judged, values.seed) : cascadeOrder(judged, centre)).slice(0, limit);
  console.log(`tier 1's flag boundary: risk ${centre.toFixed(4)} (committed risk threshold ${committedGroundingModel().risk.threshold}); sample ${sample}`);
  if (values["dry-run"]) {
    for (const j of order) console.log(`${j.answer.id}\trisk ${j.judgment.risk?.toFixed(4)}\thallucinated ${j.answer.hallucinated}`);
    return;
  }
  const judge = await judgeFor(loadConfig(process.env));
  if (!judge.metered) throw new Error("llmSubset: no LLM judge configured (set OPENAI_BASE_URL and RAGMETER_JUDGE_MODEL)");
  const file = path.join(LLM_RESULTS_DIR, `${judge.model}.jsonl`);
  const done = new Set(
    existsSync(file)
      ? readFileSync(file, "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => (JSON.parse(l) as { id: string }).id)
      : [],
  );
  for (const [i, j] of order.entries()) {
    if (done.has(j.answer.id)) continue;
    const a = j.answer;
    const t0 = Date.now();
    const judgment = await judgeGrounding(judge, { question: a.question, answer: a.response, chunks: a.passages });
    const line = {
      id: a.id,
      model: judge.model,
      prompt_version: judge.promptVersion["grounding"],
      sample,
      rank: i,
      tier1_risk: j.judgment.risk,
      wall_ms: Date.now() - t0,
      at: new Date().toISOString(),
      judgment,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    console.log(`${a.id} rank ${i}: ${judgment.status} ${judgment.value} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 2;
  });
}
