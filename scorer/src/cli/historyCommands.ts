import { writeFile } from "node:fs/promises";
import { displayRank, isWorse, metricLabel, metricNames, metricTable } from "@ragmeter/core/domain/metricTable";
import type { RunRecord } from "@ragmeter/store/runs";
import type { Command } from "commander";
import { stringify } from "csv-stringify/sync";
import { BOOTSTRAP_RESAMPLES, DEFAULT_SEED } from "../runs/bootstrap.js";
import type { Comparison } from "../runs/compare.js";
import { evaluateGate, parseGate } from "../runs/gate.js";
import { readRunSummary, type StoredSummary } from "../runs/runSummary.js";
import { withReader } from "./api/withReader.js";
import { type CommandContext, intArg } from "./args.js";
import type { Io } from "./context.js";
import { assertWritable, EXIT } from "./evalCommand.js";
import { formatComparison } from "./format/compare.js";
import { fmtValue } from "./format/text.js";

/** Metrics object of a stored run (from its summary), `{}` while it runs or when its summary is unreadable ({@link summaryNote} says why). */
function runMetrics(summary: StoredSummary): Record<string, number | null> {
  return summary.state === "summary" ? summary.summary.metrics : {};
}

/** What a run's row says after its metrics: why it was aborted, or why its summary cannot be read; null otherwise. */
function summaryNote(summary: StoredSummary): string | null {
  return summary.state === "aborted" || summary.state === "unreadable" ? summary.reason : null;
}

/** `ragmeter runs [--json]`: the run history, newest first (from the store, or its owner's read API). */
export async function runsCommand(io: Io, flags: { json?: boolean; home?: string }): Promise<number> {
  return withReader(io, flags, async (reader) => {
    const runs = await reader.runs();
    const location = reader.location;
    if (flags.json) {
      io.out(JSON.stringify(runs.map(runJson), null, 2));
      return EXIT.done;
    }
    if (runs.length === 0) {
      io.out(`no runs yet in ${location}`);
      return EXIT.done;
    }
    const head = RUN_COLUMNS.map((c) => c.label.padStart(c.width)).join(" ");
    io.out(`${"run".padEnd(30)} ${"started (UTC)".padEnd(20)} ${"pipeline".padEnd(14)} ${"golden".padEnd(8)} ${"judge".padEnd(10)} ${head}`);
    for (const r of runs) io.out(runRow(r));
    io.out(`history: ${location}`);
    return EXIT.done;
  });
}

/** One run of `ragmeter runs --json`. */
function runJson(r: RunRecord) {
  const summary = readRunSummary(r);
  return {
    run_id: r.run_id,
    started_at: r.started_at,
    status: r.status,
    pipeline_version: r.pipeline_version,
    golden_set_sha256: r.golden_set_hash,
    judge: { kind: r.judge_kind, model: r.judge_model, prompt_version: r.judge_prompt_version },
    metrics: runMetrics(summary),
    ...(r.status === "aborted" ? { aborted_reason: summary.state === "aborted" ? summary.reason : "" } : {}),
    ...(summary.state === "unreadable" ? { summary_error: summary.reason } : {}),
  };
}

/** The metric columns of `ragmeter runs`: the table's headline metrics, per-k ones at k = 5. */
const RUN_COLUMNS = metricTable([5])
  .filter((m) => m.headline)
  .map((m) => {
    const label = metricLabel(m.name);
    return { name: m.name, label, width: Math.max(6, label.length) };
  });

/** One run's row of `ragmeter runs`: its headline metrics, and its status when not completed. */
function runRow(r: RunRecord): string {
  const summary = readRunSummary(r);
  const m = runMetrics(summary);
  const note = summaryNote(summary);
  const status = r.status === "completed" && note === null ? "" : `  (${r.status}${note === null ? "" : `: ${note}`})`;
  return `${r.run_id.padEnd(30)} ${r.started_at.slice(0, 19).replace("T", " ").padEnd(20)} ${r.pipeline_version.slice(0, 14).padEnd(14)} ${r.golden_set_hash.slice(0, 8)} ${r.judge_kind.padEnd(10)} ${RUN_COLUMNS.map((c) => fmtValue(c.name, m[c.name] ?? null).padStart(c.width)).join(" ")}${status}`;
}

/** `ragmeter compare RUN_A RUN_B`: paired deltas with bootstrap intervals; `--fail-on` gate. */
export async function compareCommand(
  io: Io,
  runA: string,
  runB: string,
  flags: { failOn?: string; seed: number; resamples: number; json?: boolean; home?: string },
): Promise<number> {
  return withReader(io, flags, async (reader) => {
    const a = await reader.run(runA);
    const b = await reader.run(runB);
    if (!a || !b) {
      io.err(`ragmeter: unknown run id: ${!a ? runA : runB} (see \`ragmeter runs\`)`);
      return EXIT.usage;
    }
    const known = metricNames([...new Set([...a.ks, ...b.ks])]);
    const rules = flags.failOn !== undefined ? parseGate(flags.failOn, known) : [];
    const c = await reader.compare(a.run_id, b.run_id, { seed: flags.seed, resamples: flags.resamples });
    if (!c) {
      io.err(`unknown run id: ${runA} or ${runB} (see \`ragmeter runs\`)`);
      return EXIT.usage;
    }
    const gate = evaluateGate(rules, c.deltas);
    if (flags.json) io.out(JSON.stringify(comparisonJson(a.run_id, b.run_id, c, gate), null, 2));
    else io.out(comparisonText(c, gate));
    return gate.some((g) => g.failed) ? EXIT.gate : EXIT.done;
  });
}

type GateResult = ReturnType<typeof evaluateGate>[number];

/** `ragmeter compare --json`: per metric n, means, delta, interval, unpaired and regressed questions; the gate; warnings. */
function comparisonJson(runA: string, runB: string, c: Comparison, gate: readonly GateResult[]) {
  return {
    run_a: runA,
    run_b: runB,
    seed: c.seed,
    resamples: c.resamples,
    metrics: Object.fromEntries(
      c.deltas.map((d) => [
        d.metric,
        {
          n: d.n,
          mean_a: d.mean_a,
          mean_b: d.mean_b,
          delta: d.delta,
          ci: d.interval ? [d.interval.lower, d.interval.upper] : null,
          unpaired: d.unpaired,
          regressed: d.differences.filter((x) => isWorse(d.metric, x.delta)).map((x) => x.golden_id),
        },
      ]),
    ),
    gate: gate.map((g) => ({ rule: `${g.rule.metric}<${g.rule.threshold}`, failed: g.failed, why: g.why })),
    warnings: c.warnings,
  };
}

/** `ragmeter compare`'s text: the comparison, then the gate's rules when `--fail-on` gave some. */
function comparisonText(c: Comparison, gate: readonly GateResult[]): string {
  const lines = [formatComparison(c)];
  if (gate.length > 0) lines.push("", "gate", ...gate.map((g) => `  ${g.failed ? "FAIL" : "pass"} ${g.why}`));
  return lines.join("\n");
}

/** `ragmeter export --csv [--out FILE]`: the run history as CSV (date, pipeline version, golden set, judge, metrics). */
export async function exportCommand(io: Io, flags: { csv?: boolean; out?: string; home?: string }): Promise<number> {
  if (!flags.csv) {
    io.err("ragmeter: export: choose a format (--csv) (run `ragmeter export --help` for usage)");
    return EXIT.usage;
  }
  if (flags.out !== undefined) await assertWritable(flags.out, "--out");
  return withReader(io, flags, async (reader) => {
    const runs = (await reader.runs()).filter((r) => r.status === "completed");
    const summaries = new Map(runs.map((r) => [r.run_id, readRunSummary(r)] as const));
    for (const [id, s] of summaries) if (s.state === "unreadable") io.err(`warning: run ${id}: ${s.reason}; its metrics are left empty`);
    const metricsOf = (r: RunRecord) => runMetrics(summaries.get(r.run_id) ?? { state: "running" });
    // Display order: recall@k by k, then MRR, the judged metrics, key facts, abstention.
    const names = [...new Set(runs.flatMap((r) => Object.keys(metricsOf(r))))].sort((a, b) => displayRank(a) - displayRank(b) || a.localeCompare(b));
    const rows = runs.map((r) => {
      const m = metricsOf(r);
      return [
        r.started_at,
        r.run_id,
        r.pipeline_version,
        r.golden_set_hash,
        r.golden_set_path,
        r.judge_kind,
        r.judge_model,
        r.judge_prompt_version,
        ...names.map((n) => m[n] ?? ""),
      ];
    });
    const csv = stringify([
      ["started_at", "run_id", "pipeline_version", "golden_set_sha256", "golden_set_path", "judge_kind", "judge_model", "judge_prompt_version", ...names],
      ...rows,
    ]);
    if (flags.out) {
      await writeFile(flags.out, csv);
      io.err(`wrote ${runs.length} runs to ${flags.out}`);
    } else io.out(csv.trimEnd());
    return EXIT.done;
  });
}

/** Registers `ragmeter runs`, `compare` and `export`. */
export function registerHistoryCommands(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  program
    .command("runs")
    .description("list the run history, newest first")
    .option("--json", "print a JSON array")
    .addOption(home())
    .action(async (o: { json?: boolean; home?: string }) => {
      result.code = await runsCommand(io, o);
    });

  program
    .command("compare")
    .description("paired deltas per metric between two runs, with 95% bootstrap intervals; --fail-on gates CI")
    .argument("<run_a>", "baseline run id")
    .argument("<run_b>", "candidate run id")
    .option("--fail-on <rules>", 'gate, e.g. "grounding<-0.03,recall@5<-0.05"')
    .option("--seed <n>", "bootstrap seed", intArg(0, 2 ** 31 - 1), DEFAULT_SEED)
    .option("--resamples <n>", "bootstrap resamples", intArg(100, 1_000_000), BOOTSTRAP_RESAMPLES)
    .option("--json", "print JSON")
    .addOption(home())
    .action(async (a: string, b: string, o: { failOn?: string; seed: number; resamples: number; json?: boolean; home?: string }) => {
      result.code = await compareCommand(io, a, b, o);
    });

  program
    .command("export")
    .description("write the run history (date, pipeline version, golden set, judge, metrics)")
    .option("--csv", "CSV format")
    .option("--out <file>", "write to a file instead of stdout")
    .addOption(home())
    .action(async (o: { csv?: boolean; out?: string; home?: string }) => {
      result.code = await exportCommand(io, o);
    });
}
