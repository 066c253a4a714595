import { recallMetric } from "@ragmeter/core/domain/metrics/recall";
import { type MetricDef, type MetricTable, metricDef, metricLabel, metricMax, metricNames, metricTable } from "@ragmeter/core/domain/metricTable";
import { LENGTH_BIAS_FLAG } from "@ragmeter/core/judges/analysis";
import { judgeLabel, unmeteredSummary } from "@ragmeter/core/judges/backends";
import type { Aggregate } from "../../runs/aggregate.js";
import type { PairedDelta } from "../../runs/paired.js";
import type { EvalOutcome } from "../../runs/summary.js";

/** Display of a metric value: relevance as `x.x/4`, others with two decimals; `—` for null. */
export function fmtValue(metric: string, v: number | null, table: MetricTable = metricTable): string {
  if (v === null) return "—";
  const max = metricMax(metric, table);
  return max !== 1 ? `${v.toFixed(1)}/${max}` : v.toFixed(2);
}

/** Signed delta with the metric's precision. */
export function fmtDelta(metric: string, d: number | null, table: MetricTable = metricTable): string {
  if (d === null) return "—";
  const s = metricMax(metric, table) !== 1 ? d.toFixed(1) : d.toFixed(2);
  return d >= 0 && !s.startsWith("-") ? `+${s}` : s;
}

/** k of the recall in the "moved most" list. */
const MOVED_K = 5;

function line(metric: string, value: number | null, n: number, delta: PairedDelta | null, table: MetricTable): string {
  const label = metricLabel(metric, table).padEnd(12);
  const v = fmtValue(metric, value, table).padEnd(5);
  if (delta === null) return `${label} ${v} (n=${n})`;
  if (delta.n === 0) return `${label} ${v} (n=${n}; no question scored ok in both this and the previous run)`;
  return `${label} ${v} (was ${fmtValue(metric, delta.mean_a, table)}, ${fmtDelta(metric, delta.delta, table)}, n=${delta.n})`;
}

/**
 * The by-tag table: the metrics of `names` the table marks `byTag` (recall at every `--k` asked, …),
 * each cell `value·n`; every column as wide as its widest cell plus two spaces, so cells never collide.
 */
export function tagTable(byTag: Readonly<Record<string, Aggregate>>, names: readonly string[], table: MetricTable = metricTable): string[] {
  const cols = names.filter((n) => metricDef(n, table)?.byTag === true);
  const rows = Object.entries(byTag).map(([tag, a]) => [tag, ...cols.map((c) => `${fmtValue(c, a.metrics[c] ?? null, table)}${a.n[c] ? `·${a.n[c]}` : ""}`)]);
  const head = ["tag", ...cols.map((c) => metricLabel(c, table))];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const render = (cells: readonly string[]): string => `  ${cells.map((cell, i) => (i === 0 ? cell.padEnd(width[0] ?? 0) : `  ${cell.padStart(width[i] ?? 0)}`)).join("")}`;
  return [render(head), ...rows.map(render)];
}

/**
 * The text summary of an evaluation run: metric lines with the paired delta against the previous
 * run (design §5), breakdown by tag, the questions that moved most, counts by status, warnings and
 * where the history is stored.
 */
export function formatSummary(o: EvalOutcome, storeLocation: string, top = 5, table: MetricTable = metricTable): string {
  const ks = o.run.ks;
  // An optional metric (a task not every judge has) is shown when some question was judged for it.
  const judged = (m: MetricDef) =>
    o.questions.some((q) => {
      const s = q.metrics.status(m.name);
      return s !== "not_applicable" && s !== "target_error";
    });
  const names = metricNames(ks, judged, table);
  const deltas = new Map(o.previous.run ? o.previous.deltas.map((d) => [d.metric, d] as const) : []);
  const out: string[] = [];
  out.push(
    `run ${o.run.run_id} · pipeline ${o.run.pipeline_version} · ${o.questions.length} questions · judge ${judgeLabel(o.run.judge_kind, o.run.judge_model)} (prompt ${o.run.judge_prompt_version})`,
  );
  out.push(
    o.previous.run
      ? `compared with run ${o.previous.run.run_id} (pipeline ${o.previous.run.pipeline_version}), paired over questions scored ok in both`
      : `no comparable run: ${o.previous.why}`,
  );
  out.push("");
  for (const m of names) out.push(line(m, o.aggregate.metrics[m] ?? null, o.aggregate.n[m] ?? 0, o.previous.run ? (deltas.get(m) ?? null) : null, table));
  if (o.byMode) out.push(...modeLines(o.byMode, ks));
  out.push("");
  if (Object.keys(o.byTag).length === 0) out.push("by tag: none (no item has tags)");
  else {
    out.push("by tag (value·n)");
    out.push(...tagTable(o.byTag, names, table));
  }
  if (o.previous.run) out.push(...movedLines(o, deltas, top, table));
  out.push("");
  out.push(...statusLines(o, names, table));
  out.push("");
  out.push(...formatJudgeReport(o));
  for (const w of o.warnings) out.push(`warning: ${w}`);
  out.push("");
  out.push(`history: ${storeLocation}`);
  return out.join("\n");
}

/** A question-metric pair that moved against the previous run (`d`: the delta as a share of the metric's maximum). */
interface Move {
  readonly id: string;
  readonly metric: string;
  readonly a: number;
  readonly b: number;
  readonly d: number;
}

/** The headline metrics' paired differences that are not zero, largest first. */
function movesOf(deltas: ReadonlyMap<string, PairedDelta>, table: MetricTable): Move[] {
  const moves: Move[] = [];
  for (const m of table([MOVED_K])
    .filter((d) => d.headline)
    .map((d) => d.name)) {
    const d = deltas.get(m);
    if (!d) continue;
    for (const x of d.differences) if (x.delta !== 0) moves.push({ id: x.golden_id, metric: m, a: x.a, b: x.b, d: x.delta / metricMax(m, table) });
  }
  return moves.sort((x, y) => Math.abs(y.d) - Math.abs(x.d) || x.id.localeCompare(y.id));
}

/** The "moved most" section: the questions that got worse (`top` of them) and better (half as many), each by size. */
function movedLines(o: EvalOutcome, deltas: ReadonlyMap<string, PairedDelta>, top: number, table: MetricTable): string[] {
  const moves = movesOf(deltas, table);
  const out = ["", `moved most (vs previous run; ${moves.filter((m) => m.d < 0).length} question-metric pairs got worse, ${moves.filter((m) => m.d > 0).length} better)`];
  if (moves.length === 0) out.push("  nothing moved");
  // Regressions first (what a reviewer opens first), then improvements, each by size.
  const shown = [...moves.filter((m) => m.d < 0).slice(0, top), ...moves.filter((m) => m.d > 0).slice(0, Math.max(1, Math.floor(top / 2)))];
  for (const mv of shown) {
    const q = o.questions.find((r) => r.golden_id === mv.id);
    out.push(
      `  ${mv.d < 0 ? "worse " : "better"} ${mv.id.padEnd(6)} ${metricLabel(mv.metric, table).padEnd(10)} ${fmtValue(mv.metric, mv.a, table)} → ${fmtValue(mv.metric, mv.b, table)}  ${q ? JSON.stringify(q.question.slice(0, 60)) : ""}`,
    );
  }
  return out;
}

/** The "counts by status" section: statuses per metric, `judge_error` reasons (eight shown) and the questions not measured (ten shown). */
function statusLines(o: EvalOutcome, names: readonly string[], table: MetricTable): string[] {
  const out = ["counts by status"];
  for (const m of names) {
    const c = o.aggregate.counts[m] ?? {};
    out.push(
      `  ${metricLabel(m, table).padEnd(12)} ${Object.entries(c)
        .sort()
        .map(([s, n]) => `${s} ${n}`)
        .join(", ")}`,
    );
  }
  const judgeErrors = judgeErrorReasons(o);
  if (judgeErrors.length > 0) out.push("  judge_error by reason");
  for (const [reason, n] of judgeErrors.slice(0, 8)) out.push(`    ${String(n).padStart(4)}  ${reason}`);
  if (judgeErrors.length > 8) out.push(`    … and ${judgeErrors.length - 8} more reasons`);
  const errs = o.failures;
  if (errs.length > 0) out.push(`  not measured: ${errs.length} of ${o.questions.length} questions`);
  for (const q of errs.slice(0, 10)) out.push(`  ${q.golden_id}: ${q.status} — ${q.reason}`);
  if (errs.length > 10) out.push(`  … and ${errs.length - 10} more`);
  return out;
}

/**
 * The match-mode lines of the summary (issue 12): items per mode used, and recall@k by mode.
 */
function modeLines(byMode: NonNullable<EvalOutcome["byMode"]>, ks: readonly number[]): string[] {
  const used = Object.entries(byMode).filter(([, r]) => r.items > 0);
  const out = [`match modes: ${used.map(([m, r]) => `${m} ${r.items}`).join(", ")}`];
  for (const [mode, r] of used) {
    if (mode === "unanswerable") continue;
    const at = (k: number) => recallMetric(k).name;
    out.push(`  ${mode.padEnd(12)} ${ks.map((k) => `${at(k)} ${fmtValue(at(k), r.recall[at(k)] ?? null)}`).join("  ")} (n=${r.n})`);
  }
  return out;
}

/** `judge_error` judgments of the run (grounding, relevance, reference facts) counted by metric and reason, most frequent first. */
export function judgeErrorReasons(o: EvalOutcome): [string, number][] {
  const counts = new Map<string, number>();
  for (const q of o.questions) for (const key of q.judge_errors) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

const int = (n: number) => n.toLocaleString("en-US");
const usd = (x: number) => `$${x > 0 && x < 0.0001 ? x.toPrecision(2) : x.toFixed(4)}`;
const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
const signed = (x: number | null) => (x === null ? "—" : `${x >= 0 ? "+" : ""}${x.toFixed(2)}`);

/**
 * The judge part of the summary: calls (cached, not sampled), tokens and cost, length bias,
 * last calibration of the judge in use, and judge variance when the run repeated its judges.
 */
function formatJudgeReport(o: EvalOutcome): string[] {
  const r = o.judgeReport;
  const unmetered = unmeteredSummary(o.run.judge_kind);
  const out = unmetered !== undefined ? [`judge: ${unmetered}, cost $0`] : judgeCallLines(o);
  if (r.length_bias.length > 0) out.push(lengthBiasLine(r.length_bias));
  out.push(calibrationLine(o));
  if (r.variance.length > 0) out.push(...varianceLines(r.variance, r.repeat));
  return out;
}

type JudgeReport = EvalOutcome["judgeReport"];

/** A metered judge's calls, cache, tokens and cost, what was decided before judging, and the --max-cost line. */
function judgeCallLines(o: EvalOutcome): string[] {
  const r = o.judgeReport;
  const s = r.stats;
  const cost =
    s.cost_usd === null
      ? `cost unknown (no price for "${o.run.judge_model}" in RAGMETER_PRICES)`
      : `cost ${usd(s.cost_usd)}${s.price ? ` (${o.run.judge_model}: $${s.price.input_per_1m}/$${s.price.output_per_1m} per 1M tokens in/out)` : ""}`;
  const out = [
    `judge: ${int(s.calls)} calls, ${int(s.cached)} cached${r.cache ? "" : ` (cache off${r.repeat > 1 ? ": --repeat" : ""})`}, ${int(s.not_sampled)} not sampled · tokens in ${int(s.input_tokens)} / out ${int(s.output_tokens)} · ${cost}`,
  ];
  const skipped = Object.entries(r.skipped).filter(([, n]) => n > 0);
  if (skipped.length > 0)
    out.push(
      `  not called (decided before judging): ${skipped
        .sort()
        .map(([status, n]) => `${status} ${int(n)}`)
        .join(", ")}`,
    );
  if (s.max_cost_usd !== null) out.push(`  --max-cost ${usd(s.max_cost_usd)}${s.not_sampled > 0 ? ` reached: ${s.not_sampled} judgments not_sampled` : " not reached"}`);
  return out;
}

/** The length-bias line: Spearman ρ per metric, flagged when one reaches {@link LENGTH_BIAS_FLAG}. */
function lengthBiasLine(bias: JudgeReport["length_bias"]): string {
  const flagged = bias.some((b) => b.spearman !== null && Math.abs(b.spearman) >= LENGTH_BIAS_FLAG);
  return `length bias (Spearman ρ, answer length vs score): ${bias.map((b) => `${metricLabel(b.metric)} ${signed(b.spearman)} (n=${b.n})`).join(" · ")}${flagged ? ` — |ρ| ≥ ${LENGTH_BIAS_FLAG}: check that longer answers are really better` : ""}`;
}

/** The calibration line: the last one of the judge in use, the one before its prompt changed, or none. */
function calibrationLine(o: EvalOutcome): string {
  const r = o.judgeReport;
  const c = r.calibration;
  if (c) {
    return `calibration: last for this judge ${c.created_at.slice(0, 10)} (${c.calibration_id}, run ${c.source_run_id}): claims ${pct(c.claim_agreement)} agreement, κ ${c.claim_kappa === null ? "—" : c.claim_kappa.toFixed(2)} (n=${c.n_claims}); relevance ${pct(c.relevance_agreement)}, quadratic-weighted κ ${c.relevance_qwk === null ? "—" : c.relevance_qwk.toFixed(2)} (n=${c.n_relevance})`;
  }
  const b = r.calibration_before_change;
  if (b) {
    return `calibration: not calibrated since prompt ${b.judge_prompt_version}${b.judge_model !== o.run.judge_model ? ` (model ${b.judge_model})` : ""}: the judge in use (${judgeLabel(o.run.judge_kind, o.run.judge_model)}, prompt ${o.run.judge_prompt_version}) has none; that calibration ${b.created_at.slice(0, 10)} (${b.calibration_id}) had claims ${pct(b.claim_agreement)} agreement, relevance ${pct(b.relevance_agreement)}; run \`npx ragmeter calibrate sample --run ${o.run.run_id}\``;
  }
  return `calibration: none for this judge (${judgeLabel(o.run.judge_kind, o.run.judge_model)}, prompt ${o.run.judge_prompt_version}); run \`npx ragmeter calibrate sample --run ${o.run.run_id}\``;
}

/** The judge-variance section of a run that repeated its judges: sd and flipped questions per metric. */
function varianceLines(variance: JudgeReport["variance"], repeat: number): string[] {
  const out = [`judge variance over ${repeat} repeats (sd pooled within questions; flipped = questions whose repeats disagree)`];
  for (const v of variance) {
    const ids = v.flipped_ids.length > 0 ? `: ${v.flipped_ids.slice(0, 8).join(", ")}${v.flipped_ids.length > 8 ? ", …" : ""}` : "";
    out.push(
      `  ${metricLabel(v.metric).padEnd(12)} mean ${v.mean === null ? "—" : fmtValue(v.metric, v.mean)}  sd ${v.sd === null ? "—" : v.sd.toFixed(2)}  flipped ${pct(v.flipped)} (${v.flipped_ids.length} of ${v.n})${ids}`,
    );
  }
  return out;
}
