/**
 * Stand-alone entry point: `node collector/dist/main.js [--port N] [--host H] [--brokers a:9092,b:9092] [--topic T]`.
 * Same command as `ragmeter collector` (one commander definition, ./command.ts); used by the
 * benchmark and containers.
 */
import { Command } from "commander";
import { registerCollectorCommand } from "./command.js";

const program = new Command("ragmeter").exitOverride();
registerCollectorCommand(program);

program
  .parseAsync(["collector", ...process.argv.slice(2)], { from: "user" })
  .then(() => {
    // Closed gracefully: if a stuck client socket still holds the event loop (the Kafka clients'
    // close is bounded, not guaranteed), exit anyway once the last log lines had time to flush.
    setTimeout(() => process.exit(), 2_000).unref();
  })
  .catch((err: unknown) => {
    if ((err as { code?: string }).code?.startsWith("commander.")) {
      process.exitCode = (err as { exitCode?: number }).exitCode === 0 ? 0 : 2; // usage error (commander printed it)
      return;
    }
    process.stderr.write(`ragmeter collector: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2; // configuration or infrastructure error (design §5 exit codes)
  });
