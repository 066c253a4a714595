/**
 * `ragmeter config`: the effective settings (flag, then environment, then default) and where each
 * came from, secrets masked (issue 30). Reads the one settings catalog (@ragmeter/runtime), so it
 * reports exactly what the processes parse.
 */
import { ALL_SETTINGS, effectiveSettings, formatEffectiveSettings, PROCESSES, type Process, resolveSettings, type Setting } from "@ragmeter/runtime";
import { type Command, Option } from "commander";
import type { CommandContext } from "./args.js";
import type { Io } from "./context.js";
import { EXIT } from "./evalCommand.js";

/** Flags of `ragmeter config` as commander parses them. */
export interface ConfigFlags {
  readonly process?: Process;
  readonly json?: boolean;
  readonly home?: string;
}

/** The settings `process` reads (all of them without one). */
const settingsFor = (process: Process | undefined): readonly Setting[] => (process === undefined ? ALL_SETTINGS : ALL_SETTINGS.filter((s) => s.processes.includes(process)));

/**
 * Prints the effective settings of `flags.process` (every process's without it) on `io.out`, one
 * `NAME=value  (source)` line each or one JSON array; deprecation warnings on `io.err`.
 * @throws SettingsError naming each invalid variable (exit 2)
 */
export function printConfig(io: Io, flags: ConfigFlags): number {
  const settings = settingsFor(flags.process);
  const resolved = resolveSettings(settings, io.env, { RAGMETER_HOME: { value: flags.home, flag: "--home" } });
  for (const w of resolved.warnings) io.err(w);
  const rows = effectiveSettings(settings, resolved);
  io.out(flags.json === true ? JSON.stringify(rows, null, 2) : formatEffectiveSettings(rows));
  return EXIT.done;
}

/** Registers `ragmeter config`. */
export function registerConfigCommand(program: Command, ctx: CommandContext): void {
  program
    .command("config")
    .description("print the effective settings and where each came from (default, environment, flag); secrets masked")
    .addOption(new Option("--process <name>", "only the settings this process reads").choices(PROCESSES))
    .option("--json", "one JSON array of {name, value, source}")
    .addOption(ctx.home())
    .action((flags: ConfigFlags) => {
      ctx.result.code = printConfig(ctx.io, flags);
    });
}
