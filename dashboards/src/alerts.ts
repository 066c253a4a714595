/**
 * Grafana alert rules, contact point and notification policy, provisioned as a file
 * (`provisioning/alerting/ragmeter-alerts.yaml`, Grafana's file-provisioning format, `apiVersion: 1`).
 *
 * Thresholds come from the environment of the Grafana container, but not through the rule file:
 * Grafana expands `$VAR` / `${VAR}` in the string fields of a provisioned rule (title, labels,
 * annotations …) and in contact points, never inside a query or expression model (it keeps the
 * model raw so SQL macros such as `$__timeFilter` survive). So each threshold travels as a
 * ClickHouse custom setting: the alerting datasource (`provisioning.ts`, `alertDatasource`) sets
 * `customSettings` `SQL_ragmeter_alert_* = ${RAGMETER_ALERT_*}` (datasource files are expanded), the
 * plugin sends them with every query, and the rule SQL reads them with `getSetting(...)`, falling back
 * to the default below when the variable is empty. A ClickHouse server accepts settings named
 * `SQL_*` once its config declares the prefix (`<custom_settings_prefixes>SQL_</custom_settings_prefixes>`,
 * generated as `clickhouse/ragmeter-custom-settings.xml` and mounted by docker-compose; built in on
 * ClickHouse Cloud). The dashboards keep the plain datasource, so they never depend on that.
 *
 * Annotations use `.Labels` / `.Values` (not `$labels`): Grafana expands `$…` in a rule's string fields.
 *
 * Every rule's query returns only the rows that breach their bound (one alert instance per row,
 * labelled by its string columns), with the measured amount in `value`; the rule's condition is
 * reduce (last) → threshold `> 0`, and "no rows" is normal (noDataState OK).
 */

import { type MetricDef, type MetricTable, metricTable } from "@ragmeter/core/metrics";
import { stringify } from "yaml";
import { DASHBOARDS, DATASOURCE } from "./dashboards.js";
import { applyMacros } from "./macros.js";
import { AT_K, type DashboardMetric, metricsAtK, perTraceMetric } from "./metrics.js";

/** The provisioned datasource the alert rules query (same server, plus the thresholds as settings). */
export const ALERT_DATASOURCE = { type: DATASOURCE.type, uid: "ragmeter-clickhouse-alerts" } as const;

/** One threshold: the environment variable, the ClickHouse custom setting it becomes, its default. */
export interface AlertSetting {
  readonly env: string;
  readonly setting: string;
  readonly default: number;
  readonly meaning: string;
}

const s = (env: string, def: number, meaning: string): AlertSetting => ({ env, setting: `SQL_${env.toLowerCase()}`, default: def, meaning });

/** Every threshold of the alert rules (design §10). */
export const ALERT_SETTINGS = {
  groundingDrop: s("RAGMETER_ALERT_GROUNDING_DROP", 0.05, "largest allowed drop of mean grounding (0–1)"),
  groundingRiskRise: s("RAGMETER_ALERT_GROUNDING_RISK_RISE", 0.05, "largest allowed rise of mean grounding_risk (0–1)"),
  relevanceDrop: s("RAGMETER_ALERT_RELEVANCE_DROP", 0.3, "largest allowed drop of mean relevance (0–4)"),
  recallDrop: s("RAGMETER_ALERT_RECALL_DROP", 0.05, "largest allowed drop of mean recall@k (0–1)"),
  recallK: s("RAGMETER_ALERT_RECALL_K", 5, "k of the recall@k rules"),
  minQuestions: s("RAGMETER_ALERT_MIN_QUESTIONS", 10, "questions (traces) each side of a comparison needs before a drop rule fires"),
  contentMissingShare: s("RAGMETER_ALERT_CONTENT_MISSING_SHARE", 0.2, "largest allowed share of traces scored content_missing in the last hour"),
  contentMissingMinTraces: s("RAGMETER_ALERT_CONTENT_MISSING_MIN_TRACES", 20, "traces scored in the last hour before the content_missing rule fires"),
  judgeTokensPerHour: s("RAGMETER_ALERT_JUDGE_TOKENS_PER_HOUR", 2_000_000, "judge token budget (in + out) per hour"),
  dlqCount: s("RAGMETER_ALERT_DLQ_COUNT", 0, "dead-lettered messages allowed in 15 minutes"),
  consumerLag: s("RAGMETER_ALERT_CONSUMER_LAG", 10_000, "largest allowed consumer lag of one scorer, messages"),
} as const satisfies Record<string, AlertSetting>;

/** Environment variable of the webhook contact point's URL. */
export const ALERT_WEBHOOK_ENV = "RAGMETER_ALERT_WEBHOOK_URL";

/** Every environment variable the alerting provisioning reads (the webhook URL, then the thresholds). */
export const ALERT_ENV: readonly string[] = [ALERT_WEBHOOK_ENV, ...Object.values(ALERT_SETTINGS).map((x) => x.env)];

/** SQL reading a threshold: the datasource's custom setting, or the default when it is empty. */
function th(x: AlertSetting): string {
  return `ifNull(toFloat64OrNull(toString(getSetting('${x.setting}'))), ${x.default})`;
}

/**
 * A metric the drop / rise rules watch (`alerted` in the metric table), as the rules use it: its
 * settings are found by name, `RAGMETER_ALERT_<STEM>_DROP` (`_RISE` when lower is better) and, per-k,
 * `RAGMETER_ALERT_<STEM>_K`.
 */
interface Watched {
  /** The stored name without `@<k>` (recall, grounding_risk): the rule ids' and settings' stem. */
  readonly stem: string;
  /** The name in the rules' texts (recall@k, grounding). */
  readonly display: string;
  /** SQL giving the stored name: a literal, or for a per-k metric the name at the k setting. */
  readonly metric: string;
  /** `drop`, or `rise` for a metric where lower is better. */
  readonly change: "drop" | "rise";
  readonly bound: AlertSetting;
  /** The k setting of a per-k metric, else null. */
  readonly k: AlertSetting | null;
  readonly def: MetricDef;
}

/** The threshold whose variable is `RAGMETER_ALERT_<suffix>`. @throws Error naming the variable an alerted metric lacks. */
function settingNamed(suffix: string, metric: string): AlertSetting {
  const env = `RAGMETER_ALERT_${suffix.toUpperCase()}`;
  const x = Object.values(ALERT_SETTINGS).find((a) => a.env === env);
  if (x === undefined) throw new Error(`metric ${metric} is alerted but has no threshold ${env} (ALERT_SETTINGS in dashboards/src/alerts.ts, and the settings catalog)`);
  return x;
}

function watched(m: DashboardMetric): Watched {
  const perK = m.name.endsWith(AT_K);
  const stem = perK ? m.name.slice(0, -AT_K.length) : m.name;
  const change = m.def.lowerIsBetter === true ? "rise" : "drop";
  const k = perK ? settingNamed(`${stem}_k`, m.def.name) : null;
  return {
    stem,
    display: perK ? `${stem}@k` : m.name,
    metric: k === null ? `'${m.name}'` : `concat('${stem}@', toString(toUInt32(${th(k)})))`,
    change,
    bound: settingNamed(`${stem}_${change}`, m.def.name),
    k,
    def: m.def,
  };
}

/** The answer's metrics first, then the retrieval's (the rules' order in the provisioned file). */
const KIND_ORDER: readonly MetricDef["kind"][] = ["judged", "answer", "retrieval"];

/** The metrics of `table` the drop / rise rules watch, per-k ones at their k setting. */
function watchedMetrics(table: MetricTable): Watched[] {
  return metricsAtK((m) => m.alerted === true, table)
    .map(watched)
    .sort((a, b) => KIND_ORDER.indexOf(a.def.kind) - KIND_ORDER.indexOf(b.def.kind));
}

/**
 * Per source, each pipeline version's mean (over questions, repeats averaged, `ok` scores only)
 * against the version first seen just before it: its drop (rise when lower is better) beyond the
 * bound; only versions still scored in the range ([now − 24 h, now]) with enough questions on both sides.
 */
function versionChange(w: Watched): string {
  const change = w.change === "drop" ? "previous_mean - mean" : "mean - previous_mean";
  return `WITH ${th(w.bound)} AS bound, ${th(ALERT_SETTINGS.minQuestions)} AS min_questions
SELECT source, pipeline_version, previous_version, ${change} AS value
FROM (
  SELECT source, pipeline_version, mean, questions, last_scored,
    row_number() OVER w AS position,
    lagInFrame(pipeline_version) OVER w AS previous_version,
    lagInFrame(mean) OVER w AS previous_mean,
    lagInFrame(questions) OVER w AS previous_questions
  FROM (
    SELECT source, pipeline_version, avg(v) AS mean, count() AS questions, min(first_at) AS first_seen, max(last_at) AS last_scored
    FROM (
      SELECT source, pipeline_version, run_id, trace_id, avg(value) AS v, min(created_at) AS first_at, max(created_at) AS last_at
      FROM scores FINAL
      WHERE metric = ${w.metric} AND status = 'ok' AND created_at <= $__toTime
      GROUP BY source, pipeline_version, run_id, trace_id
    )
    GROUP BY source, pipeline_version
  )
  WINDOW w AS (PARTITION BY source ORDER BY first_seen, pipeline_version ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
)
WHERE position > 1 AND last_scored >= $__fromTime
  AND questions >= min_questions AND previous_questions >= min_questions
  AND ${change} > bound
ORDER BY source, pipeline_version`;
}

/**
 * Mean of the last hour against the rest of the range (the 24 h before), per source and pipeline
 * version (questions, repeats averaged, `ok` only): its drop (rise when lower is better) beyond the bound.
 */
function windowChange(w: Watched): string {
  const change = w.change === "drop" ? "avgIf(v, recent = 0) - avgIf(v, recent = 1)" : "avgIf(v, recent = 1) - avgIf(v, recent = 0)";
  return `WITH ${th(w.bound)} AS bound, ${th(ALERT_SETTINGS.minQuestions)} AS min_questions, $__toTime - INTERVAL 1 HOUR AS split
SELECT source, pipeline_version, ${change} AS value
FROM (
  SELECT source, pipeline_version, run_id, trace_id, created_at > split AS recent, avg(value) AS v
  FROM scores FINAL
  WHERE metric = ${w.metric} AND status = 'ok' AND $__timeFilter(created_at)
  GROUP BY source, pipeline_version, run_id, trace_id, recent
)
GROUP BY source, pipeline_version
HAVING countIf(recent = 1) >= min_questions AND countIf(recent = 0) >= min_questions AND value > bound
ORDER BY source, pipeline_version`;
}

/** One alert rule. */
export interface AlertSpec {
  /** Rule id (`grounding_drop_version`); the provisioned uid is `ragmeter-<id with dashes>`. */
  readonly id: string;
  readonly title: string;
  /** Seconds before now the query's range starts (`relativeTimeRange.from`). */
  readonly range: number;
  readonly for: string;
  readonly severity: "warning" | "critical";
  readonly summary: string;
  readonly description: string;
  /** Dashboard the alert links to. */
  readonly dashboard: string;
  /** The threshold settings the SQL reads. */
  readonly settings: readonly AlertSetting[];
  /** The query (macros `$__timeFilter`, `$__fromTime`, `$__toTime` expanded by the plugin). */
  readonly sql: string;
}

/** Rule id. */
export type AlertId = AlertSpec["id"];

const H = 3600;
const A = ALERT_SETTINGS;
const PAST = { drop: "dropped", rise: "rose" } as const;
const SIDE = { drop: "below", rise: "above" } as const;

/** The dashboard of a metric's area (`ragmeter-<judge task>`, `ragmeter-retrieval`), else the overview. */
function dashboardOf(def: MetricDef): string {
  const area = def.kind === "judged" ? def.task : def.kind;
  return DASHBOARDS.find((d) => d.uid === `ragmeter-${area}`)?.uid ?? "ragmeter-overview";
}

/** What a watched metric's rules share: names, texts, settings. */
function watchedRule(w: Watched) {
  const scale = w.k !== null ? ` (k = ${w.k.env})` : w.def.max !== undefined ? ` (0–${w.def.max})` : "";
  return {
    label: `${w.display}${scale}`,
    past: PAST[w.change],
    side: SIDE[w.change],
    dashboard: dashboardOf(w.def),
    settings: [w.bound, ...(w.k === null ? [] : [w.k]), A.minQuestions],
  };
}

function versionRule(w: Watched): AlertSpec {
  const r = watchedRule(w);
  return {
    id: `${w.stem}_${w.change}_version`,
    title: `ragmeter: ${w.display} ${r.past} against the previous pipeline version`,
    range: 24 * H,
    for: "0s",
    severity: "critical",
    dashboard: r.dashboard,
    settings: r.settings,
    summary: `${w.display} ${r.past} for a new pipeline version`,
    description: `Mean ${r.label} of pipeline version {{ .Labels.pipeline_version }} (source {{ .Labels.source }}) is {{ .Values.B.Value }} ${r.side} version {{ .Labels.previous_version }}, more than ${w.bound.env} allows.`,
    sql: versionChange(w),
  };
}

function windowRule(w: Watched): AlertSpec {
  const r = watchedRule(w);
  return {
    id: `${w.stem}_${w.change}_window`,
    title: `ragmeter: ${w.display} ${r.past} in the last hour against the 24 h before`,
    range: 25 * H,
    for: "10m",
    severity: "warning",
    dashboard: r.dashboard,
    settings: r.settings,
    summary: `${w.display} ${r.past} in the last hour`,
    description: `Mean ${r.label} of pipeline version {{ .Labels.pipeline_version }} (source {{ .Labels.source }}) in the last hour is {{ .Values.B.Value }} ${r.side} the 24 hours before, more than ${w.bound.env} allows.`,
    sql: windowChange(w),
  };
}

/** The rules on no metric's mean: content capture (counted on `table`'s per-trace metric), judge tokens, ingestion. */
function otherRules(table: MetricTable): AlertSpec[] {
  const perTrace = perTraceMetric(table);
  return [
    {
      id: "content_missing_share",
      title: "ragmeter: traces without captured content",
      range: H,
      for: "15m",
      severity: "warning",
      dashboard: "ragmeter-judges",
      settings: [A.contentMissingShare, A.contentMissingMinTraces],
      summary: "most traces arrive without content",
      description:
        "{{ .Values.B.Value }} of the traces of service {{ .Labels.service }} (source {{ .Labels.source }}) scored in the last hour are content_missing (more than RAGMETER_ALERT_CONTENT_MISSING_SHARE): set OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true in that service.",
      // the per-trace metric is scored (or given a status) for every trace, so its rows count the traces
      sql: `WITH ${th(A.contentMissingShare)} AS bound, ${th(A.contentMissingMinTraces)} AS min_traces
SELECT s.source AS source, i.service_name AS service, uniqExactIf(s.trace_id, s.status = 'content_missing') / uniqExact(s.trace_id) AS value
FROM scores AS s FINAL
LEFT JOIN (SELECT trace_id, service_name FROM interactions FINAL) AS i ON i.trace_id = s.trace_id
WHERE s.metric = '${perTrace.name}' AND $__timeFilter(s.created_at)
GROUP BY source, service
HAVING uniqExact(s.trace_id) >= min_traces AND value > bound
ORDER BY source, service`,
    },
    {
      id: "judge_tokens_per_hour",
      title: "ragmeter: judge tokens per hour above the budget",
      range: H,
      for: "0s",
      severity: "warning",
      dashboard: "ragmeter-judges",
      settings: [A.judgeTokensPerHour],
      summary: "judge token budget exceeded",
      description:
        "LLM judges used {{ .Values.B.Value }} tokens (in + out) in the last hour, more than RAGMETER_ALERT_JUDGE_TOKENS_PER_HOUR. (Tokens, not USD: the tables have no price column.)",
      // no price column in the tables (prices live in the RAGMETER_PRICES file, cost only in runs.summary): tokens,
      // which only judges that call a model spend (whatever their backend)
      sql: `WITH ${th(A.judgeTokensPerHour)} AS budget
SELECT sum(judge_input_tokens + judge_output_tokens) AS value
FROM scores FINAL
WHERE judge_kind != 'mechanical' AND $__timeFilter(created_at)
HAVING value > budget`,
    },
    {
      id: "dlq_count",
      title: "ragmeter: messages dead-lettered",
      range: 15 * 60,
      for: "0s",
      severity: "critical",
      dashboard: "ragmeter-ingestion",
      settings: [A.dlqCount],
      summary: "scorers dead-lettered messages",
      description:
        "{{ .Values.B.Value }} messages went to the dead-letter topic in the last 15 minutes (more than RAGMETER_ALERT_DLQ_COUNT); their error is in the ragmeter-error header.",
      sql: `WITH ${th(A.dlqCount)} AS bound
SELECT sum(dlq_count) AS value
FROM ingestion_stats FINAL
WHERE $__timeFilter(minute)
HAVING value > bound`,
    },
    {
      id: "consumer_lag",
      title: "ragmeter: scorer consumer lag",
      range: 10 * 60,
      for: "5m",
      severity: "warning",
      dashboard: "ragmeter-ingestion",
      settings: [A.consumerLag],
      summary: "a scorer falls behind",
      description: "Scorer {{ .Labels.scorer_id }} is {{ .Values.B.Value }} messages behind (latest minute of the last 10), more than RAGMETER_ALERT_CONSUMER_LAG.",
      sql: `WITH ${th(A.consumerLag)} AS bound
SELECT scorer_id, argMax(consumer_lag, minute) AS value
FROM ingestion_stats FINAL
WHERE $__timeFilter(minute)
GROUP BY scorer_id
HAVING value > bound
ORDER BY scorer_id`,
    },
  ];
}

/**
 * Every alert rule for the metrics of `table` (the scorer's by default): each metric the table marks
 * `alerted` gets a rule against the previous pipeline version and one for the last hour (a drop, or
 * a rise when lower is better), then the rules on no metric's mean.
 * @throws Error naming a threshold variable an alerted metric lacks.
 */
export function alertSpecs(table: MetricTable = metricTable): AlertSpec[] {
  const metrics = watchedMetrics(table);
  return [...metrics.map(versionRule), ...metrics.map(windowRule), ...otherRules(table)];
}

/** Every alert rule of the scorer's metric table. */
export const ALERTS: readonly AlertSpec[] = alertSpecs();

/** The SQL of every rule, by id. */
export const ALERT_SQL: Readonly<Record<AlertId, string>> = Object.fromEntries(ALERTS.map((a) => [a.id, a.sql]));

/** Names of the provisioned alerting objects. */
export const ALERTING = { folder: "ragmeter", group: "ragmeter", interval: "1m", contactPoint: "ragmeter-webhook" } as const;

/** Grafana's model of one rule (what the provisioning file holds). */
function rule(spec: AlertSpec): Record<string, unknown> {
  const expr = { type: "__expr__", uid: "__expr__" };
  return {
    uid: `ragmeter-${spec.id.replace(/_/gu, "-")}`,
    title: spec.title,
    condition: "C",
    data: [
      {
        refId: "A",
        relativeTimeRange: { from: spec.range, to: 0 },
        datasourceUid: ALERT_DATASOURCE.uid,
        model: {
          refId: "A",
          datasource: { ...ALERT_DATASOURCE },
          editorType: "sql",
          queryType: "table",
          format: 1,
          rawSql: spec.sql,
          intervalMs: 60_000,
          maxDataPoints: 43_200,
        },
      },
      { refId: "B", datasourceUid: "__expr__", model: { refId: "B", datasource: expr, type: "reduce", expression: "A", reducer: "last", settings: { mode: "dropNN" } } },
      {
        refId: "C",
        datasourceUid: "__expr__",
        model: { refId: "C", datasource: expr, type: "threshold", expression: "B", conditions: [{ evaluator: { type: "gt", params: [0] } }] },
      },
    ],
    dashboardUid: spec.dashboard,
    noDataState: "OK",
    execErrState: "Error",
    for: spec.for,
    annotations: { summary: spec.summary, description: spec.description, thresholds: spec.settings.map((x) => `${x.env} (default ${x.default})`).join(", ") },
    labels: { ragmeter: "true", severity: spec.severity },
    isPaused: false,
  };
}

/** `provisioning/alerting/ragmeter-alerts.yaml`: rules (the scorer's metric table's by default), the webhook contact point, the policy. */
export function alertsYaml(alerts: readonly AlertSpec[] = ALERTS): string {
  const doc = {
    apiVersion: 1,
    groups: [{ orgId: 1, name: ALERTING.group, folder: ALERTING.folder, interval: ALERTING.interval, rules: alerts.map(rule) }],
    contactPoints: [
      {
        orgId: 1,
        name: ALERTING.contactPoint,
        receivers: [{ uid: ALERTING.contactPoint, type: "webhook", disableResolveMessage: false, settings: { url: `\${${ALERT_WEBHOOK_ENV}}`, httpMethod: "POST" } }],
      },
    ],
    policies: [{ orgId: 1, receiver: ALERTING.contactPoint, group_by: ["grafana_folder", "alertname"], group_wait: "30s", group_interval: "5m", repeat_interval: "4h" }],
  };
  return `# Generated by \`npm run dashboards:build\` (dashboards/src/alerts.ts); do not edit.
# Thresholds: ClickHouse custom settings of the alerting datasource (provisioning/datasources/clickhouse.yaml),
# from RAGMETER_ALERT_* in Grafana's environment; webhook URL: ${ALERT_WEBHOOK_ENV}.
${stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

/** `clickhouse/ragmeter-custom-settings.xml`: lets the server accept the `SQL_*` settings the alert rules read. */
export function clickhouseCustomSettingsXml(): string {
  return `<!-- Generated by \`npm run dashboards:build\` (dashboards/src/alerts.ts); do not edit.
     Mounted into /etc/clickhouse-server/config.d/ by docker-compose: ClickHouse accepts the custom
     settings SQL_ragmeter_alert_* that the alerting datasource sends (Grafana alert thresholds). -->
<clickhouse>
    <custom_settings_prefixes>SQL_</custom_settings_prefixes>
</clickhouse>
`;
}

/** What the engine receives for a rule's SQL: the plugin's macros and the datasource's settings. */
export interface AlertQueryContext {
  /** Evaluation time, ms since the epoch; the range starts `spec.range` seconds before. */
  readonly now: number;
  readonly range: number;
  /** Custom settings as the datasource sends them (strings; "" when the variable is unset). */
  readonly settings: Readonly<Record<string, string>>;
}

/**
 * The SQL ClickHouse runs for a rule: each `getSetting('SQL_…')` replaced by the string the server
 * would return for the datasource's custom setting (tests only: the embedded engine has no custom
 * settings prefix), then the plugin's macros over [now − range, now].
 * @throws Error naming a setting the context does not give.
 */
export function expandAlertSql(sql: string, ctx: AlertQueryContext): string {
  const withSettings = sql.replace(/getSetting\('(\w+)'\)/gu, (_, name: string) => {
    const v = ctx.settings[name];
    if (v === undefined) throw new Error(`setting ${name} is not given`);
    return `'${v.replace(/\\/gu, "\\\\").replace(/'/gu, "\\'")}'`;
  });
  return applyMacros(withSettings, { from: ctx.now - ctx.range * 1000, to: ctx.now, intervalMs: 60_000 });
}
