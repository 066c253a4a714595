import { isWorse, metricLabel, metricTable, qualityDelta } from "@ragmeter/core/domain/metricTable";
import type { Comparison } from "../../runs/compare.js";
import type { PairedDelta } from "../../runs/paired.js";
import { fmtDelta, fmtValue } from "./text.js";

type Delta = PairedDelta;

/** Text report of a comparison: per-metric paired deltas with interval and n, unpaired questions, regressions. */
export function formatComparison(c: Comparison): string {
  const out: string[] = [];
  out.push(`compare ${c.a.run_id} (pipeline ${c.a.pipeline_version}) → ${c.b.run_id} (pipeline ${c.b.pipeline_version})`);
  out.push(`paired over questions scored ok in both; 95% CI by percentile bootstrap, B=${c.resamples}, seed ${c.seed}`);
  out.push("");
  out.push(...deltaTable(c.deltas, "A", "B"));
  out.push("", verdictLine(c));
  out.push(...unpairedLines(c.deltas));
  out.push("");
  out.push("regressed");
  const regressed = c.deltas.map(regressedLine).filter((l) => l !== null);
  out.push(...(regressed.length > 0 ? regressed : ["  none"]));
  for (const w of c.warnings) out.push(`warning: ${w}`);
  return out.join("\n");
}

/** Whether a delta's 95% interval excludes 0 (a clear change); false without an interval. */
const clearChange = (d: Delta): boolean => d.interval !== null && (d.interval.lower > 0 || d.interval.upper < 0);

/** The headline metrics (per-k ones at k = 5, else the largest k of B) split by what their 95% interval says. */
function headlineMoves(c: Pick<Comparison, "b" | "deltas">): { worse: string[]; better: string[]; held: string[] } {
  const ks = c.b.ks.length > 0 ? c.b.ks : [5];
  const headline = metricTable([ks.includes(5) ? 5 : Math.max(...ks)]).filter((x) => x.headline);
  const out = { worse: [] as string[], better: [] as string[], held: [] as string[] };
  for (const d of c.deltas) {
    const m = headline.find((x) => x.name === d.metric);
    if (m === undefined || d.delta === null) continue;
    if (!clearChange(d)) out.held.push(metricLabel(m.name));
    else (isWorse(m.name, d.delta) ? out.worse : out.better).push(`${metricLabel(m.name)} ${fmtDelta(m.name, d.delta)} (${m.kind === "retrieval" ? "retrieval" : "answer"})`);
  }
  return out;
}

/**
 * One line that says whether B is better or worse than A and where: the headline metrics whose 95%
 * interval excludes 0, each with its layer (retrieval: a metric of the ranked contexts; answer: the
 * rest), then those with no clear change.
 */
export function verdictLine(c: Pick<Comparison, "a" | "b" | "deltas">): string {
  const { worse, better, held } = headlineMoves(c);
  const [a, b] = [c.a.pipeline_version, c.b.pipeline_version];
  const overall =
    worse.length > 0
      ? better.length > 0
        ? `${b} is mixed against ${a}`
        : `${b} is worse than ${a}`
      : better.length > 0
        ? `${b} is better than ${a}`
        : `no clear change from ${a} to ${b}`;
  const parts = [
    ...(worse.length > 0 ? [`worse: ${worse.join(", ")}`] : []),
    ...(better.length > 0 ? [`better: ${better.join(", ")}`] : []),
    ...(held.length > 0 ? [`no clear change: ${held.join(", ")}`] : []),
  ];
  return `verdict (headline metrics, 95% interval excluding 0): ${overall}${parts.length > 0 ? ` — ${parts.join("; ")}` : ""}`;
}

/**
 * The paired-delta table (compare, replay): a header with the two sides' names, then one row per
 * metric; the name column as wide as the longest metric name (context_relevance: 17 characters), so
 * the columns line up.
 */
export function deltaTable(deltas: readonly Delta[], a: string, b: string): string[] {
  const width = Math.max(12, ...deltas.map((d) => d.metric.length));
  return [`${"metric".padEnd(width)} ${a.padStart(7)} ${b.padStart(7)} ${"delta".padStart(7)}  ${"95% CI".padEnd(20)} n`, ...deltas.map((d) => deltaRow(d, width))];
}

/** One metric's row: mean in A and B, the paired delta, its interval and n; the name padded to `width`. */
function deltaRow(d: Delta, width: number): string {
  const ci = d.interval ? `[${fmtDelta(d.metric, d.interval.lower)}, ${fmtDelta(d.metric, d.interval.upper)}]` : "—";
  return `${d.metric.padEnd(width)} ${fmtValue(d.metric, d.mean_a).padStart(7)} ${fmtValue(d.metric, d.mean_b).padStart(7)} ${fmtDelta(d.metric, d.delta).padStart(7)}  ${ci.padEnd(20)} ${d.n}`;
}

/** Ids shown per line of a group of questions unpaired for one reason in every metric. */
const GROUP_IDS = 10;

/**
 * The section of the questions left unpaired or not ok, with their reasons per metric (none when
 * every question paired). Questions unpaired for one same reason in every metric (two runs of
 * different golden sets: a question only in one run) are one line per reason, not one per question.
 */
function unpairedLines(deltas: readonly Delta[]): string[] {
  const unpaired = new Map<string, { metric: string; reason: string }[]>();
  for (const d of deltas) for (const u of d.unpaired) unpaired.set(u.golden_id, [...(unpaired.get(u.golden_id) ?? []), { metric: d.metric, reason: u.reason }]);
  if (unpaired.size === 0) return [];
  const sorted = [...unpaired].sort(([x], [y]) => x.localeCompare(y));
  const everyMetric = new Map<string, string[]>();
  const lines: string[] = [];
  for (const [id, why] of sorted) {
    const reason = why[0]?.reason ?? "";
    if (why.length === deltas.length && why.every((w) => w.reason === reason)) everyMetric.set(reason, [...(everyMetric.get(reason) ?? []), id]);
    else lines.push(`  ${id}: ${why.map((w) => `${w.metric}: ${w.reason}`).join("; ")}`);
  }
  const groups = [...everyMetric].map(([reason, ids]) => {
    const more = ids.length > GROUP_IDS ? `, … and ${ids.length - GROUP_IDS} more` : "";
    return `  ${reason}, every metric (${ids.length}): ${ids.slice(0, GROUP_IDS).join(", ")}${more}`;
  });
  return ["", "unpaired or not ok", ...groups, ...lines];
}

/** A metric's regressed questions, worst first (ten shown), or null when none regressed. */
function regressedLine(d: Delta): string | null {
  const reg = d.differences
    .filter((x) => isWorse(d.metric, x.delta))
    .sort((x, y) => qualityDelta(d.metric, x.delta) - qualityDelta(d.metric, y.delta) || x.golden_id.localeCompare(y.golden_id));
  if (reg.length === 0) return null;
  const shown = reg.slice(0, 10).map((x) => `${x.golden_id} ${fmtValue(d.metric, x.a)}→${fmtValue(d.metric, x.b)}`);
  const more = reg.length > shown.length ? `, … and ${reg.length - shown.length} more (--json lists all)` : "";
  return `  ${d.metric} (${reg.length}): ${shown.join(", ")}${more}`;
}
