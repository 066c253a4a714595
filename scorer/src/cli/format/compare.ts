import type { Comparison } from "../../runs/compare.js";
import { fmtDelta, fmtValue } from "./text.js";

/** Text report of a comparison: per-metric paired deltas with interval and n, unpaired questions, regressions. */
export function formatComparison(c: Comparison): string {
  const out: string[] = [];
  out.push(`compare ${c.a.run_id} (pipeline ${c.a.pipeline_version}) → ${c.b.run_id} (pipeline ${c.b.pipeline_version})`);
  out.push(`paired over questions scored ok in both; 95% CI by percentile bootstrap, B=${c.resamples}, seed ${c.seed}`);
  out.push("");
  out.push(`${"metric".padEnd(12)} ${"A".padStart(7)} ${"B".padStart(7)} ${"delta".padStart(7)}  ${"95% CI".padEnd(20)} n`);
  for (const d of c.deltas) {
    const ci = d.interval ? `[${fmtDelta(d.metric, d.interval.lower)}, ${fmtDelta(d.metric, d.interval.upper)}]` : "—";
    out.push(
      `${d.metric.padEnd(12)} ${fmtValue(d.metric, d.mean_a).padStart(7)} ${fmtValue(d.metric, d.mean_b).padStart(7)} ${fmtDelta(d.metric, d.delta).padStart(7)}  ${ci.padEnd(20)} ${d.n}`,
    );
  }
  const unpaired = new Map<string, string[]>();
  for (const d of c.deltas) for (const u of d.unpaired) unpaired.set(u.golden_id, [...(unpaired.get(u.golden_id) ?? []), `${d.metric}: ${u.reason}`]);
  if (unpaired.size > 0) {
    out.push("");
    out.push("unpaired or not ok");
    for (const [id, why] of [...unpaired].sort(([x], [y]) => x.localeCompare(y))) out.push(`  ${id}: ${why.join("; ")}`);
  }
  out.push("");
  out.push("regressed");
  let any = false;
  for (const d of c.deltas) {
    const reg = d.differences.filter((x) => x.delta < 0).sort((x, y) => x.delta - y.delta || x.golden_id.localeCompare(y.golden_id));
    if (reg.length === 0) continue;
    any = true;
    const shown = reg.slice(0, 10).map((x) => `${x.golden_id} ${fmtValue(d.metric, x.a)}→${fmtValue(d.metric, x.b)}`);
    out.push(`  ${d.metric} (${reg.length}): ${shown.join(", ")}${reg.length > shown.length ? `, … and ${reg.length - shown.length} more (--json lists all)` : ""}`);
  }
  if (!any) out.push("  none");
  for (const w of c.warnings) out.push(`warning: ${w}`);
  return out.join("\n");
}
