import { metricNames } from "../domain/metricTable.js";
import { randomUUID } from "node:crypto";
import { pairedDelta, type PairedDelta } from "./paired.js";
import { fmtDelta, fmtValue } from "../cli/format/text.js";
import { storedQuestionMetrics } from "./eval.js";
import type { Store } from "../store/client.js";
import { type RunRecord } from "../store/runs.js";

/** Result of comparing two stored runs. */
export interface Comparison {
  readonly comparison_id: string;
  readonly a: RunRecord;
  readonly b: RunRecord;
  readonly deltas: readonly PairedDelta[];
  readonly seed: number;
  readonly resamples: number;
  /** Warnings, e.g. different golden sets or judges. */
  readonly warnings: readonly string[];
}

/**
 * Paired comparison of two runs per metric with a percentile-bootstrap 95% interval (design §5);
 * repeats are averaged per question before pairing. Writes the result to `comparisons`.
 */
export async function compareRuns(store: Store, a: RunRecord, b: RunRecord, options: { seed: number; resamples: number }): Promise<Comparison> {
  const ma = await storedQuestionMetrics(store, a.run_id);
  const mb = await storedQuestionMetrics(store, b.run_id);
  const ks = [...new Set([...a.ks, ...b.ks])].sort((x, y) => x - y);
  const referenceScored = [...ma.values(), ...mb.values()].some((m) => m.get("reference_facts")?.status === "ok");
  const names = metricNames(ks, { referenceJudge: referenceScored });
  const deltas = names.map((m) => pairedDelta(m, ma, mb, { seed: options.seed, resamples: options.resamples }));
  const warnings: string[] = [];
  if (a.golden_set_hash !== b.golden_set_hash) warnings.push("the runs use different golden sets: only questions with the same id are paired");
  if (a.judge_kind !== b.judge_kind || a.judge_model !== b.judge_model || a.judge_prompt_version !== b.judge_prompt_version) {
    warnings.push(`the runs use different judges (${a.judge_kind} ${a.judge_model} ${a.judge_prompt_version} vs ${b.judge_kind} ${b.judge_model} ${b.judge_prompt_version}): judge changes are mixed into the deltas`);
  }
  const comparison_id = randomUUID();
  const version = store.nextVersion();
  await store.client.insert({
    table: `${store.database}.comparisons`,
    values: deltas.map((d) => ({
      comparison_id,
      run_a: a.run_id,
      run_b: b.run_id,
      metric: d.metric,
      n: d.n,
      mean_a: d.mean_a,
      mean_b: d.mean_b,
      delta: d.delta,
      ci_lower: d.interval?.lower ?? null,
      ci_upper: d.interval?.upper ?? null,
      seed: options.seed,
      resamples: options.resamples,
      created_at: Date.now(),
      version,
    })),
    format: "JSONEachRow",
  });
  return { comparison_id, a, b, deltas, seed: options.seed, resamples: options.resamples, warnings };
}

/** Text report of a comparison: per-metric paired deltas with interval and n, unpaired questions, regressions. */
export function formatComparison(c: Comparison): string {
  const out: string[] = [];
  out.push(`compare ${c.a.run_id} (pipeline ${c.a.pipeline_version}) → ${c.b.run_id} (pipeline ${c.b.pipeline_version})`);
  out.push(`paired over questions scored ok in both; 95% CI by percentile bootstrap, B=${c.resamples}, seed ${c.seed}`);
  out.push("");
  out.push(`${"metric".padEnd(12)} ${"A".padStart(7)} ${"B".padStart(7)} ${"delta".padStart(7)}  ${"95% CI".padEnd(20)} n`);
  for (const d of c.deltas) {
    const ci = d.interval ? `[${fmtDelta(d.metric, d.interval.lower)}, ${fmtDelta(d.metric, d.interval.upper)}]` : "—";
    out.push(`${d.metric.padEnd(12)} ${fmtValue(d.metric, d.mean_a).padStart(7)} ${fmtValue(d.metric, d.mean_b).padStart(7)} ${fmtDelta(d.metric, d.delta).padStart(7)}  ${ci.padEnd(20)} ${d.n}`);
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
