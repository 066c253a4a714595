/**
 * The scorer's metric table as the dashboards see it: the panels, their SQL and the alert rules
 * are generated from it, so a metric added to the table appears here with no edit.
 */
import { type MetricDef, type MetricTable, metricTable } from "@ragmeter/core/metrics";

/** The values of the dashboards' `k` variable (the k of the per-k metrics such as `recall@<k>`). */
export const DASHBOARD_KS: readonly number[] = [1, 3, 5, 10];

/** A metric as a dashboard column: its stored name in SQL and the column it becomes. */
export interface DashboardMetric {
  /** Stored name; a per-k metric at the `k` variable is `name@${k}` (Grafana substitutes it). */
  readonly name: string;
  /** Column name: `@` becomes `_at_` (`recall_at_5`, `recall_at_k` at the variable). */
  readonly column: string;
  readonly def: MetricDef;
}

/** A k that no table entry uses, standing for the `k` variable while the table is read. */
const K_PLACEHOLDER = 999_999_937;

function toDashboard(def: MetricDef): DashboardMetric {
  const name = def.name.replace(`@${K_PLACEHOLDER}`, "@${k}");
  return { name, column: name.replace("@${k}", "_at_k").replace("@", "_at_"), def };
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
