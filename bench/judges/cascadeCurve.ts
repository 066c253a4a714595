// The cascade judge's quality against its LLM calls on the RAGTruth development answers (issue 40),
// computed offline: tier 1 = the no-LLM judge out of fold (tier1Oof.ts) on every answer; tier 3 = the
// LLM judgments stored by llmSubset.ts (llm-results/<model>.jsonl), which covers the answers nearest
// the risk threshold. A band [low, high] of tier-1 risk can be evaluated when every answer whose risk
// lies in it has a stored LLM judgment; the cascade's judgment of each answer is then what
// createCascadeJudge makes of the two (its own bandRisk), without budget (the band decides the share).
// Bands are chosen by cross-validation over the same five question folds as the model (train.ts):
// for each budget (largest share of answers sent), the band with the best F1 on four folds is applied
// to the fifth; the held-out judgments of the five folds give F1, AUROC and the share sent.
// Usage: npx tsx bench/judges/cascadeCurve.ts [--model NAME]  (also printed by npm run bench:judges)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { bandRisk, type CascadeRule, type RiskBand, stricterOf } from "../../core/src/judges/cascade/cascadeJudge.js";
import type { GroundingJudgment } from "../../core/src/judges/types.js";
import { OVERLAP_CUT, wordOverlap } from "./baselines.js";
import { auroc, prf } from "./detection.js";
import { balancedOrder, LLM_RESULTS_DIR } from "./llmSubset.js";
import { goodAnswers, judgeDevDir, loadRagTruth, type RagTruthAnswer } from "./ragtruth.js";
import { tier1OutOfFold } from "./tier1Oof.js";
import { FOLDS } from "./train.js";

/** One stored LLM judgment (a line of llm-results/<model>.jsonl). */
export interface StoredLlm {
  readonly id: string;
  readonly model: string;
  readonly prompt_version: string;
  readonly wall_ms: number;
  /** How llmSubset.ts picked the answer: "boundary" (absent in early lines) or "balanced:SEED". */
  readonly sample?: string;
  readonly judgment: GroundingJudgment;
}

/** What the curve knows of one answer: its label and fold, tier 1's judgment, the stored LLM judgment if any. */
export interface CascadeAnswer {
  readonly id: string;
  readonly fold: number;
  readonly hallucinated: boolean;
  readonly tier1: GroundingJudgment;
  readonly llm: StoredLlm | null;
}

/** How the cascade reads an answer both tiers judged: "stricter" (the default, stricterOf) or "llm", the LLM's judgment alone. */
type Rule = CascadeRule;

/** The cascade's decision for one answer under `band` (null: no band, tier 1 alone). */
export interface Decision {
  readonly flag: boolean;
  readonly score: number;
  readonly sent: boolean;
}

const flagOf = (j: GroundingJudgment): boolean => j.status === "ok" && j.value !== null && j.value < 1;
const riskOf = (j: GroundingJudgment): number => (j.status === "ok" ? (j.risk ?? 0) : 0);
const inBand = (band: RiskBand, j: GroundingJudgment): boolean => j.status === "ok" && j.risk !== undefined && j.risk >= band.low && j.risk <= band.high;

/** Tier 3's ranking score of an answer: 1 − its lowest claim support, else 1 when it flags the answer, 0 when not. */
function llmScoreOf(a: CascadeAnswer): number {
  const s = (a.llm?.judgment.claims ?? []).flatMap((c) => (c.support === undefined ? [] : [c.support]));
  return s.length > 0 ? 1 - Math.min(...s) : flagOf(a.llm?.judgment as GroundingJudgment) ? 1 : 0;
}

/** The cascade's judgment of `a` under `band`, as createCascadeJudge makes it. @throws when the band holds an answer without a stored LLM judgment. */
export function decide(a: CascadeAnswer, band: RiskBand | null, rule: Rule = "stricter"): Decision {
  if (band === null || !inBand(band, a.tier1)) return { flag: flagOf(a.tier1), score: riskOf(a.tier1), sent: false };
  if (a.llm === null) throw new Error(`cascadeCurve: answer ${a.id} lies in the band [${band.low}, ${band.high}] but has no stored LLM judgment`);
  const l = a.llm.judgment;
  if (l.status !== "ok") return { flag: flagOf(a.tier1), score: riskOf(a.tier1), sent: true };
  if (rule === "llm") return { flag: flagOf(l), score: bandRisk(band, l, a.tier1.risk as number), sent: true };
  const both = stricterOf(band, a.tier1 as GroundingJudgment & { risk: number }, l);
  return { flag: flagOf(both.judgment as GroundingJudgment), score: both.risk, sent: true };
}

/**
 * Every band that can be evaluated: [risk_i, risk_j] over runs of answers (by tier-1 risk) that all
 * have a stored LLM judgment, no answer without one having a risk inside it.
 */
export function candidateBands(answers: readonly CascadeAnswer[]): RiskBand[] {
  const ranked = answers.filter((a) => a.tier1.status === "ok" && a.tier1.risk !== undefined).sort((x, y) => riskOf(x.tier1) - riskOf(y.tier1));
  const uncovered = ranked.filter((a) => a.llm === null).map((a) => riskOf(a.tier1));
  const out: RiskBand[] = [];
  for (let i = 0; i < ranked.length; i++) {
    if (ranked[i]?.llm === null) continue;
    for (let j = i; j < ranked.length && ranked[j]?.llm !== null; j++) {
      const band = { low: riskOf((ranked[i] as CascadeAnswer).tier1), high: riskOf((ranked[j] as CascadeAnswer).tier1) };
      if (!uncovered.some((r) => r >= band.low && r <= band.high)) out.push(band);
    }
  }
  return out;
}

/** F1 at the natural rate, AUROC and the share sent of a set of decisions. */
function figures(ds: readonly Decision[], labels: readonly boolean[]) {
  const p = prf(
    ds.map((d) => d.flag),
    labels,
  );
  return {
    precision: p.precision,
    recall: p.recall,
    f1: p.f1,
    auroc: auroc(
      ds.map((d) => d.score),
      labels,
    ),
    sent: ds.filter((d) => d.sent).length,
  };
}

/** The band (or none) with the best F1 on `answers` among those sending at most `budget` of them; ties: fewer sent. */
export function bestBand(answers: readonly CascadeAnswer[], bands: readonly RiskBand[], budget: number, rule: Rule = "stricter"): RiskBand | null {
  const labels = answers.map((a) => a.hallucinated);
  let best: { band: RiskBand | null; f1: number; sent: number } = { band: null, ...figuresOf(answers, null, labels, rule) };
  for (const band of bands) {
    const f = figuresOf(answers, band, labels, rule);
    if (f.sent > budget * answers.length) continue;
    if (f.f1 > best.f1 + 1e-12 || (Math.abs(f.f1 - best.f1) <= 1e-12 && f.sent < best.sent)) best = { band, ...f };
  }
  return best.band;
}

function figuresOf(answers: readonly CascadeAnswer[], band: RiskBand | null, labels: readonly boolean[], rule: Rule): { f1: number; sent: number } {
  const f = figures(
    answers.map((a) => decide(a, band, rule)),
    labels,
  );
  return { f1: f.f1 ?? 0, sent: f.sent };
}

/** One point of the curve: the budget, the held-out figures and the bands the folds chose. */
export interface CurvePoint {
  readonly budget: number;
  readonly share: number;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  readonly auroc: number | null;
  readonly bands: readonly (RiskBand | null)[];
}

/** The cross-validated curve: per budget, each fold judged under the band chosen on the other folds. */
export function crossValidatedCurve(answers: readonly CascadeAnswer[], budgets: readonly number[], rule: Rule = "stricter"): CurvePoint[] {
  const bands = candidateBands(answers);
  return budgets.map((budget) => {
    const chosen: (RiskBand | null)[] = [];
    const decisions = new Map<string, Decision>();
    for (let k = 0; k < FOLDS; k++) {
      const band = bestBand(
        answers.filter((a) => a.fold !== k),
        bands,
        budget,
        rule,
      );
      chosen.push(band);
      for (const a of answers.filter((x) => x.fold === k)) decisions.set(a.id, decide(a, band, rule));
    }
    const f = figures(
      answers.map((a) => decisions.get(a.id) as Decision),
      answers.map((a) => a.hallucinated),
    );
    return { budget, share: f.sent / answers.length, precision: f.precision, recall: f.recall, f1: f.f1, auroc: f.auroc, bands: chosen };
  });
}

/** The stored LLM judgments of `model` (the newest file when null), or null when there is none. */
export function loadStoredLlm(model: string | null): { model: string; byId: Map<string, StoredLlm> } | null {
  if (!existsSync(LLM_RESULTS_DIR)) return null;
  const files = readdirSync(LLM_RESULTS_DIR).filter((f) => f.endsWith(".jsonl"));
  const file = model === null ? files.sort().at(-1) : `${model}.jsonl`;
  if (file === undefined || !existsSync(path.join(LLM_RESULTS_DIR, file))) return null;
  const lines = readFileSync(path.join(LLM_RESULTS_DIR, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as StoredLlm);
  return { model: file.replace(/\.jsonl$/u, ""), byId: new Map(lines.map((l) => [l.id, l])) };
}

const f3 = (x: number | null): string => (x === null ? "—" : x.toFixed(3));
const bandText = (b: RiskBand | null): string => (b === null ? "none" : `${b.low.toFixed(3)}–${b.high.toFixed(3)}`);

/** The curve's report as text lines: tier 1, the baselines, tier 3 on the answers it judged, and the cascade per budget. */
export async function cascadeReport(
  all: readonly RagTruthAnswer[],
  model: string | null,
  budgets: readonly number[] = [0, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3],
): Promise<string[]> {
  const stored = loadStoredLlm(model);
  if (stored === null) return ["cascade curve: no stored LLM judgments in bench/judges/llm-results (run bench/judges/llmSubset.ts with an LLM endpoint)"];
  const t1 = await tier1OutOfFold(all);
  const answers: CascadeAnswer[] = t1.map((j) => ({
    id: j.answer.id,
    fold: j.fold,
    hallucinated: j.answer.hallucinated,
    tier1: j.judgment,
    llm: stored.byId.get(j.answer.id) ?? null,
  }));
  const labels = answers.map((a) => a.hallucinated);
  const covered = answers.filter((a) => a.llm !== null);
  const llmMs = covered.map((a) => a.llm?.judgment.latency_ms ?? 0);
  const t1Ms = answers.reduce((s, a) => s + a.tier1.latency_ms, 0) / answers.length;
  const row = (name: string, n: number, f: { precision: number | null; recall: number | null; f1: number | null; auroc: number | null }, extra = ""): string =>
    `${name.padEnd(52)} ${String(n).padStart(4)}  ${f3(f.precision)}  ${f3(f.recall)}  ${f3(f.f1)}  ${f3(f.auroc)}${extra}`;
  const overlap = all.map((a) =>
    wordOverlap(
      a.response,
      a.passages.map((p) => p.text),
    ),
  );
  const lines = [
    `\n== cascade: tier 1 (no-LLM judge, out of fold) + stored tier-3 judgments of ${stored.model} on RAGTruth QA dev (${all.length} good answers, ${labels.filter((x) => x).length} hallucinated)`,
    `tier-3 judgments stored: ${stored.byId.size}, of answers here: ${covered.length} (the answers nearest tier 1's flag boundary, nearest first: llmSubset.ts); statuses: ${[
      ...covered.reduce((m, a) => m.set(a.llm?.judgment.status ?? "", (m.get(a.llm?.judgment.status ?? "") ?? 0) + 1), new Map<string, number>()),
    ]
      .map(([s, n]) => `${s} ${n}`)
      .join(", ")}`,
    `${"detector".padEnd(52)} ${"n".padStart(4)}  P      R      F1     AUROC`,
    row(
      "tier 1 (grounding < 1; AUROC of grounding_risk)",
      answers.length,
      figures(
        answers.map((a) => decide(a, null)),
        labels,
      ),
      `   ${t1Ms.toFixed(1)} ms/answer`,
    ),
    row(`word overlap < ${OVERLAP_CUT}`, all.length, {
      ...prf(
        overlap.map((o) => o < OVERLAP_CUT),
        labels,
      ),
      auroc: auroc(
        overlap.map((o) => 1 - o),
        labels,
      ),
    }),
    row("always hallucinated", all.length, {
      ...prf(
        labels.map(() => true),
        labels,
      ),
      auroc: 0.5,
    }),
  ];
  if (covered.length > 0) {
    const cl = covered.map((a) => a.hallucinated);
    lines.push(
      row(
        `  on the ${covered.length} tier-3 answers: tier 1`,
        covered.length,
        figures(
          covered.map((a) => decide(a, null)),
          cl,
        ),
      ),
      row(
        `  on the ${covered.length} tier-3 answers: tier 3 (AUROC: 1 − lowest support)`,
        covered.length,
        {
          ...prf(
            covered.map((a) => flagOf(a.llm?.judgment as GroundingJudgment)),
            cl,
          ),
          auroc: auroc(covered.map(llmScoreOf), cl),
        },
        `   ${(llmMs.reduce((s, x) => s + x, 0) / llmMs.length / 1000).toFixed(0)} s/answer (median ${((llmMs.sort((x, y) => x - y)[Math.floor(llmMs.length / 2)] ?? 0) / 1000).toFixed(0)} s)`,
      ),
    );
  }
  // Tier 3 on a random sample, half hallucinated: the longest prefix of llmSubset's balanced order
  // (seed 1) whose answers all have a stored judgment, whichever run stored it.
  const byId = new Map(answers.map((a) => [a.id, a]));
  const prefix: CascadeAnswer[] = [];
  for (const j of balancedOrder(t1, "1")) {
    const a = byId.get(j.answer.id) as CascadeAnswer;
    if (a.llm === null) break;
    prefix.push(a);
  }
  if (prefix.length > 0) {
    const rl = prefix.map((a) => a.hallucinated);
    const ms = prefix.map((a) => a.llm?.judgment.latency_ms ?? 0).sort((x, y) => x - y);
    lines.push(
      row(
        `  on a balanced random sample of ${prefix.length} (seed 1): tier 1`,
        prefix.length,
        figures(
          prefix.map((a) => decide(a, null)),
          rl,
        ),
      ),
      row(
        `  on a balanced random sample of ${prefix.length} (seed 1): tier 3`,
        prefix.length,
        {
          ...prf(
            prefix.map((a) => flagOf(a.llm?.judgment as GroundingJudgment)),
            rl,
          ),
          auroc: auroc(prefix.map(llmScoreOf), rl),
        },
        `   median ${((ms[Math.floor(ms.length / 2)] ?? 0) / 1000).toFixed(0)} s/answer; ${rl.filter((x) => x).length} hallucinated`,
      ),
    );
  }
  const bands = candidateBands(answers);
  const maxShare = bands.reduce((m, b) => Math.max(m, answers.filter((a) => inBand(b, a.tier1)).length), 0) / answers.length;
  const evaluable = budgets.filter((b, i) => i === 0 || (budgets[i - 1] as number) < maxShare);
  const llmS = llmMs.length === 0 ? 0 : llmMs.reduce((s, x) => s + x, 0) / llmMs.length / 1000;
  const perAnswer = (share: number): string => `${(t1Ms / 1000 + share * llmS).toFixed(2)} s`;
  const ruleText: Record<Rule, string> = {
    stricter: "the cascade's rule: the stricter of both tiers' readings",
    llm: "for comparison, the LLM's reading alone (the rule before)",
  };
  for (const rule of ["stricter", "llm"] as const) {
    lines.push(
      `cascade, ${ruleText[rule]}, cross-validated (band chosen on 4 question folds by F1, applied to the 5th; ${bands.length} evaluable bands, the widest sends ${(maxShare * 100).toFixed(1)}% of answers; larger budgets cannot be evaluated without more stored tier-3 judgments):`,
      `${"budget".padStart(7)}  ${"sent".padStart(6)}  P      R      F1     AUROC  s/answer  bands chosen per fold`,
    );
    for (const p of crossValidatedCurve(answers, evaluable, rule)) {
      lines.push(
        `${(p.budget * 100).toFixed(0).padStart(6)}%  ${(p.share * 100).toFixed(1).padStart(5)}%  ${f3(p.precision)}  ${f3(p.recall)}  ${f3(p.f1)}  ${f3(p.auroc)}  ${perAnswer(p.share).padStart(8)}  ${p.bands.map(bandText).join(" | ")}`,
      );
    }
    const widest = bands.reduce<RiskBand | null>((w, b) => (w === null || b.high - b.low > w.high - w.low ? b : w), null);
    if (widest !== null) {
      const f = figures(
        answers.map((a) => decide(a, widest, rule)),
        labels,
      );
      lines.push(
        `  with the widest evaluable band ${bandText(widest)} (no choice made): sent ${((f.sent / answers.length) * 100).toFixed(1)}%, P ${f3(f.precision)}, R ${f3(f.recall)}, F1 ${f3(f.f1)}, AUROC ${f3(f.auroc)}, ${perAnswer(f.sent / answers.length)} per answer`,
      );
    }
    lines.push("  in sample (the best band on all answers, optimistic):");
    for (const b of evaluable) {
      const band = bestBand(answers, bands, b, rule);
      const f = figures(
        answers.map((a) => decide(a, band, rule)),
        labels,
      );
      lines.push(
        `${(b * 100).toFixed(0).padStart(6)}%  ${((f.sent / answers.length) * 100).toFixed(1).padStart(5)}%  ${f3(f.precision)}  ${f3(f.recall)}  ${f3(f.f1)}  ${f3(f.auroc)}  ${bandText(band)}`,
      );
    }
  }
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { model: { type: "string" } } });
  const all = goodAnswers(loadRagTruth(path.join(judgeDevDir(), "ragtruth-qa-dev.jsonl")));
  for (const l of await cascadeReport(all, values.model ?? null)) console.log(l);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 2;
  });
}
