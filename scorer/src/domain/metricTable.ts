import type { JudgeCallCost } from "./judgments.js";
import type { JudgeRepeat, QuestionResult } from "./result.js";
import type { Status } from "./status.js";

/** One metric's value and status for one question. */
export interface MetricValue {
  readonly value: number | null;
  readonly status: Status | string;
}

/** The judges whose verdicts are metrics; each has its own prompt version (`Judge.promptVersion`). */
export type JudgeName = "grounding" | "relevance" | "reference_facts";

/** A judged value with what its judge call cost. */
type JudgedScore = MetricValue & JudgeCallCost & { readonly reason?: string };

/**
 * One entry of the metric table (design §5). Adding a metric is one entry here plus the function
 * that computes its part of a {@link QuestionResult}.
 */
export interface MetricDef {
  /** Stored and printed name (`recall@<k>`, `mrr`, …). */
  readonly name: string;
  /** `retrieval` (from the ranked contexts), `judged` (by a judge) or `answer` (mechanical, from the answer). */
  readonly kind: "retrieval" | "judged" | "answer";
  /** Whether it can apply to live traffic (no golden item): when false, live traces store no `not_applicable` row for it. */
  readonly live: boolean;
  /** The judge (and so the prompt version) that produces it; null for mechanical metrics (`judge_kind` `mechanical`). */
  readonly judge: JudgeName | null;
  /** Only in runs whose judge has a reference-based judge (LLM). */
  readonly needsReferenceJudge: boolean;
  /** Largest value: 1 for shares, 4 for relevance (0–4). */
  readonly max?: number;
  /** Label in the text and HTML outputs (the name when absent). */
  readonly label?: string;
  /** A headline metric: in the "moved most" list, the trend charts and the runs table (recall only at the headline k). */
  readonly headline: boolean;
  /** A column of the by-tag tables. */
  readonly byTag: boolean;
  /** Drawn in the report's trend chart and a column of its runs table (recall only at the headline k). */
  readonly trend: boolean;
  /** Colour of its series in the report's charts. */
  readonly color?: string;
  /** Value and status of the metric for one question. */
  value(q: QuestionResult): MetricValue;
  /** Why the value is what it is (stored as `reason`). */
  reason(q: QuestionResult): string;
  /** The judgment of one repeat (judged metrics only). */
  repeat?(r: JudgeRepeat): JudgedScore;
  /** The combined judgment behind the value (judged metrics only). */
  judgment?(q: QuestionResult): JudgedScore;
}

function recallAt(k: number): MetricDef {
  return {
    name: `recall@${k}`,
    kind: "retrieval",
    live: false,
    judge: null,
    needsReferenceJudge: false,
    headline: true,
    byTag: true,
    trend: true,
    color: "#1f77b4",
    value: (q) => (q.recall === null ? { value: null, status: q.recall_status } : { value: q.recall[k] ?? 0, status: "ok" }),
    reason: () => "",
  };
}

/** A metric produced by a judge: its value per repeat and combined. */
export interface JudgedMetricDef extends MetricDef {
  readonly kind: "judged";
  readonly judge: JudgeName;
  repeat(r: JudgeRepeat): JudgedScore;
  judgment(q: QuestionResult): JudgedScore;
}

function judged(name: JudgeName, pick: (r: JudgeRepeat | QuestionResult) => JudgedScore, needsReferenceJudge: boolean): JudgedMetricDef {
  return {
    name,
    kind: "judged",
    live: !needsReferenceJudge,
    judge: name,
    needsReferenceJudge,
    headline: !needsReferenceJudge,
    byTag: !needsReferenceJudge,
    trend: !needsReferenceJudge,
    value: (q) => ({ value: pick(q).value, status: pick(q).status }),
    reason: (q) => pick(q).reason ?? "",
    repeat: pick,
    judgment: pick,
  };
}

const MRR: MetricDef = {
  name: "mrr",
  kind: "retrieval",
  live: false,
  judge: null,
  needsReferenceJudge: false,
  label: "MRR",
  headline: false,
  byTag: false,
  trend: true,
  color: "#9467bd",
  value: (q) => (q.reciprocal_rank === null ? { value: null, status: q.recall_status } : { value: q.reciprocal_rank, status: "ok" }),
  reason: () => "",
};

const GROUNDING: JudgedMetricDef = { ...judged("grounding", (r) => r.grounding, false), color: "#2ca02c" };
const RELEVANCE: JudgedMetricDef = { ...judged("relevance", (r) => r.relevance, false), max: 4, color: "#ff7f0e" };
const REFERENCE_FACTS: JudgedMetricDef = { ...judged("reference_facts", (r) => r.reference_facts, true), label: "ref. facts" };

const KEY_FACTS: MetricDef = {
  name: "key_facts",
  kind: "answer",
  live: false,
  judge: null,
  needsReferenceJudge: false,
  label: "key facts",
  headline: true,
  byTag: true,
  trend: true,
  color: "#8c564b",
  value: (q) => ({ value: q.key_facts.value, status: q.key_facts.status }),
  reason: (q) => q.key_facts.reason ?? "",
};

const ABSTENTION: MetricDef = {
  name: "abstention",
  kind: "answer",
  live: false,
  judge: null,
  needsReferenceJudge: false,
  headline: false,
  byTag: true,
  trend: false,
  value: (q) => ({ value: q.abstention.value, status: q.abstention.status }),
  reason: (q) => q.abstention.reason ?? "",
};

/**
 * A metric table: its entries for a run asking the given ks (per-k metrics once per k), in stored
 * order. The product's is {@link metricTable}; the outputs take another for tests.
 */
export type MetricTable = (ks: readonly number[]) => MetricDef[];

/**
 * The metric table in stored order: `recall@<k>` for each k, `mrr` (the reciprocal rank; its mean
 * is MRR), `grounding`, `relevance` (0–4), `key_facts`, `abstention`, `reference_facts`.
 */
export function metricTable(ks: readonly number[]): MetricDef[] {
  return [...ks.map(recallAt), MRR, GROUNDING, RELEVANCE, KEY_FACTS, ABSTENTION, REFERENCE_FACTS];
}

/** The judged metrics (one judge each), in table order. */
export const JUDGED_METRICS: readonly JudgedMetricDef[] = metricTable([]).filter((m): m is JudgedMetricDef => m.kind === "judged");

/**
 * Names of a run's metrics in stored order; `reference_facts` only when the run has a
 * reference-based judge.
 */
export function metricNames(ks: readonly number[], options: { readonly referenceJudge: boolean } = { referenceJudge: true }, table: MetricTable = metricTable): string[] {
  return table(ks)
    .filter((m) => options.referenceJudge || !m.needsReferenceJudge)
    .map((m) => m.name);
}

/** Per-question values of every metric of the table, keyed by metric name. */
export function metricValues(q: QuestionResult, ks: readonly number[]): Map<string, MetricValue> {
  const m = new Map<string, MetricValue>();
  for (const def of metricTable(ks)) m.set(def.name, def.value(q));
  return m;
}

/** Metrics that can never apply to live traffic (no golden item). */
export function liveNeverApplicable(metric: string): boolean {
  if (metric.startsWith("recall@")) return true;
  return metricTable([]).some((m) => m.name === metric && !m.live);
}

/**
 * Display rank of a metric: `recall@<k>` by k, then the other retrieval metrics (MRR), the judged
 * metrics, the answer metrics (key facts, abstention); unknown names last.
 */
export function displayRank(metric: string): number {
  if (metric.startsWith("recall@")) return Number(metric.slice("recall@".length));
  const order = (["retrieval", "judged", "answer"] as const).flatMap((kind) =>
    metricTable([])
      .filter((m) => m.kind === kind)
      .map((m) => m.name),
  );
  const i = order.indexOf(metric);
  return i < 0 ? Number.MAX_SAFE_INTEGER : 1000 + i;
}

/** Largest value of a metric (4 for relevance, else 1: shares and 0/1 values). */
export function metricMax(metric: string, table: MetricTable = metricTable): number {
  return metricDef(metric, table)?.max ?? 1;
}

/** The table entry of a metric name (any k for `recall@<k>`), or undefined. */
export function metricDef(metric: string, table: MetricTable = metricTable): MetricDef | undefined {
  // a per-k metric is named `<name>@<k>`
  const k = /@([1-9]\d*)$/u.exec(metric)?.[1];
  return table(k === undefined ? [] : [Number(k)]).find((m) => m.name === metric);
}

/** Label of a metric in the text and HTML outputs. */
export function metricLabel(metric: string, table: MetricTable = metricTable): string {
  return metricDef(metric, table)?.label ?? metric;
}
