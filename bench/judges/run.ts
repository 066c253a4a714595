// `npm run bench:judges`: two labelled sets through the product's normal `eval` path — a golden set
// built from the answers, a scripted target replaying each (question → its chunks and its answer),
// the run recorder writing into a fresh embedded store:
//   1. RAGTruth QA development answers (../shared/judge-dev, written by six LLMs, labelled by people):
//      response-level detection (precision, recall, F1 at the natural rate and balanced, AUROC),
//      claim-level agreement with the labelled spans and the judge's µs per answer, beside the
//      "always hallucinated" and word-overlap baselines computed on the same answers (detection.ts,
//      baselines.ts);
//   2. the en/ru/zh cases (cases.jsonl): the same detection figures per language, and the judges'
//      agreement with the labels (agreement.ts) overall, by language and by category, with calls,
//      tokens, cost and wall time.
//   heuristic judges: always; LLM judges: when OPENAI_BASE_URL is set (RAGMETER_JUDGE_MODEL etc., as
//   for `ragmeter eval`: any OpenAI-compatible endpoint, e.g. `npm run -s local-model:start`'s).
//   Beside the detection table each judge gets its answers per grounding status, calls, tokens,
//   seconds per answer and reply failures (judge_error by reason).
//   3. the cascade judge's quality against its LLM calls on the RAGTruth answers (cascadeCurve.ts:
//      tier 1 out of fold + the tier-3 judgments stored in llm-results/, bands chosen by
//      cross-validation), after the judges' tables or alone with `--only cascade`.
// Usage: npm run bench:judges [-- --json] [-- --only heuristic|llm|cascade] [-- --set ragtruth|cases]
//          [-- --subset N] [-- --grounding-only] [-- --llm-results MODEL]
//   --subset N        RAGTruth: the first N by numeric id of the balanced sample (every hallucinated
//                     `good` answer and as many clean ones, those with the smallest sha256 of their id)
//   --grounding-only  relevance is not judged (not_applicable): half the LLM calls
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseGoldenSet } from "@ragmeter/golden";
import type { Outcome } from "../../core/src/domain/metric.js";
import { outcomeOf } from "../../core/src/domain/result.js";
import { claimSpans } from "../../core/src/judges/heuristic/claims.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { committedGroundingModel } from "../../core/src/judges/heuristic/model.js";
import type { ClaimVerdict, Judge } from "../../core/src/judges/types.js";
import { loadConfig } from "../../scorer/src/cli/config.js";
import { judgeFor } from "../../scorer/src/cli/context.js";
import { runEval } from "../../scorer/src/runs/eval.js";
import { runSpec } from "../../scorer/src/runs/spec.js";
import type { Target } from "../../scorer/src/runs/target.js";
import { openStore } from "../../store/src/client.js";
import { agreementTable, type CaseJudgment, formatTable, pct } from "./agreement.js";
import { OVERLAP_CUT, wordOverlap } from "./baselines.js";
import { cascadeReport } from "./cascadeCurve.js";
import { type JudgeCase, LANGUAGES, loadJudgeCases } from "./cases.js";
import { auroc, balancingWeight, prf } from "./detection.js";
import { goodAnswers, inLabelledSpan, judgeDevDir, loadRagTruth, type RagTruthAnswer } from "./ragtruth.js";

/** Goals of issue 40 on the development data (all `good` answers): the heuristic judge's grounding risk, cross-validated. */
export const GOAL_AUROC = 0.86;
export const GOAL_F1_NATURAL = 0.62;
/** Goal: grounding agreement on the en/ru/zh cases not below the rules' (issue 13). */
export const GOAL_CASES_GROUNDING = 0.855;

/** One judge the bench runs. */
interface BenchJudge {
  readonly label: string;
  readonly judge: Judge;
  /** Checked against the goals (the heuristic judges). */
  readonly goal: boolean;
}

/** The judges to run (the one place the bench chooses them): the heuristic judges; the LLM judges of the environment when OPENAI_BASE_URL is set. */
export async function benchJudges(env: NodeJS.ProcessEnv, only: string | undefined): Promise<BenchJudge[]> {
  const out: BenchJudge[] = [];
  if (only === undefined || only === "heuristic") out.push({ label: "heuristic", judge: createHeuristicJudge(), goal: true });
  if ((only === undefined || only === "llm") && env["OPENAI_BASE_URL"]) {
    const judge = await judgeFor(loadConfig(env));
    out.push({ label: `llm ${judge.model}`, judge, goal: false });
  }
  return out;
}

/** An answer to replay: the question, what was retrieved and what the service answered. */
export interface ReplayItem {
  readonly id: string;
  readonly question: string;
  readonly chunks: readonly { readonly id: string; readonly text: string }[];
  readonly answer: string;
}

/** The golden set of the items: every item answerable (bench/judges/README.md, "Labels"). */
function goldenText(items: readonly ReplayItem[]): string {
  return items.map((c) => JSON.stringify({ id: c.id, question: c.question, expected_source: "bench" })).join("\n");
}

/** A scripted target: the item named by the golden id in the baggage answers with its chunks and answer. */
function replayTarget(items: readonly ReplayItem[]): Target {
  const byId = new Map(items.map((c) => [c.id, c]));
  return {
    description: "judge bench replay",
    async ask(_question, headers) {
      const m = /ragmeter\.golden\.id=([^,]*)/u.exec(headers.baggage);
      const c = m ? byId.get(decodeURIComponent(m[1] as string)) : undefined;
      if (c === undefined) return { ok: false, reason: "no item for this golden id", latency_ms: 0 };
      return {
        ok: true,
        reply: { answer: c.answer, contexts: c.chunks.map((k) => ({ id: k.id, document_id: "bench", text: k.text, score: null })), model: "bench-replay", pipeline_version: null },
        latency_ms: 0,
      };
    },
  };
}

/** What a judge said of one item, with the judge's own time. */
export interface ItemJudgment extends CaseJudgment {
  readonly claimVerdicts: readonly ClaimVerdict[];
  /** The judgment's grounding risk (the heuristic judge), else null. */
  readonly risk: number | null;
  readonly groundingMs: number;
  /** The grounding reason (a status other than ok, or a note). */
  readonly groundingReason?: string;
}

/** The balanced sample of the development answers: every hallucinated one and as many clean ones (smallest sha256 of the id), by numeric id; the first `n`. */
export function balancedSubset(answers: readonly RagTruthAnswer[], n: number): RagTruthAnswer[] {
  const pos = answers.filter((a) => a.hallucinated);
  const h = (id: string) => createHash("sha256").update(id).digest("hex");
  const neg = answers
    .filter((a) => !a.hallucinated)
    .sort((a, b) => (h(a.id) < h(b.id) ? -1 : 1))
    .slice(0, pos.length);
  return [...pos, ...neg].sort((a, b) => Number(a.id) - Number(b.id)).slice(0, n);
}

/** The judge with relevance left out (`--grounding-only`): every relevance judgment `not_applicable`, no call. */
function groundingOnly(judge: Judge): Judge {
  return {
    ...judge,
    judge: (task, request) =>
      task === "grounding"
        ? judge.judge(task, request)
        : Promise.resolve({ status: "not_applicable", value: null, reason: "bench: --grounding-only", input_tokens: 0, output_tokens: 0, latency_ms: 0 }),
  };
}

/** What the bench keeps of one answer's grounding and relevance outcomes. */
function itemJudgment(g: Outcome, r: Outcome): ItemJudgment {
  return {
    grounding: { status: g.status, value: g.value },
    claims: (g.claims ?? []).map((c) => ({ text: c.text, verdict: c.verdict })),
    claimVerdicts: g.claims ?? [],
    risk: g.risk ?? null,
    relevance: { status: r.status, value: r.value },
    groundingMs: g.latency_ms ?? 0,
    ...(g.reason !== "" ? { groundingReason: g.reason } : {}),
  };
}

/** Answers per grounding status, and the judge_error reasons with their counts (reply failures). */
export function statusLines(judged: ReadonlyMap<string, ItemJudgment>): string[] {
  const statuses = new Map<string, number>();
  const reasons = new Map<string, number>();
  for (const j of judged.values()) {
    statuses.set(j.grounding.status, (statuses.get(j.grounding.status) ?? 0) + 1);
    if (j.grounding.status === "judge_error") {
      // the reason without the quoted sentence, so that alike failures count together
      const r = (j.groundingReason ?? "no reason").replace(/"[^"]*"/gu, '"…"');
      reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
  }
  const out = [`answers per grounding status: ${[...statuses].map(([k, v]) => `${k} ${v}`).join(", ")}`];
  const failures = [...reasons.values()].reduce((a, b) => a + b, 0);
  out.push(`reply failures (judge_error): ${failures}${failures > 0 ? ":" : ""}`);
  for (const [r, n] of [...reasons].sort((a, b) => b[1] - a[1])) out.push(`  ${String(n).padStart(4)}  ${r}`);
  return out;
}

/** Runs the items through `eval` with one judge; returns what it said per item and its usage. */
export async function benchOne(items: readonly ReplayItem[], judge: Judge, concurrency: number) {
  const home = mkdtempSync(path.join(tmpdir(), "ragmeter-bench-judges-"));
  const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  try {
    const golden = await parseGoldenSet(goldenText(items), "bench/judges", { format: "jsonl" });
    const t0 = performance.now();
    const target = replayTarget(items);
    const spec = runSpec({ source: { kind: "golden", set: golden }, target: target.description, pipelineVersion: "bench", ks: [1], cache: false });
    const outcome = await runEval({ spec, target, concurrency, judge, store });
    const wallMs = performance.now() - t0;
    // runEval keeps the per-question results unless told not to (keepResults), and this run does not say so.
    if (outcome.results === null) throw new Error("bench/judges: runEval kept no per-question results");
    const judged = new Map<string, ItemJudgment>(outcome.results.map((q) => [q.golden_id, itemJudgment(outcomeOf(q, "grounding"), outcomeOf(q, "relevance"))]));
    return { judged, stats: outcome.judgeReport.stats, wallMs, runId: outcome.run.run_id };
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Hallucination score of a judged answer by its grounding (higher = more likely hallucinated):
 * 1 − grounding, the number users chart; an answer with no claim or no grounding value scores 0.
 */
export const groundingScore = (j: ItemJudgment): number => (j.grounding.value === null ? 0 : 1 - j.grounding.value);

/** The judge's flag: some claim is not SUPPORTED (grounding < 1). */
export const flagged = (j: ItemJudgment): boolean => j.grounding.status === "ok" && j.grounding.value !== null && j.grounding.value < 1;

/** Grounding risk of a judged answer (0 with no claim). */
const riskScore = (j: ItemJudgment): number => j.risk ?? 0;

/** 1 − the lowest claim support probability of a judged answer (an LLM judge's, from its verdicts' logprobs), else its groundingScore. */
const supportScore = (j: ItemJudgment): number => {
  const s = j.claimVerdicts.flatMap((c) => (c.support === undefined ? [] : [c.support]));
  return s.length > 0 ? 1 - Math.min(...s) : groundingScore(j);
};

/** One row of a detection table. */
export interface DetectionRow {
  readonly detector: string;
  readonly answers: number;
  readonly hallucinated: number;
  readonly precision: number | null;
  readonly recall: number | null;
  readonly f1: number | null;
  readonly f1Balanced: number | null;
  readonly auroc: number | null;
  /** Claims whose SUPPORTED / not-SUPPORTED verdict matches the labels, where labels allow. */
  readonly claimAgreement: { readonly n: number; readonly agreement: number | null } | null;
  readonly usPerAnswer: number | null;
}

function detectionRow(
  detector: string,
  flags: readonly boolean[],
  scores: readonly number[],
  labels: readonly boolean[],
  extra: Pick<DetectionRow, "claimAgreement" | "usPerAnswer">,
): DetectionRow {
  const natural = prf(flags, labels);
  return {
    detector,
    answers: labels.length,
    hallucinated: labels.filter((y) => y).length,
    precision: natural.precision,
    recall: natural.recall,
    f1: natural.f1,
    f1Balanced: prf(flags, labels, balancingWeight(labels)).f1,
    auroc: auroc(scores, labels),
    ...extra,
  };
}

/** The detection table of one set: the judge, then the baselines on the same answers. */
export function detectionTable(
  label: string,
  items: readonly ReplayItem[],
  labels: readonly boolean[],
  judged: ReadonlyMap<string, ItemJudgment>,
  claimAgreement: DetectionRow["claimAgreement"],
  riskThreshold: number | null = null,
): DetectionRow[] {
  const js = items.map((i) => {
    const j = judged.get(i.id);
    if (j === undefined) throw new Error(`bench/judges: no judgment for ${i.id}`);
    return j;
  });
  const overlap = items.map((i) =>
    wordOverlap(
      i.answer,
      i.chunks.map((c) => c.text),
    ),
  );
  const us = (js.reduce((a, j) => a + j.groundingMs, 0) / Math.max(1, js.length)) * 1000;
  const withRisk = riskThreshold !== null && js.some((j) => j.risk !== null);
  const riskRows = withRisk
    ? [
        detectionRow(
          `${label} grounding_risk ≥ ${riskThreshold.toFixed(3)}`,
          js.map((j) => riskScore(j) >= riskThreshold),
          js.map(riskScore),
          labels,
          { claimAgreement: null, usPerAnswer: null },
        ),
      ]
    : [];
  // an LLM judge's claims carry support probabilities (issue 40): the answers ranked by 1 − the lowest
  const withSupport = !withRisk && js.some((j) => j.claimVerdicts.some((c) => c.support !== undefined));
  const supportRows = withSupport
    ? [detectionRow(`${label} 1 − lowest claim support`, js.map(flagged), js.map(supportScore), labels, { claimAgreement: null, usPerAnswer: null })]
    : [];
  return [
    ...riskRows,
    ...supportRows,
    detectionRow(withRisk || withSupport ? `${label} grounding < 1` : label, js.map(flagged), js.map(groundingScore), labels, { claimAgreement, usPerAnswer: us }),
    detectionRow(
      `word overlap < ${OVERLAP_CUT}`,
      overlap.map((o) => o < OVERLAP_CUT),
      overlap.map((o) => 1 - o),
      labels,
      { claimAgreement: null, usPerAnswer: null },
    ),
    detectionRow(
      "always hallucinated",
      labels.map(() => true),
      labels.map(() => 1),
      labels,
      { claimAgreement: null, usPerAnswer: null },
    ),
  ];
}

const f3 = (x: number | null): string => (x === null ? "—" : x.toFixed(3));

/** A detection table as text. */
export function formatDetection(rows: readonly DetectionRow[]): string {
  const head = ["detector", "answers", "halluc.", "P", "R", "F1", "F1 bal.", "AUROC", "claim agr.", "µs/answer"];
  const body = rows.map((r) => [
    r.detector,
    String(r.answers),
    String(r.hallucinated),
    f3(r.precision),
    f3(r.recall),
    f3(r.f1),
    f3(r.f1Balanced),
    f3(r.auroc),
    r.claimAgreement === null || r.claimAgreement.agreement === null ? "—" : `${pct(r.claimAgreement.agreement)} of ${r.claimAgreement.n}`,
    r.usPerAnswer === null ? "—" : r.usPerAnswer.toFixed(0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] as string).length)));
  const line = (r: readonly string[]): string => r.map((x, i) => (i === 0 ? x.padEnd(widths[i] as number) : x.padStart(widths[i] as number))).join("  ");
  return [line(head), ...body.map(line)].join("\n");
}

/** RAGTruth answers as replay items. */
export function ragTruthItems(answers: readonly RagTruthAnswer[]): ReplayItem[] {
  return answers.map((a) => ({ id: `rt-${a.id}`, question: a.question, chunks: a.passages, answer: a.response }));
}

/**
 * Claim-level agreement on RAGTruth (SUPPORTED against "overlaps no labelled span"): the judge's
 * claims paired with the product's claim spans of the answer when both list the same number of
 * claims (the heuristic judge always; an LLM judge's own claims have no offsets: null).
 */
export function ragTruthClaimAgreement(answers: readonly RagTruthAnswer[], judged: ReadonlyMap<string, ItemJudgment>): DetectionRow["claimAgreement"] {
  let n = 0;
  let agree = 0;
  for (const a of answers) {
    const j = judged.get(`rt-${a.id}`);
    const spans = claimSpans(a.response);
    if (j === undefined || j.claimVerdicts.length !== spans.length || j.claimVerdicts.some((c, i) => c.text !== spans[i]?.text)) return null;
    spans.forEach((s, i) => {
      n++;
      if ((j.claimVerdicts[i]?.verdict === "SUPPORTED") === !inLabelledSpan(a, s.start, s.end)) agree++;
    });
  }
  return { n, agreement: n === 0 ? null : agree / n };
}

/** Cases as replay items. */
const caseItems = (cases: readonly JudgeCase[]): ReplayItem[] => cases.map((c) => ({ id: c.id, question: c.question, chunks: c.chunks, answer: c.answer }));

/** Claim agreement of the cases (SUPPORTED vs not), from the agreement table's pairing. */
function casesClaimAgreement(cases: readonly JudgeCase[], judged: ReadonlyMap<string, ItemJudgment>): DetectionRow["claimAgreement"] {
  let n = 0;
  let agree = 0;
  for (const c of cases) {
    const j = judged.get(c.id);
    if (j === undefined) continue;
    const byText = new Map(j.claims.map((x) => [x.text, x.verdict]));
    for (const l of c.claims) {
      n++;
      if ((byText.get(l.text) === "SUPPORTED") === (l.label === "SUPPORTED")) agree++;
    }
  }
  return { n, agreement: n === 0 ? null : agree / n };
}

/**
 * The goals of issue 40 against the heuristic judge's rows: AUROC of its grounding_risk row (else its
 * first row), F1 of its verdicts' flag (grounding < 1, else its first row); one line per condition,
 * and whether all hold.
 */
export function goalCheck(ragTruth: readonly DetectionRow[], casesGrounding: number | null): { met: boolean; lines: string[] } {
  const risk = ragTruth.find((r) => r.detector.includes("grounding_risk")) ?? ragTruth[0];
  const verdicts = ragTruth.find((r) => r.detector.endsWith("grounding < 1")) ?? ragTruth[0];
  const overlap = ragTruth.find((r) => r.detector.startsWith("word overlap"));
  const lines: string[] = [];
  let met = true;
  const check = (what: string, x: number | null | undefined, goal: number, beside?: number | null): void => {
    const ok = x !== null && x !== undefined && x >= goal && (beside === undefined || beside === null || x > beside);
    met &&= ok;
    const against = beside === undefined ? "" : `, word overlap ${f3(beside)}`;
    lines.push(`${ok ? "met    " : "NOT met"}  ${what} ${f3(x ?? null)} (goal ≥ ${goal}${against})`);
  };
  check("RAGTruth dev AUROC of grounding_risk", risk?.auroc, GOAL_AUROC, overlap?.auroc ?? null);
  check("RAGTruth dev F1 at the natural rate of grounding < 1", verdicts?.f1, GOAL_F1_NATURAL, overlap?.f1 ?? null);
  check("cases grounding agreement", casesGrounding, GOAL_CASES_GROUNDING);
  return { met, lines };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: "boolean", default: false },
      only: { type: "string" },
      set: { type: "string" },
      concurrency: { type: "string", default: "8" },
      subset: { type: "string" },
      "grounding-only": { type: "boolean", default: false },
      "llm-results": { type: "string" },
    },
  });
  const devFile = path.join(judgeDevDir(), "ragtruth-qa-dev.jsonl");
  const good = values.set === "cases" ? [] : goodAnswers(loadRagTruth(devFile));
  const subset = values.subset === undefined ? null : Number(values.subset);
  if (subset !== null && !(Number.isInteger(subset) && subset > 0)) throw new Error(`bench:judges: --subset must be a positive integer, got ${values.subset}`);
  const dev = subset === null ? good : balancedSubset(good, subset);
  const devWhat =
    subset === null
      ? `${dev.length} good answers`
      : `the first ${dev.length} by id of the balanced sample (${dev.filter((a) => a.hallucinated).length} hallucinated; ids ${dev[0]?.id}–${dev.at(-1)?.id})`;
  const cascadeCurve = values.set !== "cases" && subset === null && !values.json && (values.only === undefined || values.only === "cascade");
  if (values.only === "cascade") {
    for (const l of await cascadeReport(good, values["llm-results"] ?? null)) console.log(l);
    return;
  }
  const cases = values.set === "ragtruth" ? [] : loadJudgeCases();
  const judges = (await benchJudges(process.env, values.only)).map((b) => (values["grounding-only"] ? { ...b, judge: groundingOnly(b.judge) } : b));
  const report: unknown[] = [];
  let failed = false;
  const concurrency = Number(values.concurrency);
  for (const b of judges) {
    const log = (s: string): void => {
      if (!values.json) console.log(s);
    };
    let rtRows: DetectionRow[] = [];
    if (dev.length > 0) {
      const items = ragTruthItems(dev);
      const r = await benchOne(items, b.judge, concurrency);
      rtRows = detectionTable(
        b.label,
        items,
        dev.map((a) => a.hallucinated),
        r.judged,
        ragTruthClaimAgreement(dev, r.judged),
        b.goal ? committedGroundingModel().risk.threshold : null,
      );
      log(`\n== ${b.label} judges (prompt ${b.judge.promptVersion["grounding"]}) on RAGTruth QA dev: ${devWhat}, en (${devFile})`);
      log(formatDetection(rtRows));
      const perAnswer = [...r.judged.values()].reduce((a, j) => a + j.groundingMs, 0) / Math.max(1, r.judged.size) / 1000;
      log(
        `calls ${r.stats.calls}, tokens ${r.stats.input_tokens} in + ${r.stats.output_tokens} out, grounding ${perAnswer.toFixed(1)} s per answer, wall ${(r.wallMs / 1000).toFixed(1)} s through eval`,
      );
      for (const l of statusLines(r.judged)) log(l);
      if (b.goal) {
        const cv = committedGroundingModel().figures["cross_validated"] as { auroc?: number; f1?: number; risk?: { auroc?: number; f1?: number } } | undefined;
        log(
          `the model's own 5-fold cross-validation on this set, grouped by question (held-out answers): grounding_risk AUROC ${f3(cv?.risk?.auroc ?? null)}, F1 ${f3(cv?.risk?.f1 ?? null)}; lowest claim p AUROC ${f3(cv?.auroc ?? null)}, grounding < 1 F1 ${f3(cv?.f1 ?? null)}`,
        );
      }
    }
    let casesGrounding: number | null = null;
    const caseRows: Record<string, DetectionRow[]> = {};
    if (cases.length > 0) {
      const r = await benchOne(caseItems(cases), b.judge, concurrency);
      const table = agreementTable(cases, r.judged);
      casesGrounding = table.find((g) => g.group === "overall")?.grounding ?? null;
      log(`\n== ${b.label} judges on ${cases.length} en/ru/zh cases (bench/judges/cases.jsonl), detection per language (hallucinated = expected grounding < 1)`);
      for (const l of LANGUAGES) {
        const sub = cases.filter((c) => c.language === l && c.expected_grounding !== null);
        caseRows[l] = detectionTable(
          `${b.label} ${l}`,
          caseItems(sub),
          sub.map((c) => (c.expected_grounding as number) < 1),
          r.judged,
          casesClaimAgreement(sub, r.judged),
          b.goal ? committedGroundingModel().risk.threshold : null,
        );
        log(formatDetection(caseRows[l] as DetectionRow[]));
      }
      log("agreement with the labels (grounding within 0.1, claims' three labels, relevance in range):");
      log(formatTable(table));
      const s = r.stats;
      log(
        `calls ${s.calls}, tokens ${s.input_tokens} in + ${s.output_tokens} out, cost ${s.cost_usd === null ? "unknown (no price for the model)" : `$${s.cost_usd.toFixed(4)}`}, wall ${(r.wallMs / 1000).toFixed(1)} s`,
      );
      report.push({ judge: b.label, prompt_version: b.judge.promptVersion, ragtruth: rtRows, cases: { detection: caseRows, agreement: table, stats: s } });
    } else report.push({ judge: b.label, prompt_version: b.judge.promptVersion, ragtruth: rtRows });
    if (b.goal && dev.length > 0 && cases.length > 0 && subset === null) {
      const g = goalCheck(rtRows, casesGrounding);
      log(`goal (issue 40, in-sample here; the cross-validated figures are the line above the cases):\n  ${g.lines.join("\n  ")}`);
      failed ||= !g.met;
    }
  }
  if (cascadeCurve) for (const l of await cascadeReport(good, values["llm-results"] ?? null)) console.log(l);
  if (values.json) console.log(JSON.stringify(report, null, 2));
  if (failed) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 2;
  });
}
