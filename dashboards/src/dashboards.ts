/**
 * The ragmeter dashboards, built with `@grafana/grafana-foundation-sdk`: one dashboard per area
 * (Overview, Retrieval, Grounding, Relevance, Judges, Ingestion, Tags), all sharing the same
 * variables and linked to each other by the `ragmeter` tag.
 */

import * as barchart from "@grafana/grafana-foundation-sdk/barchart";
import type { Builder, Dataquery } from "@grafana/grafana-foundation-sdk/cog";
import * as dashboard from "@grafana/grafana-foundation-sdk/dashboard";
import * as table from "@grafana/grafana-foundation-sdk/table";
import * as timeseries from "@grafana/grafana-foundation-sdk/timeseries";
import { type MetricDef, type MetricTable, metricTable } from "@ragmeter/core/metrics";
import { AT_K, DASHBOARD_KS, hitMetric, metricsAtEveryK, metricsAtK } from "./metrics.js";
import { type PanelId, panelSql, VARIABLE_SQL } from "./sql.js";

/** The provisioned datasource (see `provisioning.ts`). */
export const DATASOURCE = { type: "grafana-clickhouse-datasource", uid: "ragmeter-clickhouse" } as const;

/** A raw-SQL query of grafana-clickhouse-datasource (plugin v4 query model). */
export interface ClickHouseQuery extends Dataquery {
  refId: string;
  datasource: { type: string; uid: string };
  editorType: "sql";
  /** Display format: `timeseries` or `table` (the plugin's queryType). */
  queryType: "timeseries" | "table";
  /** sqlutil format: 0 time series, 1 table. */
  format: 0 | 1;
  rawSql: string;
}

/** Builder of a {@link ClickHouseQuery} (cog's extension point for third-party datasources). */
export class ClickHouseQueryBuilder implements Builder<Dataquery> {
  private readonly internal: ClickHouseQuery;
  constructor(rawSql: string, kind: "timeseries" | "table") {
    this.internal = {
      refId: "A",
      datasource: { ...DATASOURCE },
      editorType: "sql",
      queryType: kind,
      format: kind === "timeseries" ? 0 : 1,
      rawSql,
      _implementsDataqueryVariant() {},
    };
  }
  build(): ClickHouseQuery {
    return this.internal;
  }
}

/** One panel of a dashboard. */
export interface PanelSpec {
  readonly id: PanelId;
  readonly title: string;
  readonly description: string;
  readonly kind: "timeseries" | "table" | "barchart";
  /** Grafana unit (e.g. `percentunit`, `ms`, `short`). */
  readonly unit?: string;
  readonly width?: number;
  readonly height?: number;
}

/** A dashboard: uid, title and its panels. */
export interface DashboardSpec {
  readonly uid: string;
  readonly title: string;
  readonly description: string;
  readonly panels: readonly PanelSpec[];
}

/** Every dashboard and panel; the SQL of each panel is `panelSql(metrics)[id]`. */
export const DASHBOARDS: readonly DashboardSpec[] = [
  {
    uid: "ragmeter-overview",
    title: "ragmeter / Overview",
    description: "recall@k, grounding, relevance and key facts over time and per pipeline version; last vs previous run with the paired delta.",
    panels: [
      {
        id: "overview_trend",
        title: "Metrics over time (mean of ok scores)",
        description: "recall@${k}, grounding, key facts (0–1, left axis) and relevance (0–4, right axis); non-ok scores are counted elsewhere, never averaged as 0.",
        kind: "timeseries",
        width: 24,
      },
      { id: "overview_by_version", title: "Per pipeline version", description: "Means of ok scores, repeats averaged per question first.", kind: "table", width: 24 },
      {
        id: "overview_last_vs_previous",
        title: "Last vs previous run: paired delta and 95% interval",
        description: "The latest stored comparison (ragmeter compare) whose candidate run is in the filters: paired over questions scored ok in both runs.",
        kind: "table",
        width: 24,
      },
    ],
  },
  {
    uid: "ragmeter-retrieval",
    title: "ragmeter / Retrieval",
    description: "The retrieval metrics of the metric table (recall, MRR, …) at k = 1/3/5/10 per pipeline version; questions that lost their hit.",
    panels: [
      {
        id: "retrieval_by_version",
        title: "Retrieval metrics per pipeline version",
        description: "Mean over answerable questions (unanswerable ones are not_applicable).",
        kind: "table",
        width: 24,
      },
      {
        id: "retrieval_lost_hit",
        title: "Questions that lost their hit (recall@${k}: 1 → 0)",
        description: "Last completed run in the filters against the previous completed run on the same golden set.",
        kind: "table",
        width: 24,
      },
    ],
  },
  {
    uid: "ragmeter-grounding",
    title: "ragmeter / Grounding",
    description: "Claims by verdict over time; the most recent UNSUPPORTED and CONTRADICTED claims.",
    panels: [
      {
        id: "grounding_verdicts",
        title: "Claims by verdict",
        description: "SUPPORTED, UNSUPPORTED, CONTRADICTED claims per interval.",
        kind: "timeseries",
        unit: "short",
        width: 12,
      },
      { id: "grounding_by_version", title: "Claims by verdict per pipeline version", description: "Counts and the share SUPPORTED.", kind: "table", width: 12 },
      {
        id: "grounding_recent_bad",
        title: "Recent UNSUPPORTED and CONTRADICTED claims",
        description: "With trace id, question and pipeline version; newest first (50).",
        kind: "table",
        width: 24,
        height: 12,
      },
    ],
  },
  {
    uid: "ragmeter-relevance",
    title: "ragmeter / Relevance",
    description: "Distribution of the 0–4 relevance score per pipeline version; low-scoring questions.",
    panels: [
      {
        id: "relevance_distribution",
        title: "Relevance 0–4 per pipeline version",
        description: "Questions per score (repeats averaged and rounded).",
        kind: "barchart",
        unit: "short",
        width: 12,
      },
      { id: "relevance_low", title: "Low-scoring questions (relevance ≤ 1)", description: "Lowest first, then newest (50).", kind: "table", width: 12 },
    ],
  },
  {
    uid: "ragmeter-judges",
    title: "ragmeter / Judges",
    description: "Judge calls, cached share, tokens, cost, results by status, latency; last calibration.",
    panels: [
      {
        id: "judges_calls",
        title: "Judge calls",
        description: "Judged score rows (grounding, relevance) per interval by judge kind.",
        kind: "timeseries",
        unit: "short",
        width: 12,
      },
      { id: "judges_tokens", title: "Judge tokens", description: "Prompt (in) and completion (out) tokens per interval.", kind: "timeseries", unit: "short", width: 12 },
      {
        id: "judges_runs",
        title: "Judge usage and cost per run",
        description: "From the run summary: LLM calls, cache hits (no call), cached share, tokens and estimated cost (USD, RAGMETER_PRICES; empty without a price table).",
        kind: "table",
        width: 24,
      },
      {
        id: "judges_skipped",
        title: "Judge calls skipped by reason",
        description:
          "From ingestion_stats: calls not made because the metric was decided before judging (not_applicable, content_missing, context_incomplete, uncertain_reading, not_sampled), per interval.",
        kind: "timeseries",
        unit: "short",
        width: 24,
      },
      { id: "judges_status", title: "Judge results by status", description: "ok, no_claims, judge_error, context_too_long, not_sampled … per metric.", kind: "table", width: 8 },
      { id: "judges_latency", title: "Judge latency", description: "p50 and p95 of LLM judge calls, ms.", kind: "timeseries", unit: "ms", width: 8 },
      { id: "judges_calibration", title: "Last calibration", description: "Agreement of the judge with human labels (ragmeter calibrate).", kind: "table", width: 8 },
    ],
  },
  {
    uid: "ragmeter-ingestion",
    title: "ragmeter / Ingestion",
    description: "From ingestion_stats: spans received, traces scored, consumer lag, dead-letter count.",
    panels: [
      {
        id: "ingestion_throughput",
        title: "Spans received, traces scored, dead-lettered",
        description: "Summed over scorers, per interval.",
        kind: "timeseries",
        unit: "short",
        width: 12,
      },
      { id: "ingestion_lag", title: "Consumer lag per scorer", description: "Largest lag reported in the interval, messages.", kind: "timeseries", unit: "short", width: 12 },
    ],
  },
  {
    uid: "ragmeter-tags",
    title: "ragmeter / Tags",
    description: "Every metric by golden-set tag (typo, ambiguous, unanswerable, language, topic) and pipeline version.",
    panels: [
      {
        id: "tags_metrics",
        title: "Metrics by golden-set tag and pipeline version",
        description: "Means of ok scores per tag; a question counts under each of its tags.",
        kind: "table",
        width: 24,
        height: 14,
      },
    ],
  },
];

const ALL_OPTION = { text: "All", value: "$__all", selected: true };

function variables(metrics: MetricTable): Builder<dashboard.VariableModel>[] {
  const query = (name: string, label: string, sql: string) =>
    new dashboard.QueryVariableBuilder(name)
      .label(label)
      .datasource({ ...DATASOURCE })
      .query(sql)
      .definition(sql)
      .refresh(dashboard.VariableRefresh.OnTimeRangeChanged)
      .sort(dashboard.VariableSort.AlphabeticalAsc)
      .multi(true)
      .includeAll(true)
      .current({ text: ["All"], value: ["$__all"] });
  return [
    new dashboard.CustomVariableBuilder("k").label(hitMetric(metrics).name.replace(AT_K, "@k")).values(DASHBOARD_KS.join(",")).current({ text: "5", value: "5", selected: true }),
    query("pipeline_version", "pipeline version", VARIABLE_SQL.pipelineVersion),
    query("golden_set", "golden set", VARIABLE_SQL.goldenSet),
    new dashboard.CustomVariableBuilder("source")
      .label("source")
      .values("golden,replay,live")
      .multi(true)
      .includeAll(true)
      .current({ ...ALL_OPTION, text: ["All"], value: ["$__all"] }),
    query("service", "service", VARIABLE_SQL.service),
  ];
}

function panel(spec: PanelSpec, metrics: MetricTable): Builder<dashboard.Panel> {
  const sql = panelSql(metrics)[spec.id];
  const height = spec.height ?? 9;
  const width = spec.width ?? 12;
  if (spec.kind === "timeseries") {
    const b = new timeseries.PanelBuilder()
      .title(spec.title)
      .description(spec.description)
      .datasource({ ...DATASOURCE })
      .withTarget(new ClickHouseQueryBuilder(sql, "timeseries"))
      .height(height)
      .span(width)
      .lineWidth(2)
      .pointSize(5)
      .unit(spec.unit ?? "percentunit");
    if (spec.id === "overview_trend") {
      b.min(0).max(1);
      // metrics on another scale than 0–1 (relevance 0–4) on the right axis
      for (const m of metricsAtK((d) => d.headline && d.max !== undefined, metrics))
        b.overrideByName(m.name, [
          { id: "custom.axisPlacement", value: "right" },
          { id: "unit", value: "short" },
          { id: "min", value: 0 },
          { id: "max", value: m.def.max },
        ]);
    }
    return b;
  }
  if (spec.kind === "barchart") {
    return new barchart.PanelBuilder()
      .title(spec.title)
      .description(spec.description)
      .datasource({ ...DATASOURCE })
      .withTarget(new ClickHouseQueryBuilder(sql, "table"))
      .height(height)
      .span(width)
      .xField("pipeline_version")
      .unit(spec.unit ?? "short");
  }
  const t = new table.PanelBuilder()
    .title(spec.title)
    .description(spec.description)
    .datasource({ ...DATASOURCE })
    .withTarget(new ClickHouseQueryBuilder(sql, "table"))
    .height(height)
    .span(width);
  // shares (metrics of max 1, in the dashboards' columns) as percentages: per-k ones at the variable and at every k
  const share = (m: MetricDef) => m.max === undefined && !m.optional;
  const shares = [...metricsAtK(share, metrics).filter((m) => m.name !== m.def.name), ...metricsAtEveryK(share, metrics)].map((m) => m.column);
  for (const name of [...shares, "supported_share", "cached_share", "claim_agreement", "relevance_agreement"]) {
    t.overrideByName(name, [
      { id: "unit", value: "percentunit" },
      { id: "decimals", value: 1 },
    ]);
  }
  return t;
}

/** Builds the Grafana dashboard JSON model of one spec, its metrics from `metrics` (the scorer's by default). */
export function buildDashboard(spec: DashboardSpec, metrics: MetricTable = metricTable): dashboard.Dashboard {
  const b = new dashboard.DashboardBuilder(spec.title)
    .uid(spec.uid)
    .description(spec.description)
    .tags(["ragmeter"])
    .editable()
    .time({ from: "now-30d", to: "now" })
    .timezone("utc")
    .refresh("1m")
    .link(new dashboard.DashboardLinkBuilder("ragmeter").type(dashboard.DashboardLinkType.Dashboards).tags(["ragmeter"]).asDropdown(true).includeVars(true).keepTime(true))
    .variables(variables(metrics));
  for (const p of spec.panels) b.withPanel(panel(p, metrics));
  return b.build();
}
