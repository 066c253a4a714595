/**
 * Stand-alone entry point: `node collector/dist/main.js [--port N] [--host H] [--brokers a:9092,b:9092] [--topic T]`.
 * Same as `ragmeter collector`; used by the benchmark and containers.
 */
import { parseArgs } from "node:util";
import { runCollectorCommand } from "./command.js";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    host: { type: "string" },
    brokers: { type: "string" },
    topic: { type: "string" },
  },
});

runCollectorCommand({
  ...(values.port !== undefined ? { port: values.port } : {}),
  ...(values.host !== undefined ? { host: values.host } : {}),
  ...(values.brokers !== undefined ? { brokers: values.brokers } : {}),
  ...(values.topic !== undefined ? { topic: values.topic } : {}),
}).catch((err: unknown) => {
  process.stderr.write(`ragmeter collector: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2; // configuration or infrastructure error (design §5 exit codes)
});
