import type { LiveBucket, LiveGroup, LiveSummary } from "../../runs/live.js";

const esc = (s: string): string => s.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
const f = (x: number | null, digits: number): string => (x === null ? "–" : x.toFixed(digits));
const ci = (c: readonly [number, number] | null, digits: number): string => (c === null ? "" : ` <span class="muted">[${c[0].toFixed(digits)}, ${c[1].toFixed(digits)}]</span>`);

const W = 360;
const H = 90;

/** An inline SVG trend of a group's buckets: grounding (0–1) and relevance/4, dots where a bucket has values; bars = traces. */
function trendSvg(buckets: readonly LiveBucket[]): string {
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
  return `<svg class="live-trend" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="grounding and relevance over the window"><rect x="0" y="0" width="${W}" height="${H}" fill="#fafafa"/>${bars}${line(
    buckets.map((b) => b.grounding),
    "#1f77b4",
  )}${line(
    buckets.map((b) => (b.relevance === null ? null : b.relevance / 4)),
    "#ff7f0e",
  )}</svg>`;
}

const statuses = (s: Readonly<Record<string, number>>): string =>
  Object.entries(s)
    .map(([k, v]) => `${esc(k)} ${v}`)
    .join(", ");

/** `n=…`, and on how many of the latest values the interval was computed when not on all. */
const nOf = (m: LiveGroup["grounding"]): string => `n=${m.n}${m.ci && m.ci_n < m.n ? `, interval of the latest ${m.ci_n}` : ""}`;

function row(g: LiveGroup): string {
  const cost = g.judge.cost_usd === null ? `<span class="muted" title="${esc(g.judge.cost_reason ?? "")}">unknown</span>` : `$${g.judge.cost_usd.toFixed(4)}`;
  return `<tr data-service="${esc(g.service)}" data-version="${esc(g.pipeline_version)}"><td>${esc(g.service)}</td><td>${esc(g.pipeline_version || "(none)")}</td><td>${g.traces_seen}</td><td>${g.traces_scored}</td><td>${statuses(g.statuses)}</td><td>${f(g.grounding.mean, 3)}${ci(g.grounding.ci, 3)} <span class="muted">${nOf(g.grounding)}</span></td><td>${f(g.relevance.mean, 2)}${ci(g.relevance.ci, 2)} <span class="muted">${nOf(g.relevance)}</span></td><td>${g.judge.calls} · ${cost}</td><td>${trendSvg(g.buckets)}</td></tr>`;
}

/**
 * The live section of `serve`'s and `scorer`'s page (beside the golden runs): per service and
 * pipeline version over the window, traces, statuses, grounding and relevance means with 95%
 * bootstrap intervals, judge calls and cost, an inline SVG trend (grounding blue, relevance ÷ 4
 * orange, traces as grey bars), the overlap of versions side by side, and the warnings.
 */
export function renderLiveSection(live: LiveSummary): string {
  const w = live.window_ms;
  const span = w % 3_600_000 === 0 ? `${w / 3_600_000} h` : w % 60_000 === 0 ? `${w / 60_000} min` : `${Math.round(w / 1000)} s`;
  const warnings = live.warnings.map((w) => `<p class="warn live-warning">⚠ ${esc(w)}</p>`).join("\n");
  const table =
    live.groups.length === 0
      ? `<p class="muted">No live traces in the window.</p>`
      : `<table id="live"><thead><tr><th>service</th><th>pipeline</th><th>traces</th><th>scored</th><th>statuses</th><th>grounding [95% CI]</th><th>relevance 0–4 [95% CI]</th><th>judge calls · cost</th><th>trend (grounding, relevance ÷ 4, traces)</th></tr></thead><tbody>
${live.groups.map(row).join("\n")}
</tbody></table>`;
  const overlap =
    live.overlap.length === 0
      ? ""
      : `<h3>Retrieval overlap of versions side by side (Jaccard of retrieved documents, same question)</h3>
<table id="live-overlap"><thead><tr><th>service</th><th>version A</th><th>version B</th><th>questions</th><th>mean Jaccard</th></tr></thead><tbody>
${live.overlap.map((o) => `<tr><td>${esc(o.service)}</td><td>${esc(o.version_a)}</td><td>${esc(o.version_b)}</td><td>${o.questions}</td><td>${f(o.mean_jaccard, 3)}</td></tr>`).join("\n")}
</tbody></table>`;
  return `<section id="live-section">
<h2>Live traffic</h2>
<p class="muted">Last ${span} (since ${esc(live.since.slice(0, 19).replace("T", " "))} UTC) · ${live.traces_seen} live trace(s), ${live.content_missing} content_missing · page reloads itself</p>
${warnings}
${table}
<p class="muted">Trend: <span style="color:#1f77b4">● grounding</span> · <span style="color:#ff7f0e">● relevance ÷ 4</span> · grey bars = traces, ${live.groups[0]?.buckets.length ?? 0} equal buckets over the window.</p>
${overlap}
</section>`;
}
