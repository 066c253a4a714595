/**
 * The scorer's metric table as the dashboards see it: the panels, their SQL and the alert rules
 * are generated from it, so a metric added to the table appears here with no edit.
 */
import { type MetricDef, type MetricTable, metricTable } from "@ragmeter/core/metrics";

/** The values of the dashboards' `k` variable (the k of the per-k metrics such as recall@<k>). */
export const DASHBOARD_KS: readonly number[] = [1, 3, 5, 10];

/** A metric as a dashboard column: its stored name in SQL and the column it becomes. */
export interface DashboardMetric {
  /** Stored name; a per-k metric at the `k` variable is `name@${k}` (Grafana substitutes it). */
  readonly name: string;
  /** Column name: `@` becomes `_at_` (`recall_at_5`, `recall_at_k` at the variable). */
  readonly column: string;
  readonly def: MetricDef;
}

/** How the stored name of a per-k metric at the `k` variable ends (recall@${k}). */
export const AT_K = "@${k}";

/** A k that no table entry uses, standing for the `k` variable while the table is read. */
const K_PLACEHOLDER = 999_999_937;

function toDashboard(def: MetricDef): DashboardMetric {
  const name = def.name.replace(`@${K_PLACEHOLDER}`, AT_K);
  return { name, column: name.replace(AT_K, "_at_k").replace("@", "_at_"), def };
}

/** Metrics of the table that `keep` selects, per-k ones at the `k` variable, in table order. */
export function metricsAtK(keep: (m: MetricDef) => boolean, table: MetricTable = metricTable): DashboardMetric[] {
  return table([K_PLACEHOLDER]).filter(keep).map(toDashboard);
}

/** Metrics of the table that `keep` selects, per-k ones at every k of {@link DASHBOARD_KS}, in table order. */
export function metricsAtEveryK(keep: (m: MetricDef) => boolean, table: MetricTable = metricTable): DashboardMetric[] {
  return table(DASHBOARD_KS).filter(keep).map(toDashboard);
}

/** A SQL list of string literals: `'a', 'b'`. */
export function sqlNames(metrics: readonly DashboardMetric[]): string {
  return metrics.map((m) => `'${m.name}'`).join(", ");
}

/** `avgIf` columns, one per metric: `avgIf(v, metric = 'x') AS x`, joined by `,\n  `. */
export function avgColumns(metrics: readonly DashboardMetric[], prefix = ""): string {
  return metrics.map((m) => `avgIf(${prefix}v, ${prefix}metric = '${m.name}') AS ${m.column}`).join(",\n  ");
}

/**
 * The judged metric scored on a 0–`max` scale (relevance, 0–4): the Relevance dashboard's distribution
 * and low scores, the first such in table order.
 * @throws Error when the table has none.
 */
export function scaledJudgedMetric(table: MetricTable = metricTable): DashboardMetric & { readonly max: number } {
  const m = metricsAtK((d) => d.kind === "judged" && d.max !== undefined, table)[0];
  if (m?.def.max === undefined) throw new Error("the metric table has no judged metric with a max (a 0–max score) for the Relevance dashboard");
  return { ...m, max: m.def.max };
}

/**
 * The headline per-k retrieval metric (recall@k: 1 for a hit in the top k, else 0), at the `k`
 * variable: the questions that lost their hit, the `k` variable's label.
 * @throws Error when the table has none.
 */
export function hitMetric(table: MetricTable = metricTable): DashboardMetric {
  const m = metricsAtK((d) => d.kind === "retrieval" && d.headline, table).find((x) => x.name.endsWith(AT_K));
  if (m === undefined) throw new Error("the metric table has no headline per-k retrieval metric for the lost-hit panel");
  return m;
}

/**
 * The metric whose rows count a source's traces: the first live one that needs only the question and
 * the answer (relevance), so every RAG trace has its row, with a value or the status why not.
 * @throws Error when the table has none.
 */
export function perTraceMetric(table: MetricTable = metricTable): DashboardMetric {
  const m = metricsAtK((d) => d.live && d.needs.every((n) => n === "question" || n === "answer"), table)[0];
  if (m === undefined) throw new Error("the metric table has no live metric that needs only the question and the answer (the content_missing rule counts traces by it)");
  return m;
}
