// Agreement of a judge with the hand labels of the judge benchmark set (definitions: README.md,
// "Judge benchmark"). Pure: takes the cases and what a judge said about each, returns
// the figures overall, by language and by category. Read by the runner (run.ts) and by vitest.
import { type Agreement, cohenKappa, quadraticWeightedKappa } from "../../scorer/src/runs/calibrate/kappa.js";
import { CATEGORIES, type JudgeCase, LANGUAGES } from "./cases.js";

/** A grounding value within this distance of the expected one agrees. */
export const GROUNDING_TOLERANCE = 0.1;
/** Goal of issue 13 for the heuristic judges: grounding agreement overall. */
export const GOAL_GROUNDING = 0.85;
/** Goal: relevance agreement overall. */
export const GOAL_RELEVANCE = 0.8;
/** Goal: neither agreement below this in any language. */
export const GOAL_LANGUAGE_FLOOR = 0.75;

/** Verdict given to a labelled claim the judge did not return (a disagreement, its own label in κ). */
export const MISSING = "MISSING";

/** What a judge said about one case (from the run's per-question results). */
export interface CaseJudgment {
  readonly grounding: { readonly status: string; readonly value: number | null };
  readonly claims: readonly { readonly text: string; readonly verdict: string }[];
  readonly relevance: { readonly status: string; readonly value: number | null };
}

/** Figures of one group of cases. */
export interface GroupFigures {
  readonly group: string;
  readonly cases: number;
  /** Share of cases whose grounding agrees (see {@link groundingAgrees}). */
  readonly grounding: number | null;
  /** Labelled claims paired with a judge verdict: agreement and Cohen's κ. */
  readonly claims: Agreement;
  /** Share of cases whose relevance agrees (see {@link relevanceAgrees}). */
  readonly relevance: number | null;
  /** Quadratic-weighted κ of the judge's score against the nearest score of the labelled range (cases with a score). */
  readonly relevanceQwk: Agreement;
}

const norm = (s: string): string => s.normalize("NFC").replace(/\s+/gu, " ").trim();

/**
 * Grounding agrees when the judge's status is `ok` and its value is within
 * {@link GROUNDING_TOLERANCE} of the expected grounding, or when both are `no_claims`.
 */
export function groundingAgrees(c: JudgeCase, j: CaseJudgment): boolean {
  if (c.expected_grounding === null) return j.grounding.status === "no_claims";
  return j.grounding.status === "ok" && j.grounding.value !== null && Math.abs(j.grounding.value - c.expected_grounding) <= GROUNDING_TOLERANCE + 1e-9;
}

/** Relevance agrees when the judge's status is `ok` and its score lies inside the labelled range. */
export function relevanceAgrees(c: JudgeCase, j: CaseJudgment): boolean {
  const v = j.relevance.value;
  return j.relevance.status === "ok" && v !== null && v >= c.relevance.min && v <= c.relevance.max;
}

/**
 * [judge verdict, label] for every labelled claim: the judge's claim with the same text (whitespace
 * folded), else the judge's claim at the same position when the judge returned as many claims as
 * were labelled, else {@link MISSING}.
 */
export function claimPairs(c: JudgeCase, j: CaseJudgment): [string, string][] {
  const byText = new Map(j.claims.map((x) => [norm(x.text), x.verdict] as const));
  const sameCount = j.claims.length === c.claims.length;
  return c.claims.map((l, i) => [byText.get(norm(l.text)) ?? (sameCount ? (j.claims[i]?.verdict ?? MISSING) : MISSING), l.label]);
}

function figures(group: string, rows: readonly { c: JudgeCase; j: CaseJudgment }[]): GroupFigures {
  const share = (f: (r: { c: JudgeCase; j: CaseJudgment }) => boolean): number | null => (rows.length === 0 ? null : rows.filter(f).length / rows.length);
  const qwkPairs = rows
    .filter(({ j }) => j.relevance.status === "ok" && j.relevance.value !== null)
    .map(({ c, j }) => {
      const v = Math.min(4, Math.max(0, Math.round(j.relevance.value as number)));
      return [v, Math.min(c.relevance.max, Math.max(c.relevance.min, v))] as const;
    });
  return {
    group,
    cases: rows.length,
    grounding: share(({ c, j }) => groundingAgrees(c, j)),
    claims: cohenKappa<string>(rows.flatMap(({ c, j }) => claimPairs(c, j))),
    relevance: share(({ c, j }) => relevanceAgrees(c, j)),
    relevanceQwk: quadraticWeightedKappa(qwkPairs, 0, 4),
  };
}

/** Figures overall, then per language, then per category (groups with no case are left out). */
export function agreementTable(cases: readonly JudgeCase[], judged: ReadonlyMap<string, CaseJudgment>): GroupFigures[] {
  const rows = cases.flatMap((c) => {
    const j = judged.get(c.id);
    return j === undefined ? [] : [{ c, j }];
  });
  const out = [figures("overall", rows)];
  for (const l of LANGUAGES)
    out.push(
      figures(
        l,
        rows.filter((r) => r.c.language === l),
      ),
    );
  for (const k of CATEGORIES)
    out.push(
      figures(
        k,
        rows.filter((r) => r.c.category === k),
      ),
    );
  return out.filter((g) => g.cases > 0);
}

/** The goal of issue 13 checked against a table: one line per condition, and whether all hold. */
export function goalCheck(table: readonly GroupFigures[]): { met: boolean; lines: string[] } {
  const lines: string[] = [];
  let met = true;
  const check = (what: string, x: number | null, goal: number): void => {
    const ok = x !== null && x >= goal;
    met &&= ok;
    lines.push(`${ok ? "met    " : "NOT met"}  ${what} ${x === null ? "—" : pct(x)} (goal ≥ ${pct(goal)})`);
  };
  const overall = table.find((g) => g.group === "overall");
  check("grounding agreement overall", overall?.grounding ?? null, GOAL_GROUNDING);
  check("relevance agreement overall", overall?.relevance ?? null, GOAL_RELEVANCE);
  for (const l of LANGUAGES) {
    const g = table.find((x) => x.group === l);
    if (g === undefined) continue;
    check(`grounding agreement ${l}`, g.grounding, GOAL_LANGUAGE_FLOOR);
    check(`relevance agreement ${l}`, g.relevance, GOAL_LANGUAGE_FLOOR);
  }
  return { met, lines };
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const kappa = (k: number | null): string => (k === null ? "—" : k.toFixed(2));

/** The table as text: one row per group. */
export function formatTable(table: readonly GroupFigures[]): string {
  const head = ["group", "cases", "grounding", "claims", "claim agr", "claim κ", "relevance", "rel. qwκ"];
  const body = table.map((g) => [
    g.group,
    String(g.cases),
    g.grounding === null ? "—" : pct(g.grounding),
    String(g.claims.n),
    g.claims.agreement === null ? "—" : pct(g.claims.agreement),
    kappa(g.claims.kappa),
    g.relevance === null ? "—" : pct(g.relevance),
    kappa(g.relevanceQwk.kappa),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] as string).length)));
  const line = (r: readonly string[]): string => r.map((x, i) => (i === 0 ? x.padEnd(widths[i] as number) : x.padStart(widths[i] as number))).join("  ");
  return [line(head), ...body.map(line)].join("\n");
}
