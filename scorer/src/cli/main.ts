import { ERROR_EXIT_CODE, RagmeterError, readSetting, SETTINGS } from "@ragmeter/runtime";
import { Command, CommanderError, Option } from "commander";
import type { CommandContext } from "./args.js";
import { type Io, processIo } from "./context.js";
import { EXIT, registerEvalCommand } from "./evalCommand.js";

/** Registers one module's commands on the program. */
type Registrar = (program: Command, ctx: CommandContext) => void;

/**
 * The commands of each CLI module, in help order. A run loads only the module of the command it
 * runs (issue 12: `eval` does not load the collector, Kafka clients, the read API server or the
 * HTML report); help, `--version` and an unknown command load them all.
 */
const MODULES: readonly { readonly commands: readonly string[]; readonly load: () => Promise<Registrar> }[] = [
  { commands: ["eval"], load: async () => registerEvalCommand },
  { commands: ["init"], load: async () => (await import("./initCommand.js")).registerInitCommand },
  { commands: ["demo"], load: async () => (await import("./demoCommand.js")).registerDemoCommand },
  { commands: ["runs", "compare", "export"], load: async () => (await import("./historyCommands.js")).registerHistoryCommands },
  { commands: ["live"], load: async () => (await import("./liveCommand.js")).registerLiveCommand },
  { commands: ["report"], load: async () => (await import("./reportCommand.js")).registerReportCommand },
  { commands: ["collector"], load: async () => (await import("./collectorCommand.js")).registerCollectorCommand },
  {
    commands: ["calibrate"],
    load: async () => {
      const { registerCalibrateCommand } = await import("./calibrateCommand.js");
      return (program, ctx) => registerCalibrateCommand(program, ctx.io, ctx.result, ctx.home);
    },
  },
  { commands: ["replay"], load: async () => (await import("./replayCommand.js")).registerReplayCommand },
  { commands: ["scorer", "serve"], load: async () => (await import("./streamCommands.js")).registerStreamCommands },
  { commands: ["golden"], load: async () => (await import("./goldenCommand.js")).registerGoldenCommands },
  { commands: ["forget"], load: async () => (await import("./forgetCommand.js")).registerForgetCommand },
  { commands: ["rescore"], load: async () => (await import("./rescoreCommand.js")).registerRescoreCommand },
  { commands: ["config"], load: async () => (await import("./configCommand.js")).registerConfigCommand },
];

/** A commander usage error as one `ragmeter:` line (commander writes `error: …`). */
function usageLine(s: string): string {
  return `ragmeter: ${s.trim().replace(/^error: /u, "")}\n`;
}

/**
 * Builds the `ragmeter` command line. Each action stores its exit code in `result.code`
 * (design §5: 0 done, 1 gate failed, 2 usage/configuration/infrastructure). With `command` (the
 * first argument of a run) naming a command, only its module is loaded and registered.
 */
export async function buildCli(io: Io, result: { code: number }, command?: string): Promise<Command> {
  const program = new Command("ragmeter")
    .description("Measure whether a RAG change made answers better or worse: recall@k, grounding, relevance.")
    .version("0.1.0")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()), outputError: (s, write) => write(usageLine(s)) })
    .showHelpAfterError("(run `ragmeter --help`, or `ragmeter <command> --help`, for usage)");
  const home = (): Option => new Option("--home <dir>", "local state and embedded store (env RAGMETER_HOME, default ./.ragmeter)");
  const ctx: CommandContext = { io, result, home };
  const only = MODULES.filter((m) => command !== undefined && m.commands.includes(command));
  for (const register of await Promise.all((only.length > 0 ? only : MODULES).map((m) => m.load()))) register(program, ctx);
  return program;
}

/** Runs the CLI with `argv` (as `process.argv`); resolves to the exit code. Never calls process.exit. */
export async function runCli(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const result = { code: EXIT.done as number };
  const program = await buildCli(io, result, argv[2]);
  try {
    if (argv.length <= 2) {
      io.err(program.helpInformation().trimEnd());
      return EXIT.usage;
    }
    await program.parseAsync([...argv]);
    return result.code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") return EXIT.done;
      return EXIT.usage;
    }
    return exitOn(err, io);
  }
}

/**
 * The CLI's one exit path for an error: one `ragmeter:` line and the error's exit code. A
 * {@link RagmeterError} says both itself (design §14: its `toLine()` and `exitCode`); anything else
 * (a bug, a library's error) is one line with its class name and exit 2, the stack with RAGMETER_DEBUG=1.
 */
export function exitOn(err: unknown, io: Io): number {
  const debug = readSetting(SETTINGS.RAGMETER_DEBUG, io.env) !== undefined;
  if (err instanceof RagmeterError) {
    io.err(`ragmeter: ${debug ? (err.stack ?? err.toLine()) : err.toLine()}`);
    return err.exitCode;
  }
  const e = err as Error;
  io.err(`ragmeter: ${debug ? (e.stack ?? String(err)) : `${e.name && e.name !== "Error" ? `${e.name}: ` : ""}${e.message ?? String(err)}`}`);
  return ERROR_EXIT_CODE;
}
