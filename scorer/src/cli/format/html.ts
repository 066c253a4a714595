import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { isWorse, type MetricDef, type MetricTable, metricLabel, metricTable } from "@ragmeter/core/domain/metricTable";
import type { ReportData, ReportRun } from "../../runs/reportData.js";
import { fmtValue, fmtDelta as textDelta } from "./text.js";

/** Chart ids in the page (`window.ragmeterCharts[id]` is the Chart.js instance). */
const CHART_IDS = ["trend", "versions", "retrieval", "claims"] as const;

/**
 * Chart.js's UMD bundle as text, read from the installed package (it is not in the package's
 * `exports`, so it is located next to the entry point `require.resolve` finds).
 * @throws Error when chart.js is not installed.
 */
export function chartJsSource(): string {
  const entry = createRequire(import.meta.url).resolve("chart.js");
  return readFileSync(path.join(path.dirname(entry), "chart.umd.min.js"), "utf8");
}

const esc = (s: string): string => s.replace(/[&<>"']/gu, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
// The same rounding as the terminal summary: two decimals, relevance as x.x/4, deltas signed.
const fmt = (metric: string, v: number | null | undefined): string => fmtValue(metric, v ?? null);
const fmtDelta = (metric: string, v: number | null | undefined): string => textDelta(metric, v ?? null);

/** Latest completed run of each pipeline version, in order of first appearance. */
function latestPerVersion(runs: readonly ReportRun[]): ReportRun[] {
  const m = new Map<string, ReportRun>();
  for (const r of runs) {
    m.delete(r.pipeline_version);
    m.set(r.pipeline_version, r);
  }
  return [...m.values()];
}

/** The chart configurations (Chart.js `{type, data, options}`) the page draws, by chart id. */
export function chartConfigs(data: ReportData, table: MetricTable = metricTable): Record<(typeof CHART_IDS)[number], unknown> {
  const k = data.headline_k;
  const label = (r: ReportRun) => `${r.pipeline_version} · ${r.started_at.slice(0, 16).replace("T", " ")}`;
  const series = (runs: readonly ReportRun[], metric: string, scale = 1) =>
    runs.map((r) => {
      const v = r.metrics[metric]?.mean;
      return v === undefined || v === null ? null : v / scale;
    });
  const colors: Record<string, string> = {
    SUPPORTED: "#2ca02c",
    UNSUPPORTED: "#f0ad4e",
    CONTRADICTED: "#d62728",
  };
  const line = (lbl: string, values: (number | null)[], color: string, axis = "y") => ({
    label: lbl,
    data: values,
    borderColor: color,
    backgroundColor: color,
    yAxisID: axis,
    spanGaps: true,
    tension: 0,
    pointRadius: 4,
  });
  const bar = (lbl: string, values: (number | null)[], color: string) => ({ label: lbl, data: values, backgroundColor: color });
  const common = { animation: false, responsive: true, maintainAspectRatio: false, plugins: { legend: { position: "bottom" } } };
  const versions = latestPerVersion(data.runs);
  const retrievalColors = ["#aec7e8", "#6baed6", "#1f77b4", "#08306b"];
  const color = (m: MetricDef): string => m.color ?? "#7f7f7f";
  const rightAxis = table([k]).find((m) => m.trend && m.max !== undefined);
  // retrieval metrics, recall@<k> for every k first (metricTable's order)
  const retrieval = table(data.ks).filter((m) => m.kind === "retrieval");
  return {
    trend: {
      type: "line",
      data: {
        labels: data.runs.map(label),
        datasets: [
          ...table([k])
            .filter((m) => m.trend)
            .map((m) =>
              m.max === undefined
                ? line(metricLabel(m.name, table), series(data.runs, m.name), color(m))
                : line(`${metricLabel(m.name, table)} (0–${m.max}, right axis)`, series(data.runs, m.name), color(m), "y1"),
            ),
        ],
      },
      options: {
        ...common,
        scales: {
          y: { min: 0, max: 1, title: { display: true, text: "share" } },
          y1: {
            position: "right",
            min: 0,
            max: rightAxis?.max ?? 1,
            grid: { drawOnChartArea: false },
            title: { display: true, text: rightAxis ? metricLabel(rightAxis.name, table) : "" },
          },
        },
      },
    },
    versions: {
      type: "bar",
      data: {
        labels: versions.map((r) => r.pipeline_version),
        datasets: [
          ...table([k])
            .filter((m) => m.headline)
            .map((m) =>
              m.max === undefined
                ? bar(metricLabel(m.name, table), series(versions, m.name), color(m))
                : bar(`${metricLabel(m.name, table)} ÷ ${m.max}`, series(versions, m.name, m.max), color(m)),
            ),
        ],
      },
      options: { ...common, scales: { y: { min: 0, max: 1 } } },
    },
    retrieval: {
      type: "bar",
      data: {
        labels: versions.map((r) => r.pipeline_version),
        datasets: [
          ...retrieval.map((m, i) => bar(metricLabel(m.name, table), series(versions, m.name), i < data.ks.length ? retrievalColors[i % retrievalColors.length]! : color(m))),
        ],
      },
      options: { ...common, scales: { y: { min: 0, max: 1 } } },
    },
    claims: {
      type: "bar",
      data: {
        labels: data.runs.map(label),
        datasets: ["SUPPORTED", "UNSUPPORTED", "CONTRADICTED"].map((v) =>
          bar(
            v,
            data.runs.map((r) => r.claims[v] ?? 0),
            colors[v]!,
          ),
        ),
      },
      options: { ...common, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: "claims" } } } },
    },
  };
}

function comparisonSection(data: ReportData): string {
  const c = data.comparison;
  if (c.previous === null) return `<p class="muted">No comparable previous run: ${esc(c.why)}.</p>`;
  const rows = c.deltas
    .map((d) => {
      const sig = d.ci !== null && (d.ci[0] > 0 || d.ci[1] < 0);
      const cls = d.delta === null ? "" : sig ? (isWorse(d.metric, d.delta) ? "down" : "up") : "";
      return `<tr class="${cls}"><td>${esc(d.metric)}</td><td>${fmt(d.metric, d.previous)}</td><td>${fmt(d.metric, d.last)}</td><td>${fmtDelta(d.metric, d.delta)}</td><td>${d.ci ? `[${fmtDelta(d.metric, d.ci[0])}, ${fmtDelta(d.metric, d.ci[1])}]` : "—"}</td><td>${d.n}</td><td>${sig ? "yes" : "no"}</td></tr>`;
    })
    .join("\n");
  return `<p>Last run <code>${esc(c.last.run_id)}</code> (pipeline <b>${esc(c.last.pipeline_version)}</b>) against the previous comparable run <code>${esc(c.previous.run_id)}</code> (pipeline <b>${esc(c.previous.pipeline_version)}</b>): paired over the questions scored ok in both; 95% percentile-bootstrap interval, B = ${c.resamples}, seed ${c.seed} (${c.origin === "stored" ? "from the comparisons table" : "computed for this report; run <code>ragmeter compare</code> to store it"}).</p>
<table id="comparison"><thead><tr><th>metric</th><th>previous</th><th>last</th><th>paired delta</th><th>95% interval</th><th>n</th><th>interval excludes 0</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

/**
 * The self-contained HTML report: inline Chart.js (`chartJs`, the UMD bundle), the data as JSON, the
 * four charts and the tables; a Content-Security-Policy forbids any network access. After drawing,
 * the page sets `document.documentElement.dataset.chartsReady` to the number of charts drawn and
 * exposes them as `window.ragmeterCharts`. `extras` adds markup to the head (e.g. a refresh) and
 * sections after Grounding (the live section of `serve`'s page).
 */
export function renderReportHtml(data: ReportData, chartJs: string, extras: { readonly head?: string; readonly sections?: string } = {}, table: MetricTable = metricTable): string {
  const json = JSON.stringify({ data, charts: chartConfigs(data, table) }).replace(/</gu, "\\u003c");
  const runCols = table([data.headline_k])
    .filter((m) => m.trend)
    .map((m) => m.name);
  const runsRows = [...data.runs]
    .reverse()
    .map(
      (r) =>
        `<tr><td><code>${esc(r.run_id)}</code></td><td>${esc(r.started_at.slice(0, 19).replace("T", " "))}</td><td>${esc(r.pipeline_version)}</td><td>${esc(r.source)}</td>${runCols.map((c) => `<td>${fmtValue(c, r.metrics[c]?.mean ?? null, table)}</td>`).join("")}</tr>`,
    )
    .join("\n");
  const lost =
    data.lost_hit.length === 0
      ? `<p class="muted">None.</p>`
      : `<table id="lost-hit"><thead><tr><th>golden id</th><th>question</th><th>expected chunk: rank before → now</th><th>retrieved instead (top ${data.headline_k} now)</th><th>trace id</th></tr></thead><tbody>${data.lost_hit
          .map(
            (q) =>
              `<tr><td>${esc(q.golden_id)}</td><td>${esc(q.question)}</td><td class="ranks">${q.rank_previous ?? "—"} → ${q.rank_last === null ? "not retrieved" : `${q.rank_last} (below ${data.headline_k})`}</td><td class="instead">${q.retrieved_last.map((x) => `<code>${esc(x.id)}</code>`).join("<br>") || "nothing"}</td><td><code>${esc(q.trace_id)}</code></td></tr>`,
          )
          .join("\n")}</tbody></table>`;
  const tagCols = table(data.ks)
    .filter((m) => m.byTag)
    .map((m) => m.name);
  const byTag =
    Object.keys(data.by_tag).length === 0
      ? `<p class="muted">No tags.</p>`
      : `<table id="by-tag"><thead><tr><th>tag</th>${tagCols.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead><tbody>${Object.entries(data.by_tag)
          .map(
            ([tag, m]) =>
              `<tr><td>${esc(tag)}</td>${tagCols.map((c) => `<td>${fmtValue(c, m[c]?.mean ?? null, table)}${m[c] ? ` <span class="muted">·${m[c].n}</span>` : ""}</td>`).join("")}</tr>`,
          )
          .join("\n")}</tbody></table>`;
  const bad =
    data.bad_claims.length === 0
      ? `<p class="muted">None.</p>`
      : `<table id="bad-claims"><thead><tr><th>time (UTC)</th><th>verdict</th><th>claim</th><th>golden id</th><th>question</th><th>pipeline</th><th>trace id</th></tr></thead><tbody>${data.bad_claims.map((c) => `<tr><td>${esc(c.time.slice(0, 19).replace("T", " "))}</td><td class="${c.verdict === "CONTRADICTED" ? "down" : "warn"}">${esc(c.verdict)}</td><td>${esc(c.claim)}</td><td>${esc(c.golden_id || "— (live)")}</td><td>${esc(c.question)}</td><td>${esc(c.pipeline_version)}</td><td><code>${esc(c.trace_id)}</code></td></tr>`).join("\n")}</tbody></table>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">${extras.head ?? ""}
<title>ragmeter report</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1200px; padding: 0 16px; color: #222; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; } h3 { font-size: 15px; margin: 18px 0 6px; }
.muted { color: #777; } .chart { position: relative; height: 340px; } .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; } th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #eee; vertical-align: top; } th { background: #f6f6f6; }
tr.down td, td.down { color: #b00020; } tr.up td { color: #1b7a1b; } td.warn { color: #a06000; } code { font-size: 12px; }
</style>
</head>
<body>
<h1>ragmeter report</h1>
<p class="muted">Generated ${esc(data.generated_at.slice(0, 19).replace("T", " "))} UTC from ${esc(data.location)} · ${data.runs.length} completed run(s)</p>
<h2>Overview</h2>
<h3>Trend per run (mean of ok scores)</h3>
<div class="chart"><canvas id="chart-trend" aria-label="trend per run"></canvas></div>
<h3>Per pipeline version (latest run of each)</h3>
<div class="chart"><canvas id="chart-versions" aria-label="per pipeline version"></canvas></div>
<h3>Last vs previous</h3>
${comparisonSection(data)}
<h3>Runs</h3>
<table id="runs"><thead><tr><th>run</th><th>started (UTC)</th><th>pipeline</th><th>source</th>${runCols.map((c) => `<th>${esc(metricLabel(c, table))}</th>`).join("")}</tr></thead><tbody>
${runsRows}
</tbody></table>
<h3>Last run by tag (value · n)</h3>
${byTag}
<h2>Retrieval</h2>
<div class="chart"><canvas id="chart-retrieval" aria-label="recall at k per version"></canvas></div>
<h3>Questions that lost their hit (recall@${data.headline_k}: 1 in the previous run, 0 in the last)</h3>
${lost}
<h2>Grounding</h2>
<div class="chart"><canvas id="chart-claims" aria-label="claims by verdict per run"></canvas></div>
<h3>Recent UNSUPPORTED and CONTRADICTED claims</h3>
${bad}
${extras.sections ?? ""}
<script>${chartJs.replace(/<\/script/giu, "<\\/script")}</script>
<script type="application/json" id="ragmeter-data">${json}</script>
<script>
(function () {
  var payload = JSON.parse(document.getElementById("ragmeter-data").textContent);
  var charts = {};
  ${JSON.stringify(CHART_IDS)}.forEach(function (id) {
    var canvas = document.getElementById("chart-" + id);
    if (canvas && typeof Chart !== "undefined") charts[id] = new Chart(canvas, payload.charts[id]);
  });
  window.ragmeterCharts = charts;
  document.documentElement.dataset.chartsReady = String(Object.keys(charts).length);
})();
</script>
</body>
</html>
`;
}
