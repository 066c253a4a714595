import { access, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { type InitPlan, planInit } from "../runs/onboard/init.js";
import { type CommandContext, httpUrl, intArg, nonEmpty } from "./args.js";
import { commandConfig, type Io } from "./context.js";
import { EXIT, UsageError } from "./evalCommand.js";

/** Flags of `ragmeter init`. */
interface InitFlags {
  readonly url?: string;
  readonly module?: string;
  readonly question: string;
  readonly k: number;
  readonly config: string;
  readonly golden: string;
  /** `--no-workflow` sets false. */
  readonly workflow: string | false;
  readonly yes?: boolean;
  readonly force?: boolean;
}

/** The question asked when `--question` is not given. */
export const DEFAULT_QUESTION = "What is this documentation about?";

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * `ragmeter init`: asks the service one question, shows the reply and the proposed mapping, says
 * which files it will write, and writes them once confirmed (a terminal) or with `--yes`. An
 * existing file is never overwritten without `--force` (nothing is written then).
 */
export async function initCommand(io: Io, flags: InitFlags): Promise<number> {
  if ((flags.url === undefined) === (flags.module === undefined)) throw new UsageError("init: give either --url URL or --module FILE");
  const plan = await planFor(io, flags);
  io.out(plan.report.join("\n"));
  const width = Math.max(...plan.files.map((f) => f.path.length));
  io.out(`will write:\n${plan.files.map((f) => `  ${f.path.padEnd(width)}  ${f.what}`).join("\n")}`);
  const taken: string[] = [];
  for (const f of plan.files) if (await exists(path.resolve(io.cwd, f.path))) taken.push(f.path);
  if (taken.length > 0 && flags.force !== true) {
    io.err(`ragmeter: init: ${taken.join(", ")} already exist${taken.length === 1 ? "s" : ""}: nothing written (--force overwrites)`);
    return EXIT.usage;
  }
  if (flags.yes !== true) {
    const refused = await confirmWrite(io, plan.files.length);
    if (refused !== null) return refused;
  }
  for (const f of plan.files) {
    const abs = path.resolve(io.cwd, f.path);
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, f.text);
    io.out(`wrote ${f.path}${taken.includes(f.path) ? " (overwritten: --force)" : ""}`);
  }
  io.out(`next: ${plan.evalCommand}`);
  return EXIT.done;
}

/** Asks the service (or module) and plans the files, from the flags. */
function planFor(io: Io, flags: InitFlags): Promise<InitPlan> {
  const config = commandConfig(io, {});
  return planInit({
    ...(flags.url !== undefined ? { url: flags.url } : {}),
    ...(flags.module !== undefined ? { module: flags.module } : {}),
    cwd: io.cwd,
    question: flags.question,
    k: flags.k,
    timeoutMs: config.targetTimeoutMs,
    configFile: flags.config,
    goldenFile: flags.golden,
    workflowFile: flags.workflow === false ? null : flags.workflow,
  });
}

/** Asks on the terminal before writing `files` files: null when confirmed, else the exit code (no terminal: usage; declined: done). */
async function confirmWrite(io: Io, files: number): Promise<number | null> {
  if (io.confirm === undefined) {
    io.err("ragmeter: init: nothing written: stdin is not a terminal to confirm on; run again with --yes to write these files");
    return EXIT.usage;
  }
  if (await io.confirm(`Write ${files === 1 ? "this file" : `these ${files} files`}?`)) return null;
  io.out("nothing written");
  return EXIT.done;
}

/** Registers `ragmeter init`. */
export function registerInitCommand(program: Command, ctx: CommandContext): void {
  const { io, result } = ctx;
  program
    .command("init")
    .description("ask your RAG service one question, propose how its reply maps onto answer and contexts, write a target config, a starter golden set and a CI workflow")
    .option("--url <url>", "your service's URL (POST JSON; the question key and top_k are found by trying)", httpUrl)
    .option("--module <file>", "instead of --url: a module exporting async ask(question, {k, headers, signal}) (as eval --target-module)")
    .option("--question <text>", "the question asked (a real one your documents answer)", nonEmpty, DEFAULT_QUESTION)
    .option("--k <n>", "contexts asked for (top_k, when the service needs it)", intArg(1, 1000), 5)
    .option("--config <file>", "target config to write", "ragmeter.target.json")
    .option("--golden <file>", "starter golden set to write", "ragmeter.golden.jsonl")
    .option("--workflow <file>", "CI workflow to write", ".github/workflows/ragmeter.yml")
    .option("--no-workflow", "do not write a CI workflow")
    .option("--yes", "write without asking (CI, scripts)")
    .option("--force", "overwrite files that exist")
    .action(async (o: InitFlags) => {
      result.code = await initCommand(io, o);
    });
}
