// The committed provisioning under dashboards/ is exactly what `npm run dashboards:build` writes,
// and the dashboards reference the provisioned datasource, the variables and the checked SQL.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type MetricDef, metricTable } from "@ragmeter/core/metrics";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ALERT_DATASOURCE, ALERT_ENV, ALERT_SETTINGS, ALERT_SQL, ALERTS, alertSpecs, DASHBOARDS, DATASOURCE, PANEL_SQL, renderAll } from "../../dashboards/src/index.js";
import { applyConditionalAll, applyMacros, applyVariables } from "../../dashboards/src/macros.js";
import { panelSql } from "../../dashboards/src/sql.js";

const root = path.resolve(import.meta.dirname, "../../dashboards");

describe("generated Grafana provisioning", () => {
  it("is up to date (run `npm run dashboards:build` after changing dashboards/src)", () => {
    const files = renderAll();
    for (const [rel, content] of files) expect(readFileSync(path.join(root, rel), "utf8"), `${rel} is stale`).toBe(content);
    const onDisk = readdirSync(path.join(root, "json")).map((f) => `json/${f}`);
    expect(onDisk.sort()).toEqual([...files.keys()].filter((k) => k.startsWith("json/")).sort());
  });

  it("every panel queries the provisioned ClickHouse datasource with its checked SQL", () => {
    const sqls = new Set(Object.values(PANEL_SQL));
    for (const spec of DASHBOARDS) {
      const d = JSON.parse(readFileSync(path.join(root, "json", `${spec.uid}.json`), "utf8")) as {
        uid: string;
        panels: { type: string; title: string; targets: { datasource: { uid: string; type: string }; rawSql: string; editorType: string }[]; gridPos: { w: number; h: number } }[];
        templating: { list: { name: string }[] };
      };
      expect(d.uid).toBe(spec.uid);
      expect(d.templating.list.map((v) => v.name)).toEqual(["k", "pipeline_version", "golden_set", "source", "service"]);
      expect(d.panels).toHaveLength(spec.panels.length);
      for (const p of d.panels) {
        expect(p.targets).toHaveLength(1);
        const t = p.targets[0]!;
        expect(t.datasource).toEqual(DATASOURCE);
        expect(t.editorType).toBe("sql");
        expect(sqls.has(t.rawSql as never), `${spec.uid} / ${p.title}`).toBe(true);
        expect(p.gridPos.w).toBeGreaterThan(0);
      }
    }
  });

  it("provisioning YAML: datasource from the environment, provider path", () => {
    const ds = parse(readFileSync(path.join(root, "provisioning/datasources/clickhouse.yaml"), "utf8")) as {
      datasources: { type: string; uid: string; jsonData: Record<string, string>; secureJsonData: Record<string, string> }[];
    };
    const d = ds.datasources[0]!;
    expect(d.type).toBe("grafana-clickhouse-datasource");
    expect(d.uid).toBe(DATASOURCE.uid);
    expect(d.jsonData["defaultDatabase"]).toBe("${CLICKHOUSE_DATABASE}");
    expect(d.jsonData["username"]).toBe("${CLICKHOUSE_USER}");
    expect(d.secureJsonData["password"]).toBe("${CLICKHOUSE_PASSWORD}");
    const pv = parse(readFileSync(path.join(root, "provisioning/dashboards/ragmeter.yaml"), "utf8")) as { providers: { type: string; options: { path: string } }[] };
    expect(pv.providers[0]!.options.path).toBe("/var/lib/grafana/dashboards/ragmeter");
  });
});

interface ProvisionedRule {
  uid: string;
  title: string;
  condition: string;
  for: string;
  noDataState: string;
  execErrState: string;
  dashboardUid: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  data: { refId: string; datasourceUid: string; relativeTimeRange?: { from: number; to: number }; model: Record<string, unknown> }[];
}

describe("generated alerting provisioning", () => {
  const doc = parse(readFileSync(path.join(root, "provisioning/alerting/ragmeter-alerts.yaml"), "utf8")) as {
    apiVersion: number;
    groups: { orgId: number; name: string; folder: string; interval: string; rules: ProvisionedRule[] }[];
    contactPoints: { orgId: number; name: string; receivers: { uid: string; type: string; settings: Record<string, string> }[] }[];
    policies: { orgId: number; receiver: string }[];
  };

  it("is Grafana's file-provisioning format: one group of rules, A (SQL) → B (reduce) → C (threshold > 0)", () => {
    expect(doc.apiVersion).toBe(1);
    expect(doc.groups).toHaveLength(1);
    const g = doc.groups[0]!;
    expect(g).toMatchObject({ orgId: 1, name: "ragmeter", folder: "ragmeter", interval: "1m" });
    expect(g.rules.map((r) => r.uid)).toEqual(ALERTS.map((a) => `ragmeter-${a.id.replace(/_/gu, "-")}`));
    expect(new Set(g.rules.map((r) => r.uid)).size).toBe(g.rules.length);
    const dashboards = new Set(DASHBOARDS.map((d) => d.uid));
    for (const [i, r] of g.rules.entries()) {
      const spec = ALERTS[i]!;
      expect(r.uid.length).toBeLessThanOrEqual(40); // Grafana's limit on rule uids
      expect(r.condition).toBe("C");
      expect(r.noDataState).toBe("OK");
      expect(r.execErrState).toBe("Error");
      expect(dashboards.has(r.dashboardUid)).toBe(true);
      expect(r.labels["severity"]).toMatch(/^(warning|critical)$/u);
      expect(r.data.map((d) => d.refId)).toEqual(["A", "B", "C"]);
      const [a, b, c] = r.data as [ProvisionedRule["data"][number], ProvisionedRule["data"][number], ProvisionedRule["data"][number]];
      expect(a.datasourceUid).toBe(ALERT_DATASOURCE.uid);
      expect(a.relativeTimeRange).toEqual({ from: spec.range, to: 0 });
      expect(a.model).toMatchObject({ refId: "A", datasource: ALERT_DATASOURCE, editorType: "sql", queryType: "table", format: 1, rawSql: ALERT_SQL[spec.id] });
      expect(b).toMatchObject({ datasourceUid: "__expr__", model: { type: "reduce", expression: "A", reducer: "last" } });
      expect(c).toMatchObject({ datasourceUid: "__expr__", model: { type: "threshold", expression: "B", conditions: [{ evaluator: { type: "gt", params: [0] } }] } });
      // every threshold the SQL reads is a named setting with its default, and listed in the annotations
      const read = [...String(a.model["rawSql"]).matchAll(/getSetting\('(\w+)'\)/gu)].map((m) => m[1]);
      expect(read.sort()).toEqual([...new Set(spec.settings.map((x) => x.setting))].sort());
      for (const x of spec.settings) expect(r.annotations["thresholds"]).toContain(x.env);
      // Grafana expands $… in titles, labels and annotations: templates use .Labels / .Values
      expect(JSON.stringify([r.title, r.labels, r.annotations])).not.toContain("$");
      expect(r.annotations["description"]).toContain(".Values.B.Value");
      // Grafana keeps query models raw (no env expansion), so a model must not rely on ${VAR}
      expect(JSON.stringify(r.data)).not.toMatch(/\$\{[A-Z]/u);
    }
  });

  it("webhook contact point from the environment, and the policy routes to it", () => {
    expect(doc.contactPoints).toEqual([
      {
        orgId: 1,
        name: "ragmeter-webhook",
        receivers: [expect.objectContaining({ uid: "ragmeter-webhook", type: "webhook", settings: { url: "${RAGMETER_ALERT_WEBHOOK_URL}", httpMethod: "POST" } })],
      },
    ]);
    expect(doc.policies[0]).toMatchObject({ orgId: 1, receiver: "ragmeter-webhook" });
  });

  it("the alerting datasource sends every threshold as a custom setting from its RAGMETER_ALERT_* variable", () => {
    const ds = parse(readFileSync(path.join(root, "provisioning/datasources/clickhouse.yaml"), "utf8")) as {
      datasources: { uid: string; isDefault: boolean; jsonData: { customSettings?: { setting: string; value: string }[] } }[];
    };
    expect(ds.datasources.map((d) => d.uid)).toEqual([DATASOURCE.uid, ALERT_DATASOURCE.uid]);
    expect(ds.datasources[0]!.jsonData.customSettings).toBeUndefined();
    expect(ds.datasources[1]!.isDefault).toBe(false);
    expect(ds.datasources[1]!.jsonData.customSettings).toEqual(Object.values(ALERT_SETTINGS).map((x) => ({ setting: x.setting, value: `\${${x.env}}` })));
    for (const x of Object.values(ALERT_SETTINGS)) expect(x.setting).toMatch(/^SQL_ragmeter_alert_[a-z_]+$/u);
    expect(ALERT_ENV).toHaveLength(Object.keys(ALERT_SETTINGS).length + 1);
    expect(readFileSync(path.join(root, "clickhouse/ragmeter-custom-settings.xml"), "utf8")).toContain("<custom_settings_prefixes>SQL_</custom_settings_prefixes>");
  });
});

describe("alert rules from the metric table", () => {
  /** The scorer's table with `change` applied to the entry named `name`. */
  const tableWith = (name: string, change: Partial<MetricDef>) => (ks: readonly number[]) => metricTable(ks).map((m) => (m.name === name ? ({ ...m, ...change } as MetricDef) : m));
  const ids = (table = metricTable) => alertSpecs(table).map((a) => a.id);
  const OTHERS = ["content_missing_share", "judge_tokens_per_hour", "dlq_count", "consumer_lag"];

  it("the alerted metrics get a version and a window rule each, named as before; grounding_risk (lower is better) a rise", () => {
    expect(ids()).toEqual([
      "grounding_drop_version",
      "grounding_risk_rise_version",
      "relevance_drop_version",
      "recall_drop_version",
      "grounding_drop_window",
      "grounding_risk_rise_window",
      "relevance_drop_window",
      "recall_drop_window",
      ...OTHERS,
    ]);
    expect(ALERTS.map((a) => a.id)).toEqual(ids());
  });

  it("texts, links and settings follow the entry: direction, scale, k, dashboard of its judge task or kind", () => {
    const by = Object.fromEntries(ALERTS.map((a) => [a.id, a]));
    expect(by["grounding_risk_rise_version"]).toMatchObject({
      title: "ragmeter: grounding_risk rose against the previous pipeline version",
      dashboard: "ragmeter-grounding",
      settings: [ALERT_SETTINGS.groundingRiskRise, ALERT_SETTINGS.minQuestions],
      severity: "critical",
    });
    expect(by["grounding_risk_rise_window"]?.description).toContain("in the last hour is {{ .Values.B.Value }} above the 24 hours before");
    expect(by["relevance_drop_version"]?.description).toContain("Mean relevance (0–4) of pipeline version");
    expect(by["recall_drop_window"]).toMatchObject({ dashboard: "ragmeter-retrieval", settings: [ALERT_SETTINGS.recallDrop, ALERT_SETTINGS.recallK, ALERT_SETTINGS.minQuestions] });
    expect(by["recall_drop_window"]?.description).toContain("Mean recall@k (k = RAGMETER_ALERT_RECALL_K) of");
    expect(by["grounding_risk_rise_version"]?.sql).toContain("AND mean - previous_mean > bound");
    expect(by["grounding_drop_version"]?.sql).toContain("AND previous_mean - mean > bound");
  });

  it("a metric unmarked has no rule; a marked one without its threshold is an error naming the variable", () => {
    expect(ids(tableWith("grounding", { alerted: false }))).toEqual([
      "grounding_risk_rise_version",
      "relevance_drop_version",
      "recall_drop_version",
      "grounding_risk_rise_window",
      "relevance_drop_window",
      "recall_drop_window",
      ...OTHERS,
    ]);
    expect(() => alertSpecs(tableWith("key_facts", { alerted: true }))).toThrow(
      "metric key_facts is alerted but has no threshold RAGMETER_ALERT_KEY_FACTS_DROP (ALERT_SETTINGS in dashboards/src/alerts.ts, and the settings catalog)",
    );
    // the direction comes from lowerIsBetter, not from the name
    expect(() => alertSpecs(tableWith("relevance", { lowerIsBetter: true }))).toThrow("no threshold RAGMETER_ALERT_RELEVANCE_RISE");
  });
});

describe("panels and rules that name one metric find it in the table by its fields", () => {
  const tableWith = (name: string, change: Partial<MetricDef>) => (ks: readonly number[]) => metricTable(ks).map((m) => (m.name === name ? ({ ...m, ...change } as MetricDef) : m));
  const contentMissing = (table = metricTable) => alertSpecs(table).find((a) => a.id === "content_missing_share")!.sql;

  it("the product table: relevance (judged, 0–4), recall@k (headline per-k retrieval), relevance counting traces", () => {
    const sql = panelSql();
    expect(sql.relevance_distribution).toContain("countIf(round(v) = 4) AS score_4\nFROM (SELECT");
    expect(sql.relevance_distribution).toContain("metric IN ('relevance')");
    expect(sql.relevance_low).toContain("s.v AS relevance,");
    expect(sql.retrieval_lost_hit.match(/metric = 'recall@\$\{k\}'/gu)).toHaveLength(2);
    expect(contentMissing()).toContain("WHERE s.metric = 'relevance' AND");
  });

  it("another table: the scale's max gives the buckets, the per-trace metric is the first live one on question and answer", () => {
    const sql = panelSql(tableWith("relevance", { max: 5 }));
    expect(sql.relevance_distribution).toContain("countIf(round(v) = 5) AS score_5\nFROM");
    const tone: MetricDef = {
      name: "tone",
      kind: "answer",
      needs: ["answer"],
      live: true,
      optional: false,
      headline: false,
      byTag: false,
      trend: false,
      compute: () => ({ value: 1, status: "ok", reason: "" }),
    };
    expect(contentMissing((ks) => [tone, ...metricTable(ks)])).toContain("WHERE s.metric = 'tone' AND");
    // without a live metric on question and answer, no rule counts traces by a guess
    expect(() => contentMissing(tableWith("relevance", { live: false }))).toThrow("the metric table has no live metric that needs only the question and the answer");
    const noHeadlineRecall = (ks: readonly number[]) => metricTable(ks).map((m) => (m.name.startsWith("recall@") ? ({ ...m, headline: false } as MetricDef) : m));
    expect(() => panelSql(noHeadlineRecall)).toThrow("no headline per-k retrieval metric");
  });
});

describe("macro expansion (as grafana-clickhouse-datasource)", () => {
  const range = { from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 2, 0, 0, 0, 500), intervalMs: 60_000 };
  it("backend macros", () => {
    expect(applyMacros("WHERE $__timeFilter(created_at) AND $__timeFilter_ms(t)", range)).toBe(
      "WHERE created_at >= toDateTime(1767225600) AND created_at <= toDateTime(1767312000) AND t >= fromUnixTimestamp64Milli(1767225600000) AND t <= fromUnixTimestamp64Milli(1767312000500)",
    );
    expect(applyMacros("$__timeInterval(ts) $__interval_s $__fromTime $__toTime $__fromTime_ms", range)).toBe(
      "toStartOfInterval(toDateTime(ts), INTERVAL 60 second) 60 toDateTime(1767225600) toDateTime(1767312000) fromUnixTimestamp64Milli(1767225600000)",
    );
    expect(applyMacros("$__interval_s", { ...range, intervalMs: 10 })).toBe("1");
    expect(() => applyMacros("$__unknown", range)).toThrow(/unexpanded macro/u);
  });
  it("template variables and conditional All", () => {
    const vars = { pv: ["a", "b'c"], one: "x", all: { all: true, values: ["p", "q"] } as const };
    expect(applyVariables("IN (${pv:singlequote}) $one ${all} $pv", vars)).toBe("IN ('a','b\\'c') x 'p','q' 'a','b'c'");
    expect(applyConditionalAll("WHERE $__conditionalAll(v IN (${all:singlequote}), $all) AND $__conditionalAll(w IN (${pv:singlequote}), $pv)", vars)).toBe(
      "WHERE 1=1 AND w IN (${pv:singlequote})",
    );
    expect(() => applyVariables("$nope", vars)).toThrow(/unknown template variable/u);
  });
});
