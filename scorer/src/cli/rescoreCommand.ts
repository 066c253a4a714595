import type { TraceScore } from "@ragmeter/store/rescore";
import { loadStreamConfig } from "@ragmeter/stream/config";
import { passBatchSize } from "@ragmeter/stream/loop";
import type { Command } from "commander";
import { type RescoreReport, rescore } from "../runs/rescore.js";
import { type CommandContext, kOption } from "./args.js";
import { type Io, judgeFor, withStore } from "./context.js";
import { EXIT, UsageError } from "./evalCommand.js";
import { beforeArg } from "./forgetCommand.js";

/** Flags of `ragmeter rescore` as commander parses them. */
export interface RescoreFlags {
  readonly service?: string;
  readonly since?: Date;
  readonly dryRun?: boolean;
  readonly json?: boolean;
  readonly k?: readonly number[];
  readonly home?: string;
}

const show = (s: TraceScore | undefined): string => (s === undefined ? "—" : s.status === "ok" ? `${Number(s.value?.toFixed(3))}` : s.status);

/** The lines `rescore` prints: one per re-read trace, then the paired means per metric. */
export function formatRescore(r: RescoreReport, where: string): string[] {
  const lines = [
    `${r.dry_run ? "rescore --dry-run: would re-score" : "re-scored"} ${r.changed.length} of ${r.traces} trace(s) of service "${r.service}" since ${r.since} in ${where} (their reading changed)${r.without_spans > 0 ? `; ${r.without_spans} without stored spans, left as they were` : ""}`,
  ];
  const metrics = [...new Set(r.changed.flatMap((c) => [...c.before, ...(c.after ?? [])].map((s) => s.metric)))].sort();
  for (const c of r.changed) {
    const cells = metrics.map((m) => {
      const b = c.before.find((s) => s.metric === m && s.judge_prompt_version === r.judge_prompt_version) ?? c.before.find((s) => s.metric === m);
      return c.after === null ? `${m} ${show(b)}` : `${m} ${show(b)} → ${show(c.after.find((s) => s.metric === m))}`;
    });
    lines.push(`  ${c.trace_id}  ${c.fields.join(", ")}  ${cells.join("  ")}`);
  }
  if (r.changed.length > 0 && !r.dry_run) {
    for (const m of metrics) {
      const pairs = r.changed
        .map((c) => [
          c.before.find((s) => s.metric === m && s.judge_prompt_version === r.judge_prompt_version) ?? c.before.find((s) => s.metric === m),
          c.after?.find((s) => s.metric === m),
        ])
        .filter((p): p is [TraceScore, TraceScore] => p[0]?.status === "ok" && p[1]?.status === "ok");
      const mean = (xs: readonly number[]): string => (xs.length === 0 ? "—" : (xs.reduce((a, x) => a + x, 0) / xs.length).toFixed(3));
      lines.push(`  ${m}: ok before and after ${pairs.length}; mean ${mean(pairs.map((p) => p[0].value ?? 0))} → ${mean(pairs.map((p) => p[1].value ?? 0))}`);
    }
  }
  if (r.dry_run) lines.push("nothing changed (--dry-run)");
  return lines;
}

/**
 * `ragmeter rescore`: re-reads the stored spans of a service's traces since a date with today's
 * readers and re-scores those whose reading changed (issue 28), with the judge the scorer would use.
 * Opens the store itself: on an embedded store owned by `serve`/`scorer` it fails "store in use".
 */
export async function rescoreCommand(io: Io, flags: RescoreFlags): Promise<number> {
  if (flags.service === undefined || flags.service.trim() === "") throw new UsageError("rescore: --service NAME is required");
  if (flags.since === undefined) throw new UsageError("rescore: --since DATE is required (UTC, e.g. 2026-01-31)");
  const service = flags.service;
  const since = flags.since;
  const stream = loadStreamConfig(io.env, {});
  return withStore(io, flags, async (store, config) => {
    const judge = await judgeFor(config);
    const settings = {
      judge,
      ks: flags.k ?? [1, 3, 5, 10],
      quietMs: stream.quietMs,
      liveSampleRate: stream.liveSampleRate,
      ...(stream.liveSampleRates !== undefined ? { liveSampleRates: stream.liveSampleRates } : {}),
      concurrency: stream.concurrency,
      batchSize: passBatchSize(judge),
      evaluations: null,
    };
    const report = await rescore(store, settings, { service, since, dryRun: flags.dryRun === true });
    if (flags.json) io.out(JSON.stringify(report, null, 2));
    else for (const line of formatRescore(report, store.location)) io.out(line);
    if (report.traces === 0) io.err(`ragmeter: rescore: no stored trace of service "${service}" since ${since.toISOString()} (the service name is matched exactly)`);
    return EXIT.done;
  });
}

/** Registers `ragmeter rescore`. */
export function registerRescoreCommand(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  program
    .command("rescore")
    .description("re-read stored spans with today's readers and re-score the traces whose reading changed (one score per trace and metric)")
    .option("--service <name>", "traces of this service (resource service.name) ...")
    .option("--since <date>", "... whose last span arrived at or after this date (UTC, e.g. 2026-01-31)", beforeArg)
    .option("--dry-run", "compare and list the traces whose reading changed; change nothing")
    .option("--json", "print JSON")
    .addOption(kOption())
    .addOption(home())
    .action(async (o: RescoreFlags) => {
      result.code = await rescoreCommand(io, o);
    });
}
