import { constants } from "node:fs";
import { access, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { EvaluationSink } from "@ragmeter/core/domain/evaluation";
import type { PriceTable } from "@ragmeter/core/judges/session/cost";
import type { Judge } from "@ragmeter/core/judges/types";
import { type GoldenSet, loadGoldenSet } from "@ragmeter/golden";
import { DEFAULT_LISTEN_HOST, HEAP_GROWTH_PERCENT, RagmeterError } from "@ragmeter/runtime";
import type { Store } from "@ragmeter/store/client";
import { loadStreamConfig } from "@ragmeter/stream/config";
import { EVAL_TURBOFAN_INVOCATIONS, runtimeTuning, runtimeTuningEnabled } from "@ragmeter/tuning";
import type { Command } from "commander";
import { goldenOf, runEval } from "../runs/eval.js";
import { type RunSpec, RunSpecError, runSpec } from "../runs/spec.js";
import type { EvalOutcome } from "../runs/summary.js";
import { httpTarget, type Target } from "../runs/target.js";
import { inlineTargetClient, type TargetClient, threadTargetClient } from "../runs/targetClient.js";
import { configTarget, loadTargetConfig } from "../runs/targetConfig.js";
import { loadTargetModule, moduleTarget } from "../runs/targetModule.js";
import type { ViaTracesOptions } from "../runs/viaTraces.js";
import { type CommandContext, httpUrl, intArg, judgeOptions, kOption, nonEmpty, rate } from "./args.js";
import { commandConfig, type Io, judgeFor, withEvaluationExport, withStoreOpening } from "./context.js";
import { evalJson } from "./format/json.js";
import { formatSummary } from "./format/text.js";
import { createProgress } from "./progress.js";

/** Flags of `ragmeter eval`. */
interface EvalFlags {
  readonly golden: string;
  /** One of `target` (URL of the ragmeter contract), `targetConfig` (FILE) and `targetModule` (FILE). */
  readonly target?: string;
  readonly targetConfig?: string;
  readonly targetModule?: string;
  readonly pipelineVersion: string;
  readonly k: readonly number[];
  readonly json?: string;
  readonly concurrency: number;
  readonly maxErrorRate?: number;
  readonly home?: string;
  /** `--no-cache` sets false. */
  readonly cache?: boolean;
  /** `--repeat N`: runs of each judge per question (bypasses the cache). */
  readonly repeat?: number;
  /** `--max-cost USD`: stop judging once the estimated judge cost reaches it. */
  readonly maxCost?: number;
  /** `--corpus DIR`: the documents named by `expected_source`, to resolve `expected_lines` and check substrings. */
  readonly corpus?: string;
  /** `--via-traces`: score from the target's own spans instead of its reply. */
  readonly viaTraces?: boolean;
  /** OTLP/HTTP port of the in-process receiver in `--via-traces` mode without Kafka (default 4318). */
  readonly otlpPort?: number;
  readonly otlpHost?: string;
  /** Wait for a question's spans, ms (default 30,000), then `trace_timeout`. */
  readonly traceTimeout?: number;
  /** Quiet window after a trace's last span, ms (default `RAGMETER_QUIET_MS`). */
  readonly quietMs?: number;
}

/** Where `--via-traces` gets the spans from, and how long it waits. */
export interface ViaTracesSettings {
  readonly spans: ViaTracesOptions["spans"];
  readonly quietMs: number;
  readonly traceTimeoutMs: number;
  readonly onReceiver?: (url: string) => void;
}

/** Judge options shared by `eval` and `demo`. */
export interface JudgeRunFlags {
  readonly cache?: boolean;
  readonly repeat?: number;
  readonly maxCost?: number;
}

/** A usage error found before any work is done (exit 2). */
export class UsageError extends RagmeterError {
  override readonly name = "UsageError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "usage", cause: options?.cause });
  }
}

/**
 * Checks, before a run starts, that `file` can be written (its folder exists and is writable), so a
 * long run does not end in a stack trace.
 * @throws UsageError naming the flag.
 */
export async function assertWritable(file: string, flag: string): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new UsageError(`${flag} ${file}: folder ${dir} does not exist or is not writable`);
  }
}

/**
 * Refuses a `--corpus` that is not a folder, so a mistyped path is one usage error naming the flag
 * rather than every expected document "not found".
 * @throws UsageError when `dir` does not exist or is not a directory.
 */
export async function assertCorpusDir(dir: string): Promise<void> {
  const s = await stat(dir).catch(() => null);
  if (s === null) throw new UsageError(`--corpus ${dir}: no such folder`);
  if (!s.isDirectory()) throw new UsageError(`--corpus ${dir}: not a folder`);
}

/** Exit codes (design §5). */
export const EXIT = { done: 0, gate: 1, usage: 2 } as const;

/**
 * The specification of an `eval` or `demo` run from its flags and settings (design §5).
 * @throws RunSpecError naming the flag of the first bad value.
 */
export function evalSpec(
  golden: GoldenSet,
  target: Target,
  o: {
    readonly pipelineVersion: string;
    readonly ks: readonly number[];
    readonly judging?: JudgeRunFlags | undefined;
    readonly viaTraces?: boolean;
    readonly prices: PriceTable | null;
  },
): RunSpec {
  return runSpec({
    source: { kind: "golden", set: golden, viaTraces: o.viaTraces ?? false },
    target: target.description,
    pipelineVersion: o.pipelineVersion,
    ks: [...o.ks],
    repeat: o.judging?.repeat ?? 1,
    cache: o.judging?.cache ?? true,
    maxCostUsd: o.judging?.maxCost ?? null,
    prices: o.prices,
  });
}

/**
 * Runs one evaluation of `spec` (a golden source) and prints its summary; shared by `eval` and `demo`.
 * @returns the outcome, or null for an empty golden set (`empty_golden_set` printed).
 */
export async function evaluateAndReport(
  io: Io,
  store: Store | Promise<Store>,
  judge: Judge,
  spec: RunSpec,
  target: Target,
  opts: {
    concurrency: number;
    json?: string | undefined;
    viaTraces?: ViaTracesSettings | null;
    /** Receives a `gen_ai.evaluation.result` per stored score. */
    evaluations?: EvaluationSink | null;
  },
): Promise<EvalOutcome | null> {
  const via = opts.viaTraces ?? null;
  const golden = goldenOf(spec, via !== null);
  if (golden.items.length === 0) {
    io.err(`ragmeter: ${golden.path}: empty_golden_set — the golden set has no items; nothing was scored`);
    return null;
  }
  const progress = createProgress(io.interactive, `eval ${spec.pipelineVersion}`);
  let outcome: EvalOutcome;
  try {
    const common = {
      spec,
      target,
      concurrency: opts.concurrency,
      judge,
      onProgress: (d: number, t: number) => progress.update(d, t),
      evaluations: opts.evaluations ?? null,
    };
    if (via) {
      // Loaded only for --via-traces: the collector, its Kafka client and the stream consumer.
      const [{ runEvalViaTraces }, { createJsonLogger }] = await Promise.all([import("../runs/viaTraces.js"), import("@ragmeter/runtime")]);
      outcome = await runEvalViaTraces({
        ...common,
        store: await store,
        spans: via.spans,
        quietMs: via.quietMs,
        traceTimeoutMs: via.traceTimeoutMs,
        log: createJsonLogger(process.stderr, "warn", "eval"),
        ...(via.onReceiver ? { onReceiver: via.onReceiver } : {}),
      });
    } else {
      // Full results only for --json: without it a run holds each question's digest alone (issue 12).
      outcome = await runEval({ ...common, store, keepResults: opts.json !== undefined });
    }
  } finally {
    progress.stop();
  }
  io.out(formatSummary(outcome, (await store).location));
  if (opts.json) {
    await writeFile(opts.json, `${JSON.stringify(evalJson(outcome, new Map(golden.items.map((g) => [g.id, g]))), null, 2)}\n`);
    io.out(`json report: ${opts.json}`);
  }
  return outcome;
}

/**
 * Exit code of an evaluation (design §5): 2 when no question could be measured (target down, no
 * spans: an infrastructure error; the run is stored as failed), 1 when the share of unmeasured
 * questions exceeds `--max-error-rate`, else 0. Questions whose judges failed but whose answer and
 * recall were measured are judge errors counted by `--max-error-rate` (issue 13), not "nothing".
 */
export function evalExitCode(io: Io, outcome: EvalOutcome, maxErrorRate: number | undefined): number {
  if (outcome.questions.length > 0 && outcome.failures.length === outcome.questions.length && outcome.failures.every((f) => f.status !== "judge_error")) {
    const first = outcome.failures[0];
    io.err(
      `ragmeter: nothing could be measured: all ${outcome.questions.length} questions failed (${[...new Set(outcome.failures.map((f) => f.status))].join(", ")}; first: ${first?.reason ?? "?"}); run ${outcome.run.run_id} is stored as failed`,
    );
    return EXIT.usage;
  }
  if (maxErrorRate !== undefined && outcome.errorRate > maxErrorRate) {
    io.err(
      `ragmeter: gate failed: error rate ${outcome.errorRate.toFixed(3)} (target_error, trace_timeout or judge_error on ${outcome.failures.length} of ${outcome.questions.length} questions) > --max-error-rate ${maxErrorRate}`,
    );
    return EXIT.gate;
  }
  return EXIT.done;
}

/**
 * The target of `eval`: exactly one of `--target URL`, `--target-config FILE`, `--target-module FILE`.
 * An HTTP target (URL or config) sends its requests through `client` (default: from the calling
 * thread, all at once), which the caller closes.
 * @throws UsageError when none or several are given; ConfigError for a bad config or module.
 */
async function targetFor(
  flags: Pick<EvalFlags, "target" | "targetConfig" | "targetModule" | "k">,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number,
  client: TargetClient = inlineTargetClient(),
): Promise<Target> {
  const given = [flags.target, flags.targetConfig, flags.targetModule].filter((x) => x !== undefined).length;
  if (given !== 1) throw new UsageError("eval: give exactly one of --target URL, --target-config FILE, --target-module FILE");
  const k = Math.max(...flags.k);
  if (flags.targetModule !== undefined) return moduleTarget(await loadTargetModule(flags.targetModule), { k, timeoutMs, file: flags.targetModule });
  if (flags.targetConfig !== undefined) return configTarget(await loadTargetConfig(flags.targetConfig, env), { k, timeoutMs, file: flags.targetConfig, client });
  return httpTarget(flags.target as string, timeoutMs, client);
}

/** Where `--via-traces` reads the spans (Kafka when brokers are set, else an OTLP receiver of its own) and how long it waits for them. */
function viaTracesSettings(io: Io, flags: EvalFlags): ViaTracesSettings {
  const stream = loadStreamConfig(io.env, flags.quietMs !== undefined ? { quietMs: flags.quietMs } : {});
  return {
    spans:
      stream.brokers !== null
        ? { kind: "kafka", brokers: stream.brokers, ...(stream.security !== undefined ? { security: stream.security } : {}), topic: stream.topic }
        : { kind: "otlp", port: flags.otlpPort ?? 4318, host: flags.otlpHost ?? DEFAULT_LISTEN_HOST },
    quietMs: stream.quietMs,
    traceTimeoutMs: flags.traceTimeout ?? 30_000,
  };
}

/**
 * When every question of a `--target URL` run failed because the service refused ragmeter's request
 * (an HTTP 4xx) or answered in another shape (a reply field missing or of another type): the line
 * that says `init` finds the body and mapping the service needs; else null.
 */
export function plainTargetHint(outcome: Pick<EvalOutcome, "failures">, url: string): string | null {
  const shape = /^(HTTP 4\d\d\b|reply field |reply is not JSON)/u;
  if (outcome.failures.length === 0 || !outcome.failures.every((f) => f.status === "target_error" && shape.test(f.reason))) return null;
  return `hint: --target sends {"question": …} and reads {"answer", "contexts"}; for a service with another request or reply, \`npx ragmeter init --url ${url}\` finds its body and mapping and writes a --target-config`;
}

/** `ragmeter eval`: replay a golden set against an HTTP target, score, store, print. Returns the exit code. */
async function evalCommand(io: Io, flags: EvalFlags): Promise<number> {
  // Process-wide, for this command and after (RAGMETER_RUNTIME_TUNING; figures in bench/README.md, "eval"):
  // the heap kept near the live set, and only what stays hot optimized beside a local target.
  const tuning = runtimeTuning(runtimeTuningEnabled(io.env));
  tuning.limitHeapGrowth(HEAP_GROWTH_PERCENT);
  tuning.raiseOptimizationThreshold(EVAL_TURBOFAN_INVOCATIONS);
  if (flags.corpus !== undefined) await assertCorpusDir(flags.corpus);
  const golden = await loadGoldenSet(flags.golden, flags.corpus !== undefined ? { corpusDir: flags.corpus, verifySubstrings: true } : {});
  for (const n of golden.notices) io.err(`notice: ${golden.path}: ${n}`);
  if (flags.json !== undefined) await assertWritable(flags.json, "--json");
  const config = commandConfig(io, flags);
  const viaTraces = flags.viaTraces ? viaTracesSettings(io, flags) : null;
  // A direct eval of an HTTP target asks from a client thread (via traces the answers come from
  // spans; a module runs in process). The store opens (engine, migrations) once the thread has
  // loaded, while the first questions are asked (runEval).
  const client = viaTraces === null && flags.targetModule === undefined ? threadTargetClient(flags.concurrency) : inlineTargetClient();
  try {
    const target = await targetFor(flags, io.env, config.targetTimeoutMs, client);
    let spec: RunSpec;
    try {
      spec = evalSpec(golden, target, { pipelineVersion: flags.pipelineVersion, ks: flags.k, judging: flags, viaTraces: viaTraces !== null, prices: config.prices });
    } catch (err) {
      if (!(err instanceof RunSpecError)) throw err;
      io.err(`ragmeter: eval: ${err.message} (run \`ragmeter eval --help\` for usage)`);
      return EXIT.usage;
    }
    return await withStoreOpening(
      io,
      flags,
      async (store) => {
        const judge = await judgeFor(config);
        const outcome = await withEvaluationExport(
          config,
          "ragmeter-eval",
          (m) => io.err(`warning: ${m}`),
          (evaluations) => evaluateAndReport(io, store, judge, spec, target, { concurrency: flags.concurrency, json: flags.json, viaTraces, evaluations }),
        );
        if (outcome === null) return EXIT.usage;
        const code = evalExitCode(io, outcome, flags.maxErrorRate);
        const hint = flags.target !== undefined && code === EXIT.usage ? plainTargetHint(outcome, flags.target) : null;
        if (hint !== null) io.err(hint);
        return code;
      },
      { after: client.ready, config },
    );
  } finally {
    // The target's client (its thread), whatever happened to the store.
    await client.close();
  }
}

/** Registers `ragmeter eval`. */
export function registerEvalCommand(program: Command, ctx: CommandContext): void {
  const { io, result, home } = ctx;
  judgeOptions(program.command("eval"))
    .description("replay a golden set against an HTTP target, score it, store the run and print the summary")
    .requiredOption("--golden <file>", "golden set (JSONL or CSV)")
    .option("--target <url>", "target URL answering POST {question} with {answer, contexts}", httpUrl)
    .option("--target-config <file>", "any HTTP RAG service: request and JSONPath response mapping (JSON or YAML, see README)")
    .option("--target-module <file>", "a module (.js or .ts) exporting async ask(question, {k, headers, signal}) → {answer, contexts}")
    .requiredOption("--pipeline-version <v>", "pipeline version recorded on the run", nonEmpty)
    .option("--corpus <dir>", "documents named by expected_source: resolves expected_lines and checks every expected substring")
    .addOption(kOption())
    .option("--json <out>", "write the JSON report to this file")
    .option("--concurrency <n>", "questions in flight at once", intArg(1, 256), 4)
    .option(
      "--max-error-rate <r>",
      "exit 1 when the share of questions that could not be measured (target_error, trace_timeout, judge_error on every judged metric) exceeds r (0–1)",
      rate,
    )
    .option("--via-traces", "score from the target's own spans (OTLP to this process, or through the collector and Kafka when KAFKA_BROKERS is set)")
    .option("--otlp-port <n>", "--via-traces without Kafka: OTLP/HTTP port this process listens on", intArg(0, 65535), 4318)
    .option("--otlp-host <addr>", "--via-traces without Kafka: listen address (another than loopback is warned: this listener takes no token)", DEFAULT_LISTEN_HOST)
    .option("--trace-timeout <ms>", "--via-traces: wait this long for a question's spans, then trace_timeout", intArg(100), 30_000)
    .option("--quiet-ms <ms>", "--via-traces: quiet window after a trace's last span (env RAGMETER_QUIET_MS, default 5000)", intArg(0))
    .addOption(home())
    .action(
      async (o: {
        golden: string;
        target?: string;
        targetConfig?: string;
        targetModule?: string;
        pipelineVersion: string;
        k: number[];
        json?: string;
        concurrency: number;
        maxErrorRate?: number;
        home?: string;
        cache: boolean;
        repeat: number;
        maxCost?: number;
        corpus?: string;
        viaTraces?: boolean;
        otlpPort: number;
        otlpHost: string;
        traceTimeout: number;
        quietMs?: number;
      }) => {
        result.code = await evalCommand(io, o);
      },
    );
}
