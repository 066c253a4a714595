import { registerCollectorCommand as registerCollector } from "@ragmeter/collector";
import type { Command } from "commander";
import type { CommandContext } from "./args.js";
import { EXIT } from "./evalCommand.js";

/** Registers `ragmeter collector`: the collector package's own command definition (the same as its entry point's). */
export function registerCollectorCommand(program: Command, ctx: CommandContext): void {
  registerCollector(program, {
    env: ctx.io.env,
    onDone: () => {
      ctx.result.code = EXIT.done;
    },
  });
}
