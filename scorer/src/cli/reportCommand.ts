import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { DEFAULT_LIVE_WINDOW_MS } from "./api/server.js";
import { withReader } from "./api/withReader.js";
import type { CommandContext } from "./args.js";
import type { Io } from "./context.js";
import { assertWritable, EXIT, UsageError } from "./evalCommand.js";
import { screenshotTrend } from "./format/browser.js";
import { chartJsSource, renderReportHtml } from "./format/html.js";
import { renderLiveSection } from "./format/liveHtml.js";

/** A path as printed: relative to the working directory when inside it, else absolute. */
const shown = (cwd: string, file: string): string => {
  const rel = path.relative(cwd, file);
  return rel === "" || rel.startsWith("..") ? file : rel;
};

/**
 * `ragmeter report [--out report.html] [--png]`: writes one self-contained HTML file (Overview,
 * Retrieval and Grounding content) from the configured store; with `--png`, also the trend chart as
 * `<out without .html>.png` through headless Chromium. Exit 0 done, 2 when the store or the browser
 * is missing, or no completed run has the `--golden-set` asked for (nothing written).
 */
export async function reportCommand(io: Io, flags: { out?: string; png?: boolean; home?: string; goldenSet?: string }): Promise<number> {
  const out = path.resolve(io.cwd, flags.out ?? "report.html");
  await assertWritable(out, "--out");
  const written = await withReader(io, flags, async (reader) => {
    const data = await reader.report(flags.goldenSet !== undefined ? { goldenSet: flags.goldenSet } : {});
    // a golden set asked for by name that no run has is a typo, not an empty report
    if (flags.goldenSet !== undefined && data.runs.length === 0)
      throw new UsageError(`--golden-set ${flags.goldenSet}: no completed run on a golden set whose SHA-256 starts with it (see \`ragmeter runs\`, column golden)`);
    // The live section (design §3) only when the last hour had live traffic: a golden-only report stays as it was.
    const live = await reader.live({ windowMs: DEFAULT_LIVE_WINDOW_MS });
    await writeFile(out, renderReportHtml(data, chartJsSource(), live.groups.length > 0 ? { sections: renderLiveSection(live) } : {}));
    return data.runs.length;
  });
  io.err(`wrote ${shown(io.cwd, out)} (${written} completed run${written === 1 ? "" : "s"})`);
  if (flags.png) {
    const png = `${out.replace(/\.html?$/iu, "")}.png`;
    await screenshotTrend(out, png, io.env); // BrowserMissingError: the CLI's exit path says it (exit 2)
    io.err(`wrote ${shown(io.cwd, png)}`);
  }
  return EXIT.done;
}

/** Registers `ragmeter report`. */
export function registerReportCommand(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  program
    .command("report")
    .description("write a self-contained HTML report (trends, last vs previous, lost hits, bad claims); --png also the trend chart")
    .option("--out <file>", "HTML file to write", "report.html")
    .option("--png", "also write the trend chart as <out>.png (headless Chromium)")
    .option("--golden-set <sha256>", "golden set to report on (SHA-256 or a prefix; default: that of the latest golden run)")
    .addOption(home())
    .action(async (o: { out: string; png?: boolean; home?: string; goldenSet?: string }) => {
      result.code = await reportCommand(io, o);
    });
}
