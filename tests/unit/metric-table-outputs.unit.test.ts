import { describe, expect, it } from "vitest";
import { type MetricDef, type MetricTable, metricNames, metricTable } from "../../core/src/domain/metricTable.js";
import { renderAll } from "../../dashboards/src/index.js";
import { chartConfigs, renderReportHtml } from "../../scorer/src/cli/format/html.js";
import { tagTable } from "../../scorer/src/cli/format/text.js";
import type { Aggregate } from "../../scorer/src/runs/aggregate.js";
import { parseGate } from "../../scorer/src/runs/gate.js";
import type { ReportData } from "../../scorer/src/runs/reportData.js";

// A metric that exists only in this test's table: the outputs must show it with no edit of theirs.
const CONCISENESS: MetricDef = {
  name: "conciseness",
  kind: "answer",
  needs: ["answer"],
  live: false,
  optional: false,
  label: "concise",
  headline: true,
  byTag: true,
  trend: true,
  color: "#123456",
  compute: () => ({ value: 0.5, status: "ok", reason: "" }),
};
// A 0–10 metric: drawn on the right axis, scaled in the per-version bars.
const VERBOSITY: MetricDef = { ...CONCISENESS, name: "verbosity", label: undefined, max: 10, byTag: false };
const TEST_TABLE: MetricTable = (ks) => [...metricTable(ks), CONCISENESS, VERBOSITY];

const mean = (m: number, n: number) => ({ mean: m, n });
const run = (id: string, version: string, conciseness: number, verbosity: number) => ({
  run_id: id,
  started_at: `2026-12-0${id.slice(-1)}T10:00:00.000Z`,
  pipeline_version: version,
  source: "golden",
  golden_set_hash: "h",
  metrics: { "recall@5": mean(1, 2), conciseness: mean(conciseness, 2), verbosity: mean(verbosity, 2) },
  claims: {},
});
const DATA: ReportData = {
  generated_at: "2026-12-05T00:00:00.000Z",
  location: "test",
  runs: [run("r1", "v1", 0.25, 4), run("r2", "v2", 0.75, 6)],
  ks: [5],
  headline_k: 5,
  comparison: { last: null, previous: null, why: "test" },
  lost_hit: [],
  by_tag: { "topic:a": { conciseness: mean(0.125, 3) } },
  bad_claims: [],
};

describe("a metric added to a table alone reaches every output generated from it", () => {
  it("names it in the run's metric names and accepts it in the gate (--fail-on)", () => {
    const names = metricNames([5], false, TEST_TABLE);
    expect(names.slice(-2)).toEqual(["conciseness", "verbosity"]);
    expect(parseGate("conciseness<-0.1", names)).toEqual([{ metric: "conciseness", threshold: -0.1 }]);
    // the product table does not know it
    expect(() => parseGate("conciseness<-0.1", metricNames([5]))).toThrow(/unknown metric "conciseness"/u);
  });

  it("gives it a column of the text by-tag table, with its label", () => {
    const agg = { metrics: { conciseness: 0.125 }, n: { conciseness: 3 }, counts: {} } as unknown as Aggregate;
    const lines = tagTable({ "topic:a": agg }, metricNames([5], false, TEST_TABLE), TEST_TABLE);
    // columns: recall@5 grounding relevance key facts abstention concise (verbosity is not byTag)
    expect(lines[0]?.trim().split(/\s{2,}/u)).toEqual(["tag", "recall@5", "grounding", "ground. risk", "relevance", "context rel.", "key facts", "abstention", "concise"]);
    expect(
      lines[1]
        ?.trim()
        .split(/\s{2,}/u)
        .at(-1),
    ).toBe("0.13·3");
  });

  it("draws it in the report's trend and per-version charts and lists it in the runs and by-tag tables", () => {
    const charts = chartConfigs(DATA, TEST_TABLE) as Record<string, { data: { datasets: { label: string; data: (number | null)[]; yAxisID?: string }[] } }>;
    const trend = charts["trend"]!.data.datasets;
    expect(trend.find((d) => d.label === "concise")?.data).toEqual([0.25, 0.75]);
    expect(trend.find((d) => d.label === "verbosity (0–10, right axis)")).toMatchObject({ data: [4, 6], yAxisID: "y1" });
    const versions = charts["versions"]!.data.datasets;
    expect(versions.find((d) => d.label === "concise")?.data).toEqual([0.25, 0.75]);
    expect(versions.find((d) => d.label === "verbosity ÷ 10")?.data).toEqual([0.4, 0.6]);
    const html = renderReportHtml(DATA, "", {}, TEST_TABLE);
    expect(html).toMatch(/<th>source<\/th>.*<th>concise<\/th><th>verbosity<\/th><\/tr>/u);
    expect(html).toContain("<td>0.75</td><td>6.0/10</td></tr>"); // r2 (newest first), 6 of 10 as x.x/10
    expect(html).toMatch(/<th>conciseness<\/th><\/tr><\/thead><tbody><tr><td>topic:a<\/td>.*<td>0\.13 <span class="muted">·3<\/span><\/td><\/tr>/u);
  });

  it("puts it in the generated dashboards' SQL and overrides", () => {
    const files = renderAll(TEST_TABLE);
    const product = renderAll();
    const overview = JSON.parse(files.get("json/ragmeter-overview.json")!) as {
      panels: { title: string; targets: { rawSql: string }[]; fieldConfig: { overrides: { matcher: { options: string }; properties: { id: string; value: unknown }[] }[] } }[];
    };
    const [trend, byVersion] = overview.panels;
    expect(trend!.targets[0]!.rawSql).toContain("metric IN ('recall@${k}', 'grounding', 'relevance', 'key_facts', 'conciseness', 'verbosity')");
    // the 0–10 metric on the right axis with its own max, beside relevance's 4
    const right = trend!.fieldConfig.overrides.map((o) => [o.matcher.options, o.properties.find((p) => p.id === "max")?.value]);
    expect(right).toEqual([
      ["relevance", 4],
      ["verbosity", 10],
    ]);
    expect(byVersion!.targets[0]!.rawSql).toContain("avgIf(v, metric = 'conciseness') AS conciseness,\n  avgIf(v, metric = 'verbosity') AS verbosity,");
    // a share (max 1) shown as a percentage, the 0–10 one not
    const shares = byVersion!.fieldConfig.overrides.map((o) => o.matcher.options);
    expect(shares).toContain("conciseness");
    expect(shares).not.toContain("verbosity");
    expect(files.get("json/ragmeter-tags.json")).toContain("avgIf(s.v, s.metric = 'conciseness') AS conciseness");
    expect(product.get("json/ragmeter-overview.json")).not.toContain("conciseness");
  });
});
