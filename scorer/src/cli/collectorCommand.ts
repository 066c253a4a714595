import { registerCollectorCommand as registerCollector } from "@ragmeter/collector";
import type { Command } from "commander";
import type { CommandContext } from "./args.js";
import { EXIT } from "./evalCommand.js";

/**
 * Registers `ragmeter collector`: the collector package's own command definition (the same as its
 * entry point's). Run from the `ragmeter` bin (the process's own environment), the process becomes
 * the collector's bundle with its Node settings, as `npm run bench:peer` measures it
 * (collector/src/tuning.ts); called in process with an environment of its own (tests), it runs here.
 */
export function registerCollectorCommand(program: Command, ctx: CommandContext): void {
  registerCollector(program, {
    env: ctx.io.env,
    ...(ctx.io.env === process.env ? { execBundle: process } : {}),
    onDone: () => {
      ctx.result.code = EXIT.done;
    },
  });
}
