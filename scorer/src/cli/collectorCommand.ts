import type { Command } from "commander";
import { intArg, type CommandContext } from "./args.js";
import { runCollectorCommand } from "@ragmeter/collector";
import { EXIT } from "./evalCommand.js";

/** Registers `ragmeter collector` (the collector application's own entry point). */
export function registerCollectorCommand(program: Command, ctx: CommandContext): void {
  const { io, result } = ctx;
  program
    .command("collector")
    .description("OTLP/HTTP receiver (POST /v1/traces, /v1/logs) that forwards one Kafka message per trace")
    .option("--port <n>", "listen port (env RAGMETER_COLLECTOR_PORT, default 4318)", intArg(0, 65535))
    .option("--host <addr>", "listen address (env RAGMETER_COLLECTOR_HOST, default 0.0.0.0)")
    .option("--brokers <list>", "Kafka bootstrap servers host:port,… (env KAFKA_BROKERS, default 127.0.0.1:9092)")
    .option("--topic <name>", "topic (env RAGMETER_TOPIC, default ragmeter.spans)")
    .action(async (o: { port?: number; host?: string; brokers?: string; topic?: string }) => {
      const flags = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
      await runCollectorCommand(flags, { env: io.env });
      result.code = EXIT.done;
    });
}
