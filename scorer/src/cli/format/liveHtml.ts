import type { LiveBucket, LiveGroup, LiveMetric, LiveMetricInfo, LiveSummary } from "../../runs/live.js";

const esc = (s: string): string => s.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
const f = (x: number | null, digits: number): string => (x === null ? "–" : x.toFixed(digits));
const ci = (c: readonly [number, number] | null, digits: number): string => (c === null ? "" : ` <span class="muted">[${c[0].toFixed(digits)}, ${c[1].toFixed(digits)}]</span>`);

/** Decimals of a live metric's figures: 3 for shares (largest value 1), 2 for scales (0–4). */
export const liveDigits = (max: number): number => (max > 1 ? 2 : 3);

const W = 360;
const H = 90;
/** Colours of the live metrics' trend lines without one of their own, in the summary's order. */
const PALETTE = ["#1f77b4", "#d62728", "#9467bd", "#8c564b", "#17becf"];
/** Colour of the summary's k-th live metric: the metric table's, else the palette's. */
const colourOf = (live: LiveSummary, k: number): string => live.metrics[k]?.color ?? (PALETTE[k % PALETTE.length] as string);
/** A live metric's trend label: its label, scaled to 0–1 when its largest value is not 1 (`<label> ÷ 4`). */
const scaled = (m: LiveMetricInfo): string => (m.max === 1 ? m.label : `${m.label} ÷ ${m.max}`);

/** An inline SVG trend of a group's buckets: each live metric's mean ÷ its largest value (0–1), dots where a bucket has values; bars = traces. */
function trendSvg(live: LiveSummary, buckets: readonly LiveBucket[]): string {
  const n = buckets.length;
  const x = (i: number) => (n <= 1 ? W / 2 : 10 + (i * (W - 20)) / (n - 1));
  const y = (v: number) => 8 + (1 - v) * (H - 16);
  const maxTraces = Math.max(1, ...buckets.map((b) => b.traces));
  const bars = buckets
    .map(
      (b, i) =>
        `<rect x="${(x(i) - 4).toFixed(1)}" y="${(H - 4 - (b.traces / maxTraces) * 30).toFixed(1)}" width="8" height="${((b.traces / maxTraces) * 30).toFixed(1)}" fill="#ddd"><title>${b.traces} traces from ${esc(b.start.slice(11, 16))}</title></rect>`,
    )
    .join("");
  const line = (vals: readonly (number | null)[], colour: string) => {
    const pts = vals.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`));
    const path = pts.filter((p) => p !== null).join(" ");
    return `${path.includes(" ") ? `<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"/>` : ""}${pts.map((p) => (p === null ? "" : `<circle cx="${p.split(",")[0]}" cy="${p.split(",")[1]}" r="3" fill="${colour}"/>`)).join("")}`;
  };
  const lines = live.metrics.map((m, k) =>
    line(
      buckets.map((b) => {
        const v = b.metrics[m.name] ?? null;
        return v === null ? null : v / m.max;
      }),
      colourOf(live, k),
    ),
  );
  return `<svg class="live-trend" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(live.metrics.map((m) => m.label).join(", "))} over the window"><rect x="0" y="0" width="${W}" height="${H}" fill="#fafafa"/>${bars}${lines.join("")}</svg>`;
}

const statuses = (s: Readonly<Record<string, number>>): string =>
  Object.entries(s)
    .map(([k, v]) => `${esc(k)} ${v}`)
    .join(", ");

/** `n=…`, and on how many of the latest values the interval was computed when not on all. */
const nOf = (m: LiveMetric): string => `n=${m.n}${m.ci && m.ci_n < m.n ? `, interval of the latest ${m.ci_n}` : ""}`;

function row(live: LiveSummary, g: LiveGroup): string {
  const cost = g.judge.cost_usd === null ? `<span class="muted" title="${esc(g.judge.cost_reason ?? "")}">unknown</span>` : `$${g.judge.cost_usd.toFixed(4)}`;
  const metrics = live.metrics
    .map((m) => {
      const x = g.metrics[m.name];
      const d = liveDigits(m.max);
      return x === undefined ? "<td>–</td>" : `<td data-metric="${esc(m.name)}">${f(x.mean, d)}${ci(x.ci, d)} <span class="muted">${nOf(x)}</span></td>`;
    })
    .join("");
  return `<tr data-service="${esc(g.service)}" data-version="${esc(g.pipeline_version)}"><td>${esc(g.service)}</td><td>${esc(g.pipeline_version || "(none)")}</td><td>${g.traces_seen}</td><td>${g.traces_scored}</td><td>${statuses(g.statuses)}</td>${metrics}<td>${g.judge.calls} · ${cost}</td><td>${trendSvg(live, g.buckets)}</td></tr>`;
}

/**
 * The live section of `serve`'s and `scorer`'s page (beside the golden runs): per service and
 * pipeline version over the window, traces, statuses, each live metric's mean with its 95% bootstrap
 * interval (a column per metric of the summary, by name), judge calls and cost, an inline SVG trend
 * (each metric ÷ its largest value, traces as grey bars), the stream's judge failures and budget
 * skips, the overlap of versions side by side, and the warnings.
 */
export function renderLiveSection(live: LiveSummary): string {
  const w = live.window_ms;
  const span = w % 3_600_000 === 0 ? `${w / 3_600_000} h` : w % 60_000 === 0 ? `${w / 60_000} min` : `${Math.round(w / 1000)} s`;
  const warnings = live.warnings.map((w) => `<p class="warn live-warning">⚠ ${esc(w)}</p>`).join("\n");
  const heads = live.metrics.map((m) => `<th data-metric="${esc(m.name)}">${esc(m.label)}${m.max === 1 ? "" : ` 0–${m.max}`} [95% CI]</th>`).join("");
  const table =
    live.groups.length === 0
      ? `<p class="muted">No live traces in the window.</p>`
      : `<table id="live"><thead><tr><th>service</th><th>pipeline</th><th>traces</th><th>scored</th><th>statuses</th>${heads}<th>judge calls · cost</th><th>trend (${esc(live.metrics.map(scaled).join(", "))}, traces)</th></tr></thead><tbody>
${live.groups.map((g) => row(live, g)).join("\n")}
</tbody></table>`;
  const errors = Object.entries(live.stream.judge_errors);
  const stream = `<p class="muted" id="live-stream">Stream judge over the window's minutes (every scorer): failures ${
    errors.length === 0 ? "none" : errors.map(([k, v]) => `<span data-kind="${esc(k)}">${esc(k)} ${v}</span>`).join(", ")
  } · skipped for the judge budget <span data-budget-exhausted>${live.stream.judge_skipped_budget_exhausted}</span></p>`;
  const overlap =
    live.overlap.length === 0
      ? ""
      : `<h3>Retrieval overlap of versions side by side (Jaccard of retrieved documents, same question)</h3>
<table id="live-overlap"><thead><tr><th>service</th><th>version A</th><th>version B</th><th>questions</th><th>mean Jaccard</th></tr></thead><tbody>
${live.overlap.map((o) => `<tr><td>${esc(o.service)}</td><td>${esc(o.version_a || "(none)")}</td><td>${esc(o.version_b || "(none)")}</td><td>${o.questions}</td><td>${f(o.mean_jaccard, 3)}</td></tr>`).join("\n")}
</tbody></table>`;
  const legend = live.metrics.map((m, k) => `<span style="color:${colourOf(live, k)}">● ${esc(scaled(m))}</span>`).join(" · ");
  return `<section id="live-section">
<h2>Live traffic</h2>
<p class="muted">Last ${span} (since ${esc(live.since.slice(0, 19).replace("T", " "))} UTC) · ${live.traces_seen} live trace(s), ${live.content_missing} content_missing · page reloads itself</p>
${warnings}
${table}
${stream}
<p class="muted">Trend: ${legend} · grey bars = traces, ${live.groups[0]?.buckets.length ?? 0} equal buckets over the window.</p>
${overlap}
</section>`;
}
