import { type Command, InvalidArgumentError } from "commander";
import type { LiveMetric, LiveSummary } from "../runs/live.js";
import { withReader } from "./api/withReader.js";
import type { CommandContext } from "./args.js";
import type { Io } from "./context.js";
import { EXIT } from "./evalCommand.js";
import { liveDigits } from "./format/liveHtml.js";

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A `--since` duration: a positive integer and a unit s, m, h or d (`90m`, `1h`, `7d`), in ms. */
export function durationArg(v: string): number {
  const m = /^(\d+)([smhd])$/u.exec(v.trim());
  const ms = m ? Number(m[1]) * (UNIT_MS[m[2] as string] as number) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms <= 0 || ms > 366 * 86_400_000)
    throw new InvalidArgumentError(`expected a duration such as 30m, 1h or 7d (at most 366d), got ${JSON.stringify(v)}`);
  return ms;
}

const f = (x: number | null, d: number): string => (x === null ? "–" : x.toFixed(d));
/** Mean, interval and n; an interval computed on the latest values only says on how many. */
const metric = (m: LiveMetric, d: number): string =>
  `${f(m.mean, d)}${m.ci ? ` [${m.ci[0].toFixed(d)}, ${m.ci[1].toFixed(d)}]` : ""} n=${m.n}${m.ci && m.ci_n < m.n ? ` (interval of the latest ${m.ci_n})` : ""}`;

/** Counts by key as `key n, key n` (`none` when empty). */
const counts = (c: Readonly<Record<string, number>>): string =>
  Object.keys(c).length === 0
    ? "none"
    : Object.entries(c)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ");

/** A pipeline version as shown: traces that carry none are `(none)`. */
const versionShown = (v: string): string => v || "(none)";

/** `ragmeter live` as text: one block per service and pipeline version (a line per live metric), the stream's judge failures, the overlap, the warnings. */
export function formatLive(s: LiveSummary, location: string): string {
  const lines = [`live traffic since ${s.since.slice(0, 19).replace("T", " ")} UTC (${s.traces_seen} trace(s)) from ${location}`];
  const width = Math.max(10, ...s.metrics.map((m) => m.label.length + 1));
  if (s.groups.length === 0) lines.push("  no live traces in the window");
  for (const g of s.groups) {
    lines.push("");
    lines.push(`${g.service} · pipeline ${versionShown(g.pipeline_version)}`);
    lines.push(
      `  ${"traces".padEnd(width)} ${g.traces_seen} seen, ${g.traces_scored} scored; ${Object.entries(g.statuses)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`,
    );
    for (const m of s.metrics) {
      const x = g.metrics[m.name];
      if (x !== undefined) lines.push(`  ${m.label.padEnd(width)} ${metric(x, liveDigits(m.max))}`);
    }
    lines.push(
      `  ${"judge".padEnd(width)} ${g.judge.calls} call(s), ${g.judge.input_tokens} in + ${g.judge.output_tokens} out tokens, cost ${g.judge.cost_usd === null ? `unknown (${g.judge.cost_reason})` : `$${g.judge.cost_usd.toFixed(4)}`}`,
    );
  }
  lines.push("");
  lines.push(`stream judge (every scorer, the window's minutes): failures ${counts(s.stream.judge_errors)}; skipped for the budget ${s.stream.judge_skipped_budget_exhausted}`);
  if (s.overlap.length > 0) {
    lines.push("");
    lines.push("retrieval overlap (Jaccard of retrieved documents, same question)");
    for (const o of s.overlap) lines.push(`  ${o.service}: ${versionShown(o.version_a)} vs ${versionShown(o.version_b)}  ${f(o.mean_jaccard, 3)} over ${o.questions} question(s)`);
  }
  if (s.warnings.length > 0) lines.push("");
  for (const w of s.warnings) lines.push(`warning: ${w}`);
  return lines.join("\n");
}

/** Flags of `ragmeter live`. */
export interface LiveFlags {
  readonly since: number;
  readonly service?: string;
  readonly pipelineVersion?: string;
  readonly json?: boolean;
  readonly home?: string;
}

/** `ragmeter live`: live traffic per service and pipeline version over the window (store, or its owner's read API). */
export async function liveCommand(io: Io, flags: LiveFlags): Promise<number> {
  return withReader(io, flags, async (reader) => {
    const s = await reader.live({
      windowMs: flags.since,
      ...(flags.service !== undefined ? { service: flags.service } : {}),
      ...(flags.pipelineVersion !== undefined ? { pipelineVersion: flags.pipelineVersion } : {}),
    });
    if (flags.json) io.out(JSON.stringify(s, null, 2));
    else io.out(formatLive(s, reader.location));
    for (const w of s.warnings) if (flags.json) io.err(`warning: ${w}`);
    return EXIT.done;
  });
}

/** Registers `ragmeter live`. */
export function registerLiveCommand(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  program
    .command("live")
    .description("live traffic per service and pipeline version: traces, statuses, each live metric with its 95% interval, overlap, judge cost and failures")
    .option("--since <duration>", "window ending now, e.g. 30m, 1h, 7d", durationArg, 3_600_000)
    .option("--service <name>", "only this service (service.name)")
    .option("--pipeline-version <v>", "only this pipeline version")
    .option("--json", "print JSON")
    .addOption(home())
    .action(async (o: LiveFlags) => {
      result.code = await liveCommand(io, o);
    });
}
