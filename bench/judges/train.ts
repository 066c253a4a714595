// `npm run judge:train`: fits the no-LLM grounding judge's model (core/src/judges/heuristic/
// grounding-model.json) on the development data (RAGTruth QA, ../shared/judge-dev), exactly as the
// judge reads claims (alignClaims), and chooses its threshold. A claim is labelled unsupported when
// it overlaps a human-labelled hallucination span (ragtruth.ts). The answer's grounding risk reads its
// claims' probabilities by the aggregate (min, noisy-or, two weakest) with the best cross-validated
// AUROC, flagged at the threshold of the best cross-validated F1. Figures: 5-fold cross-validation
// grouped by question (no question's answers in both the fitting and the scored part), and in-sample.
// Usage: npm run judge:train [-- --check]   (--check: recompute and compare, write nothing)
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { FEATURE_NAMES } from "../../core/src/judges/heuristic/features.js";
import { alignClaims, ruledOut } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { parseGroundingModel, RISK_AGGREGATES, type RiskAggregate, riskOf } from "../../core/src/judges/heuristic/model.js";
import { Tokens } from "../../core/src/judges/heuristic/tokens.js";
import { auroc, bestCut, prf } from "./detection.js";
import { fitLogistic, type LogisticFit, predictLogistic } from "./fit.js";
import { goodAnswers, inLabelledSpan, judgeDevDir, loadRagTruth, type RagTruthAnswer } from "./ragtruth.js";

/** L2 penalty on the standardised weights (mean log-loss + λ/2·|w|²). */
export const L2 = 0.005;
/** Factor on p for a claim a rule rules out (a number no chunk gives, no word in any chunk): never SUPPORTED. */
export const RULE_PENALTY = 0.5;
/** Folds of the grouped cross-validation. */
export const FOLDS = 5;

/** One training row: a claim's features and label, with its answer and question. */
export interface TrainingRow {
  readonly answer: string;
  readonly question: string;
  readonly x: number[];
  /** 1 = supported (overlaps no labelled span). */
  readonly y: number;
  /** A rule rules SUPPORTED out (a number in no chunk, no word in any chunk): p is multiplied by the penalty. */
  readonly ruledOut: boolean;
}

/** The claims of the development answers as the judge reads them, with their labels. */
export function trainingRows(answers: readonly RagTruthAnswer[]): TrainingRow[] {
  const tokens = new Tokens();
  const rows: TrainingRow[] = [];
  for (const a of answers) {
    const aligned = alignClaims({ question: a.question, answer: a.response, chunks: a.passages }, tokens);
    for (const c of aligned) {
      if (c.alignment === null) continue;
      const f = c.alignment.features;
      rows.push({
        answer: a.id,
        question: a.source_id,
        x: FEATURE_NAMES.map((n) => f[n]),
        y: inLabelledSpan(a, c.span.start, c.span.end) ? 0 : 1,
        ruledOut: ruledOut(c.alignment),
      });
    }
  }
  return rows;
}

/** sha256 of the rows (features to 6 decimals, labels): the model file records it, a test recomputes it. */
export function rowsDigest(rows: readonly TrainingRow[]): string {
  const h = createHash("sha256");
  for (const r of rows) h.update(`${r.answer}\t${r.y}\t${r.ruledOut ? 1 : 0}\t${r.x.map((v) => v.toFixed(6)).join(",")}\n`);
  return h.digest("hex");
}

/** Fold of a question: a stable hash of its id, so folds do not depend on file order. */
export function foldOf(question: string): number {
  return Number.parseInt(createHash("sha256").update(question).digest("hex").slice(0, 8), 16) % FOLDS;
}

const claimP = (fit: LogisticFit, r: TrainingRow): number => predictLogistic(fit, r.x) * (r.ruledOut ? RULE_PENALTY : 1);

/** Claim probabilities per answer, in the answers' order ([] for an answer with no claim). */
function perAnswer(answers: readonly RagTruthAnswer[], rows: readonly TrainingRow[], p: readonly number[]): number[][] {
  const by = new Map<string, number[]>();
  rows.forEach((r, i) => {
    const l = by.get(r.answer);
    if (l === undefined) by.set(r.answer, [p[i] as number]);
    else l.push(p[i] as number);
  });
  return answers.map((a) => by.get(a.id) ?? []);
}

/** Lowest claim probability per answer (1 for an answer with no claim: nothing to flag). */
function minPerAnswer(answers: readonly RagTruthAnswer[], rows: readonly TrainingRow[], p: readonly number[]): number[] {
  return perAnswer(answers, rows, p).map((ps) => Math.min(1, ...ps));
}

/** Figures of the grounding risk: AUROC, and P/R/F1 at the natural rate with flagged ⇔ risk ≥ threshold. */
function riskFigures(risk: readonly number[], labels: readonly boolean[], threshold: number) {
  const natural = prf(
    risk.map((r) => r >= threshold),
    labels,
  );
  return { auroc: auroc(risk, labels), precision: natural.precision, recall: natural.recall, f1: natural.f1, flagged: natural.flagged };
}

/**
 * The risk aggregate with the best cross-validated AUROC (ties: the earlier of RISK_AGGREGATES), and
 * its threshold: the best F1 at the natural rate, midway between the cut and the next lower risk.
 */
export function chooseRisk(
  claimsPerAnswer: readonly (readonly number[])[],
  labels: readonly boolean[],
): { aggregate: RiskAggregate; threshold: number; byAggregate: Record<string, number | null> } {
  const byAggregate: Record<string, number | null> = {};
  let best: { aggregate: RiskAggregate; auroc: number } = { aggregate: "min", auroc: -1 };
  for (const aggregate of RISK_AGGREGATES) {
    const a = auroc(
      claimsPerAnswer.map((ps) => riskOf(aggregate, ps)),
      labels,
    );
    byAggregate[aggregate] = a;
    if (a !== null && a > best.auroc + 1e-12) best = { aggregate, auroc: a };
  }
  const risk = claimsPerAnswer.map((ps) => riskOf(best.aggregate, ps));
  const { cut } = bestCut(risk, labels);
  const below = risk.filter((r) => r < cut - 1e-12);
  const next = below.length === 0 ? 0 : Math.max(...below);
  return { aggregate: best.aggregate, threshold: (cut + next) / 2, byAggregate };
}

/** Figures of answer-level detection with flagged ⇔ the lowest claim probability < threshold. */
export function detectionFigures(minP: readonly number[], labels: readonly boolean[], threshold: number) {
  const flags = minP.map((p) => p < threshold);
  const natural = prf(flags, labels);
  return {
    auroc: auroc(
      minP.map((p) => 1 - p),
      labels,
    ),
    precision: natural.precision,
    recall: natural.recall,
    f1: natural.f1,
    flagged: natural.flagged,
  };
}

/** The threshold with the best F1 at the natural rate: midway between the cut's min-p and the next larger one. */
export function chooseThreshold(minP: readonly number[], labels: readonly boolean[]): number {
  const { cut } = bestCut(
    minP.map((p) => 1 - p),
    labels,
  );
  const at = 1 - cut;
  const above = minP.filter((p) => p > at + 1e-12);
  const next = above.length === 0 ? 1 : Math.min(...above);
  return (at + next) / 2;
}

export function train(answers: readonly RagTruthAnswer[], source: string) {
  const rows = trainingRows(answers);
  const labels = answers.map((a) => a.hallucinated);
  // grouped cross-validation: out-of-fold probabilities
  const oof = new Array<number>(rows.length).fill(0);
  for (let k = 0; k < FOLDS; k++) {
    const fitRows = rows.filter((r) => foldOf(r.question) !== k);
    const fit = fitLogistic(
      fitRows.map((r) => r.x),
      fitRows.map((r) => r.y),
      L2,
    );
    rows.forEach((r, i) => {
      if (foldOf(r.question) === k) oof[i] = claimP(fit, r);
    });
  }
  const oofMin = minPerAnswer(answers, rows, oof);
  const threshold = chooseThreshold(oofMin, labels);
  const oofClaims = perAnswer(answers, rows, oof);
  const risk = chooseRisk(oofClaims, labels);
  if (threshold <= RULE_PENALTY) throw new Error(`train: threshold ${threshold} ≤ number penalty ${RULE_PENALTY}: a claim with a missing number could be SUPPORTED`);
  const fit = fitLogistic(
    rows.map((r) => r.x),
    rows.map((r) => r.y),
    L2,
  );
  const inP = rows.map((r) => claimP(fit, r));
  const inMin = minPerAnswer(answers, rows, inP);
  const inRisk = perAnswer(answers, rows, inP).map((ps) => riskOf(risk.aggregate, ps));
  const oofRisk = oofClaims.map((ps) => riskOf(risk.aggregate, ps));
  const claimAuroc = auroc(
    oof.map((p) => 1 - p),
    rows.map((r) => r.y === 0),
  );
  const round = (x: number): number => Number(x.toPrecision(10));
  return parseGroundingModel(
    {
      format: 1,
      features: [...FEATURE_NAMES],
      mean: fit.mean.map(round),
      scale: fit.scale.map(round),
      weights: fit.weights.map(round),
      intercept: round(fit.intercept),
      l2: L2,
      threshold: round(threshold),
      rule_penalty: RULE_PENALTY,
      risk: { aggregate: risk.aggregate, threshold: round(risk.threshold) },
      training_sha256: rowsDigest(rows),
      trained_on: {
        data: `RAGTruth QA development answers (${source}); RAGTruth: Niu et al., ACL 2024, MIT licence, Copyright (c) 2023 Particle Media`,
        answers: answers.length,
        hallucinated: labels.filter((x) => x).length,
        claims: rows.length,
        unsupported_claims: rows.filter((r) => r.y === 0).length,
        claim_label: "unsupported when the claim overlaps a labelled hallucination span by 3 or more characters",
        script: "bench/judges/train.ts (npm run judge:train)",
      },
      figures: {
        cross_validated: {
          folds: FOLDS,
          grouped_by: "question (source_id)",
          ...detectionFigures(oofMin, labels, threshold),
          claim_auroc: claimAuroc,
          risk: { ...riskFigures(oofRisk, labels, risk.threshold), auroc_by_aggregate: risk.byAggregate },
        },
        in_sample: { ...detectionFigures(inMin, labels, threshold), risk: riskFigures(inRisk, labels, risk.threshold) },
      },
    },
    "bench/judges/train.ts",
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { check: { type: "boolean", default: false } } });
  const file = path.join(judgeDevDir(), "ragtruth-qa-dev.jsonl");
  const answers = goodAnswers(loadRagTruth(file));
  const model = train(answers, "../shared/judge-dev/ragtruth-qa-dev.jsonl, quality good");
  const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../core/src/judges/heuristic/grounding-model.json");
  const text = `${JSON.stringify(model, null, 2)}\n`;
  console.log(JSON.stringify({ figures: model.figures, trained_on: model.trained_on, threshold: model.threshold }, null, 2));
  if (values.check) {
    const same = isDeepStrictEqual(JSON.parse(readFileSync(out, "utf8")), JSON.parse(text));
    console.log(same ? `${out} is what the script reproduces` : `${out} is stale: run npm run judge:train`);
    if (!same) process.exitCode = 1;
    return;
  }
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 2;
  });
}
