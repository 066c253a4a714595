import { CollectorConfigError, runCollectorCommand } from "@ragmeter/collector";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { GoldenSetError } from "@ragmeter/golden";
import { GateSyntaxError } from "../runs/gate.js";
import { ConfigError } from "../config.js";
import { StoreError } from "../store/errors.js";
import { DEFAULT_SEED, BOOTSTRAP_RESAMPLES } from "../runs/bootstrap.js";
import { demoCommand } from "./demoCommand.js";
import { evalCommand, EXIT, UsageError } from "./evalCommand.js";
import { compareCommand, exportCommand, runsCommand } from "./historyCommands.js";
import { reportCommand } from "./reportCommand.js";
import { processIo, type Io } from "./context.js";
import { scorerCommand, serveCommand } from "./streamCommands.js";
import { replayCommand } from "./replayCommand.js";
import { NothingToReplayError } from "../runs/replay/replay.js";
import { ReplaySpecError } from "../runs/replay/select.js";
import { registerCalibrateCommand } from "./calibrateCommand.js";
import { JudgeConfigError } from "../judges/errors.js";
import { CalibrationError } from "../runs/calibrate/errors.js";

function usd(v: string): number {
  const r = Number(v);
  if (!Number.isFinite(r) || r <= 0) throw new InvalidArgumentError("expected a positive amount in USD, e.g. 0.50");
  return r;
}

/** Judge flags shared by `eval` and `demo`. */
function judgeOptions(cmd: Command): Command {
  return cmd
    .option("--no-cache", "do not read or write the judge cache")
    .option("--repeat <n>", "run each judge N times per question (bypasses the cache) and report judge variance", intArg(1, 20), 1)
    .option("--max-cost <usd>", "stop judging once the estimated judge cost reaches this (USD; needs RAGMETER_PRICES); the rest is not_sampled", usd);
}

function intArg(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

function kList(v: string): number[] {
  const ks = v.split(",").map((s) => Number(s.trim()));
  if (ks.length === 0 || ks.some((k) => !Number.isInteger(k) || k < 1 || k > 1000)) throw new InvalidArgumentError("expected comma-separated integers ≥ 1, e.g. 1,3,5,10");
  return [...new Set(ks)].sort((a, b) => a - b);
}

/** A target URL: http or https, parsed (exit 2 otherwise). */
function httpUrl(v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new InvalidArgumentError("expected an http(s) URL, e.g. http://127.0.0.1:8080/ask");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new InvalidArgumentError(`expected an http(s) URL, got ${u.protocol}`);
  return u.toString();
}

/** A non-empty label such as a pipeline version. */
function nonEmpty(v: string): string {
  if (v.trim().length === 0) throw new InvalidArgumentError("must not be empty");
  return v.trim();
}

function rate(v: string): number {
  const r = Number(v);
  if (!Number.isFinite(r) || r < 0 || r > 1) throw new InvalidArgumentError("expected a number from 0 to 1");
  return r;
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
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .showHelpAfterError();
  const home = new Option("--home <dir>", "local state and embedded store (env RAGMETER_HOME, default ./.ragmeter)");

  judgeOptions(program
    .command("eval"))
    .description("replay a golden set against an HTTP target, score it, store the run and print the summary")
    .requiredOption("--golden <file>", "golden set (JSONL)")
    .requiredOption("--target <url>", "target URL answering POST {question} with {answer, contexts}", httpUrl)
    .requiredOption("--pipeline-version <v>", "pipeline version recorded on the run", nonEmpty)
    .option("--corpus <dir>", "documents named by expected_source: resolves expected_lines and checks every expected substring")
    .option("--k <list>", "k values of recall@k", kList, [1, 3, 5, 10])
    .option("--json <out>", "write the JSON report to this file")
    .option("--concurrency <n>", "questions in flight at once", intArg(1, 256), 4)
    .option("--max-error-rate <r>", "exit 1 when the share of target errors exceeds r (0–1)", rate)
    .option("--via-traces", "score from the target's own spans (OTLP to this process, or through the collector and Kafka when KAFKA_BROKERS is set)")
    .option("--otlp-port <n>", "--via-traces without Kafka: OTLP/HTTP port this process listens on", intArg(0, 65535), 4318)
    .option("--otlp-host <addr>", "--via-traces without Kafka: listen address", "0.0.0.0")
    .option("--trace-timeout <ms>", "--via-traces: wait this long for a question's spans, then trace_timeout", intArg(100), 30_000)
    .option("--quiet-ms <ms>", "--via-traces: quiet window after a trace's last span (env RAGMETER_QUIET_MS, default 5000)", intArg(0))
    .addOption(home)
    .action(async (o: { golden: string; target: string; pipelineVersion: string; k: number[]; json?: string; concurrency: number; maxErrorRate?: number; home?: string; cache: boolean; repeat: number; maxCost?: number; corpus?: string; viaTraces?: boolean; otlpPort: number; otlpHost: string; traceTimeout: number; quietMs?: number }) => {
      result.code = await evalCommand(io, o);
    });

  judgeOptions(program
    .command("demo"))
    .description("evaluate sample pipeline v1 then v2 on the bundled golden set (in process, no server)")
    .option("--concurrency <n>", "questions in flight at once", intArg(1, 256), 4)
    .addOption(home)
    .action(async (o: { concurrency: number; home?: string; cache: boolean; repeat: number; maxCost?: number }) => {
      result.code = await demoCommand(io, o);
    });

  program
    .command("runs")
    .description("list the run history, newest first")
    .option("--json", "print a JSON array")
    .addOption(home)
    .action(async (o: { json?: boolean; home?: string }) => {
      result.code = await runsCommand(io, o);
    });

  program
    .command("compare")
    .description("paired deltas per metric between two runs, with 95% bootstrap intervals; --fail-on gates CI")
    .argument("<run_a>", "baseline run id")
    .argument("<run_b>", "candidate run id")
    .option("--fail-on <rules>", 'gate, e.g. "grounding<-0.03,recall@5<-0.05"')
    .option("--seed <n>", "bootstrap seed", intArg(0, 2 ** 31 - 1), DEFAULT_SEED)
    .option("--resamples <n>", "bootstrap resamples", intArg(100, 1_000_000), BOOTSTRAP_RESAMPLES)
    .option("--json", "print JSON")
    .addOption(home)
    .action(async (a: string, b: string, o: { failOn?: string; seed: number; resamples: number; json?: boolean; home?: string }) => {
      result.code = await compareCommand(io, a, b, o);
    });

  program
    .command("export")
    .description("write the run history (date, pipeline version, golden set, judge, metrics)")
    .option("--csv", "CSV format")
    .option("--out <file>", "write to a file instead of stdout")
    .addOption(home)
    .action(async (o: { csv?: boolean; out?: string; home?: string }) => {
      result.code = await exportCommand(io, o);
    });
  program
    .command("report")
    .description("write a self-contained HTML report (trends, last vs previous, lost hits, bad claims); --png also the trend chart")
    .option("--out <file>", "HTML file to write", "report.html")
    .option("--png", "also write the trend chart as <out>.png (headless Chromium)")
    .option("--golden-set <sha256>", "golden set to report on (SHA-256 or a prefix; default: that of the latest golden run)")
    .addOption(home)
    .action(async (o: { out: string; png?: boolean; home?: string; goldenSet?: string }) => {
      result.code = await reportCommand(io, o);
    });
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
  registerCalibrateCommand(program, io, result, () => new Option("--home <dir>", "local state and embedded store (env RAGMETER_HOME, default ./.ragmeter)"));
  program
    .command("replay")
    .description("send the questions of captured interactions to a new pipeline version; score both sides; paired deltas and retrieval overlap")
    .requiredOption("--from <run|filter>", 'a run id, or filters like "since=24h,service=rag-api,pipeline=v7,source=live"')
    .requiredOption("--target <url>", "the new version's target URL (POST {question} → {answer, contexts})", httpUrl)
    .requiredOption("--pipeline-version <v>", "pipeline version of the new side", nonEmpty)
    .option("--sample <n>", "replay at most n interactions (deterministic subset)", intArg(1))
    .option("--concurrency <n>", "questions in flight at once", intArg(1, 256), 4)
    .option("--k <list>", "k values of recall@k", kList, [1, 3, 5, 10])
    .option("--json <out>", "write the replay report as JSON")
    .option("--no-cache", "do not use the judge cache")
    .addOption(home)
    .action(async (o: { from: string; target: string; pipelineVersion: string; sample?: number; concurrency: number; k: number[]; json?: string; cache: boolean; home?: string }) => {
      result.code = await replayCommand(io, o);
    });

  program
    .command("scorer")
    .description("consume ragmeter.spans (group ragmeter-scorer), store spans, score settled traces into ClickHouse")
    .option("--brokers <list>", "Kafka bootstrap servers (env KAFKA_BROKERS, default 127.0.0.1:9092)")
    .option("--quiet-ms <ms>", "quiet window after a trace's last span (env RAGMETER_QUIET_MS, default 5000)", intArg(0))
    .option("--k <list>", "k values of recall@k", kList, [1, 3, 5, 10])
    .addOption(home)
    .action(async (o: { brokers?: string; quietMs?: number; k: number[]; home?: string }) => {
      result.code = await scorerCommand(io, o);
    });

  program
    .command("serve")
    .description("collector + scorer in one process on the embedded store (Kafka only when KAFKA_BROKERS is set)")
    .option("--port <n>", "OTLP/HTTP port (env RAGMETER_COLLECTOR_PORT, default 4318)", intArg(0, 65535))
    .option("--host <addr>", "listen address (env RAGMETER_COLLECTOR_HOST, default 0.0.0.0)")
    .option("--quiet-ms <ms>", "quiet window after a trace's last span (env RAGMETER_QUIET_MS, default 5000)", intArg(0))
    .option("--k <list>", "k values of recall@k", kList, [1, 3, 5, 10])
    .addOption(home)
    .action(async (o: { port?: number; host?: string; quietMs?: number; k: number[]; home?: string }) => {
      result.code = await serveCommand(io, o);
    });
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
    if (err instanceof ConfigError || err instanceof UsageError || err instanceof ReplaySpecError || err instanceof NothingToReplayError || err instanceof CollectorConfigError || err instanceof GoldenSetError || err instanceof GateSyntaxError || err instanceof StoreError || err instanceof JudgeConfigError || err instanceof CalibrationError) {
      io.err(`ragmeter: ${err.message}`);
      return EXIT.usage;
    }
    // Infrastructure errors (Kafka, ClickHouse, files) as one line; the stack with RAGMETER_DEBUG=1.
    const e = err as Error;
    io.err(`ragmeter: ${io.env["RAGMETER_DEBUG"] ? (e.stack ?? String(err)) : `${e.name && e.name !== "Error" ? `${e.name}: ` : ""}${e.message ?? String(err)}`}`);
    return EXIT.usage;
  }
}
