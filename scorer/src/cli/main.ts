import { CollectorConfigError } from "@ragmeter/collector";
import { GoldenSetError } from "@ragmeter/golden";
import { Command, CommanderError, Option } from "commander";
import { ConfigError } from "../domain/errors.js";
import { JudgeConfigError } from "../judges/errors.js";
import { CalibrationError } from "../runs/calibrate/errors.js";
import { GateSyntaxError } from "../runs/gate.js";
import { NothingToReplayError } from "../runs/replay/replay.js";
import { ReplaySpecError } from "../runs/replay/select.js";
import { StoreError } from "../store/errors.js";
import { ReadApiError } from "./api/errors.js";
import type { CommandContext } from "./args.js";
import { registerCalibrateCommand } from "./calibrateCommand.js";
import { registerCollectorCommand } from "./collectorCommand.js";
import { type Io, processIo } from "./context.js";
import { registerDemoCommand } from "./demoCommand.js";
import { EXIT, registerEvalCommand, UsageError } from "./evalCommand.js";
import { registerForgetCommand } from "./forgetCommand.js";
import { registerGoldenCommands } from "./goldenCommand.js";
import { registerHistoryCommands } from "./historyCommands.js";
import { registerLiveCommand } from "./liveCommand.js";
import { registerReplayCommand } from "./replayCommand.js";
import { registerReportCommand } from "./reportCommand.js";
import { registerStreamCommands } from "./streamCommands.js";

/** A commander usage error as one `ragmeter:` line (commander writes `error: …`). */
export function usageLine(s: string): string {
  return `ragmeter: ${s.trim().replace(/^error: /u, "")}\n`;
}

/**
 * Builds the `ragmeter` command line. Each action stores its exit code in `result.code`
 * (design §5: 0 done, 1 gate failed, 2 usage/configuration/infrastructure).
 */
export function buildCli(io: Io, result: { code: number }): Command {
  const program = new Command("ragmeter")
    .description("Measure whether a RAG change made answers better or worse: recall@k, grounding, relevance.")
    .version("0.1.0")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()), outputError: (s, write) => write(usageLine(s)) })
    .showHelpAfterError("(run `ragmeter --help`, or `ragmeter <command> --help`, for usage)");
  const home = (): Option => new Option("--home <dir>", "local state and embedded store (env RAGMETER_HOME, default ./.ragmeter)");
  const ctx: CommandContext = { io, result, home };

  registerEvalCommand(program, ctx);
  registerDemoCommand(program, ctx);
  registerHistoryCommands(program, ctx);
  registerLiveCommand(program, ctx);
  registerReportCommand(program, ctx);
  registerCollectorCommand(program, ctx);
  registerCalibrateCommand(program, io, result, home);
  registerReplayCommand(program, ctx);
  registerStreamCommands(program, ctx);
  registerGoldenCommands(program, ctx);
  registerForgetCommand(program, ctx);
  return program;
}

/** Runs the CLI with `argv` (as `process.argv`); resolves to the exit code. Never calls process.exit. */
export async function runCli(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const result = { code: EXIT.done as number };
  const program = buildCli(io, result);
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
    if (
      err instanceof ConfigError ||
      err instanceof UsageError ||
      err instanceof ReplaySpecError ||
      err instanceof NothingToReplayError ||
      err instanceof CollectorConfigError ||
      err instanceof GoldenSetError ||
      err instanceof GateSyntaxError ||
      err instanceof StoreError ||
      err instanceof JudgeConfigError ||
      err instanceof CalibrationError ||
      err instanceof ReadApiError
    ) {
      io.err(`ragmeter: ${err.message}`);
      return EXIT.usage;
    }
    // Infrastructure errors (Kafka, ClickHouse, files) as one line; the stack with RAGMETER_DEBUG=1.
    const e = err as Error;
    io.err(`ragmeter: ${io.env["RAGMETER_DEBUG"] ? (e.stack ?? String(err)) : `${e.name && e.name !== "Error" ? `${e.name}: ` : ""}${e.message ?? String(err)}`}`);
    return EXIT.usage;
  }
}
