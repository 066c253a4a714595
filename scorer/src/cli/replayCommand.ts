import { writeFile } from "node:fs/promises";
import { JUDGED_METRICS, metricMax, metricNames, qualityDelta } from "@ragmeter/core/domain/metricTable";
import { judgeLabel } from "@ragmeter/core/judges/backends";
import type { Command } from "commander";
import { evaluateGate, type GateResult, parseGate } from "../runs/gate.js";
import { type ReplayOutcome, runReplay } from "../runs/replay/replay.js";
import { parseReplaySource } from "../runs/replay/select.js";
import { runSpec } from "../runs/spec.js";
import { httpTarget } from "../runs/target.js";
import { type CommandContext, httpUrl, intArg, kOption, nonEmpty } from "./args.js";
import { commandConfig, type Io, judgeFor, withEvaluationExport, withStore } from "./context.js";
import { assertWritable, EXIT } from "./evalCommand.js";
import { deltaTable } from "./format/compare.js";
import { fmtValue } from "./format/text.js";
import { createProgress } from "./progress.js";

/** Flags of `ragmeter replay`. */
export interface ReplayFlags {
  readonly from: string;
  readonly target: string;
  readonly pipelineVersion: string;
  readonly sample?: number;
  readonly concurrency: number;
  readonly k: readonly number[];
  readonly json?: string;
  readonly home?: string;
  readonly cache?: boolean;
  /** `--fail-on` rules, as for `compare`: exit 1 when one fails. */
  readonly failOn?: string;
}

const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);

/** Text report of a replay: paired per-metric deltas with interval, retrieval overlap, questions that moved. */
export function formatReplay(r: ReplayOutcome, top = 10): string {
  const o = r.outcome;
  const out: string[] = [];
  out.push(`replay run ${o.run.run_id} · pipeline ${o.run.pipeline_version} · ${r.captured.length} captured questions (${o.run.golden_set_path})`);
  const olds = [...new Set(r.captured.map((c) => c.pipeline_version || "?"))].join(", ");
  out.push(`original pipeline ${olds} → ${o.run.pipeline_version}; both sides scored by judge ${judgeLabel(o.run.judge_kind, o.run.judge_model)}, paired per question`);
  out.push("");
  out.push(
    ...deltaTable(
      r.deltas.filter((d) => d.n > 0),
      "old",
      "new",
    ),
  );
  out.push("");
  out.push(
    `retrieved documents, old vs new: Jaccard ${fmtValue("", mean(r.overlap.map((x) => x.jaccard)))} · rank-biased overlap (p=0.9) ${fmtValue("", mean(r.overlap.map((x) => x.rbo)))} (mean over ${r.overlap.length} questions)`,
  );
  const worst = regressedMost(r, top);
  out.push("");
  out.push("regressed most (golden id or question, grounding / relevance old → new, overlap)");
  if (worst.length === 0) out.push("  none");
  for (const key of worst) out.push(regressionRow(r, key));
  const errs = o.questions.filter((q) => q.status !== "ok").length;
  if (errs > 0) out.push(`target errors: ${errs} (counted, never averaged)`);
  return out.join("\n");
}

/** The differences of one metric, per question. */
const differencesOf = (r: ReplayOutcome, metric: string) => r.deltas.find((d) => d.metric === metric)?.differences ?? [];

/** The metrics a replay's regressions are ranked by and shown with: the judged headline metrics (grounding, relevance). */
const REGRESSION_METRICS = JUDGED_METRICS.filter((m) => m.headline).map((m) => m.name);

/** The keys of the `top` questions that fell most on any {@link REGRESSION_METRICS} (each scaled to 0–1), worst first. */
function regressedMost(r: ReplayOutcome, top: number): string[] {
  const moved = REGRESSION_METRICS.flatMap((name) => differencesOf(r, name).map((x) => ({ ...x, delta: qualityDelta(name, x.delta) / metricMax(name) })));
  const byKey = new Map<string, number>();
  for (const m of moved) byKey.set(m.golden_id, Math.min(byKey.get(m.golden_id) ?? 0, m.delta));
  return [...byKey]
    .filter(([, d]) => d < 0)
    .sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))
    .slice(0, top)
    .map(([key]) => key);
}

/** A regressed question's row: its name, each of {@link REGRESSION_METRICS} old → new, retrieval overlap. */
function regressionRow(r: ReplayOutcome, key: string): string {
  const moves = REGRESSION_METRICS.map((name) => {
    const d = differencesOf(r, name).find((x) => x.golden_id === key);
    return d ? `${fmtValue(name, d.a)}→${fmtValue(name, d.b)}` : "—";
  });
  const ov = r.overlap.find((x) => x.key === key);
  const name = questionName(
    r.captured.find((x) => x.trace_id === key),
    key,
  );
  return `  ${name}  ${moves.join("  ")}  J ${ov ? ov.jaccard.toFixed(2) : "—"}`;
}

/** A captured golden question is named by its golden id, live traffic by its question (shortened); an unknown key by its start. */
function questionName(c: ReplayOutcome["captured"][number] | undefined, key: string): string {
  if (c === undefined) return key.slice(0, 16);
  return c.golden_id !== "" ? c.golden_id : JSON.stringify(c.question.length > 60 ? `${c.question.slice(0, 59)}…` : c.question);
}

/** `ragmeter replay`: captured questions → new pipeline version, both sides scored, paired. Returns the exit code. */
export async function replayCommand(io: Io, flags: ReplayFlags): Promise<number> {
  const from = parseReplaySource(flags.from, Date.now());
  // The gate is parsed before any question is sent: a typo must not cost a replay.
  const rules = flags.failOn !== undefined ? parseGate(flags.failOn, metricNames(flags.k)) : [];
  if (flags.json !== undefined) await assertWritable(flags.json, "--json");
  const config = commandConfig(io, flags);
  const target = httpTarget(flags.target, config.targetTimeoutMs);
  const spec = runSpec({
    source: { kind: "replay", from: flags.from },
    target: target.description,
    pipelineVersion: flags.pipelineVersion,
    ks: [...flags.k],
    cache: flags.cache ?? true,
    prices: config.prices,
  });
  return withStore(
    io,
    flags,
    async (store) => {
      const progress = createProgress(io.interactive, `replay ${flags.pipelineVersion}`);
      let r: ReplayOutcome;
      const judge = await judgeFor(config);
      try {
        r = await withEvaluationExport(
          config,
          "ragmeter-replay",
          (m) => io.err(`warning: ${m}`),
          (evaluations) =>
            runReplay({
              spec,
              evaluations,
              store,
              judge,
              target,
              from,
              sample: flags.sample ?? null,
              concurrency: flags.concurrency,
              onProgress: (d, t) => progress.update(d, t),
            }),
        );
      } finally {
        progress.stop();
      }
      io.out(formatReplay(r));
      const gate: GateResult[] = evaluateGate(rules, r.deltas);
      if (gate.length > 0) {
        io.out("");
        io.out("gate");
        for (const g of gate) io.out(`  ${g.failed ? "FAIL" : "pass"} ${g.why}`);
      }
      io.out(`history: ${store.location}`);
      if (flags.json) {
        await writeFile(
          flags.json,
          `${JSON.stringify(
            {
              run_id: r.outcome.run.run_id,
              pipeline_version: r.outcome.run.pipeline_version,
              from: flags.from,
              metrics: Object.fromEntries(
                r.deltas.map((d) => [d.metric, { n: d.n, old: d.mean_a, new: d.mean_b, delta: d.delta, ci: d.interval ? [d.interval.lower, d.interval.upper] : null }]),
              ),
              overlap: { jaccard: mean(r.overlap.map((x) => x.jaccard)), rbo: mean(r.overlap.map((x) => x.rbo)) },
              gate: gate.map((g) => ({ rule: `${g.rule.metric}<${g.rule.threshold}`, failed: g.failed, why: g.why })),
              questions: r.overlap.map((x) => ({
                trace_id: x.key,
                golden_id: r.captured.find((c) => c.trace_id === x.key)?.golden_id || null,
                question: x.question,
                jaccard: x.jaccard,
                rbo: x.rbo,
                ...Object.fromEntries(r.deltas.map((d) => [d.metric, d.differences.find((y) => y.golden_id === x.key) ?? null])),
              })),
            },
            null,
            2,
          )}\n`,
        );
      }
      return gate.some((g) => g.failed) ? EXIT.gate : EXIT.done;
    },
    { config },
  );
}

/** Registers `ragmeter replay`. */
export function registerReplayCommand(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  program
    .command("replay")
    .description("send the questions of captured interactions to a new pipeline version; score both sides; paired deltas and retrieval overlap")
    .requiredOption("--from <run|filter>", 'a run id, or filters like "since=24h,service=rag-api,pipeline=v7,source=live"')
    .requiredOption("--target <url>", "the new version's target URL (POST {question} → {answer, contexts})", httpUrl)
    .requiredOption("--pipeline-version <v>", "pipeline version of the new side", nonEmpty)
    .option("--sample <n>", "replay at most n interactions (deterministic subset)", intArg(1))
    .option("--concurrency <n>", "questions in flight at once", intArg(1, 256), 4)
    .addOption(kOption())
    .option("--json <out>", "write the replay report as JSON")
    .option("--no-cache", "do not use the judge cache")
    .option("--fail-on <rules>", 'gate as for compare, e.g. "grounding<-0.03,recall@5<-0.05": exit 1 when a rule fails')
    .addOption(home())
    .action(
      async (o: {
        from: string;
        target: string;
        pipelineVersion: string;
        sample?: number;
        concurrency: number;
        k: number[];
        json?: string;
        cache: boolean;
        home?: string;
        failOn?: string;
      }) => {
        result.code = await replayCommand(io, o);
      },
    );
}
