import type { EvaluationSink } from "@ragmeter/core/domain/evaluation";
import { createJudge, type JudgeBackendSettings } from "@ragmeter/core/judges/backends";
import type { Judge } from "@ragmeter/core/judges/types";
import { type Store, startOpeningStore } from "@ragmeter/store/client";
import { runtimeTuning } from "@ragmeter/tuning";
import { type Config, loadConfig } from "./config.js";

/** Where a command writes: injectable for tests (no process globals inside commands). */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** True when progress bars may be drawn (stderr is a terminal). */
  readonly interactive: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /**
   * Asks the person at the terminal a yes/no question (`ragmeter init` before it writes); absent
   * when stdin is not a terminal (CI, pipes, tests), where commands take `--yes` instead.
   */
  readonly confirm?: (question: string) => Promise<boolean>;
}

/** A yes/no question on the terminal (default no). */
async function askTerminal(question: string): Promise<boolean> {
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/iu.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

/** Standard IO of the process. */
export function processIo(): Io {
  return {
    out: (t) => process.stdout.write(t.endsWith("\n") ? t : `${t}\n`),
    err: (t) => process.stderr.write(t.endsWith("\n") ? t : `${t}\n`),
    interactive: Boolean(process.stderr.isTTY) && process.env["CI"] !== "true",
    env: process.env,
    cwd: process.cwd(),
    ...(process.stdin.isTTY ? { confirm: askTerminal } : {}),
  };
}

/** The judge the configuration asks for (the backend registry builds it: judges/backends.ts); with `thread`, the heuristic judge on a thread of its own. */
export async function judgeFor(config: Config, thread: JudgeBackendSettings["thread"] = null): Promise<Judge> {
  if (!config.judge) return createJudge({ llm: null, thread });
  return createJudge({
    llm: {
      baseURL: config.judge.baseURL,
      apiKey: config.judge.apiKey,
      model: config.judge.model,
      timeoutMs: config.judge.timeoutMs,
      contextTokens: config.judge.contextTokens,
      concurrency: config.judge.concurrency,
      rpm: config.judge.rpm,
      maxRetries: config.judge.retries,
      maxOutputTokens: config.judge.maxOutputTokens,
      extraTasks: config.judge.extraTasks,
    },
    cascade: config.cascade,
  });
}

/**
 * Runs `fn` with the evaluation export of the configuration (`RAGMETER_EVALUATION_EXPORT_ENDPOINT`,
 * design §15; null when unset), resource `service.name` = `serviceName`; flushes and shuts it down
 * afterwards. A failed export is warned once through `warn` and never fails `fn`.
 */
export async function withEvaluationExport<T>(config: Config, serviceName: string, warn: (message: string) => void, fn: (sink: EvaluationSink | null) => Promise<T>): Promise<T> {
  if (config.evaluationExport === null) return fn(null);
  // Loaded only when configured: the OpenTelemetry logs SDK and exporter are not needed otherwise.
  const { startEvaluationExport } = await import("@ragmeter/stream/evaluationExport");
  const exporter = startEvaluationExport(config.evaluationExport, serviceName, warn);
  try {
    return await fn(exporter);
  } finally {
    await exporter.shutdown();
  }
}

/**
 * The command's configuration: the settings of `io.env` under its flags (`--home`), resolved once
 * per command and passed down (the only call of `loadConfig` in the CLI).
 * @throws ConfigError naming the setting.
 */
export function commandConfig(io: Io, flags: { home?: string }): Config {
  return loadConfig(io.env, flags.home !== undefined ? { home: flags.home } : {});
}

/**
 * Loads the configuration (flags first) and runs `fn` with an open store, closing it afterwards.
 * The store gets the configured retention TTLs (design §13) unless `retention: false` (a command
 * that captures no content, such as `forget`, leaves the tables' TTLs as they are).
 */
export async function withStore<T>(
  io: Io,
  flags: { home?: string },
  fn: (store: Store, config: Config) => Promise<T>,
  opts: { retention?: boolean; config?: Config } = {},
): Promise<T> {
  return withStoreOpening(io, flags, async (opening, config) => fn(await opening, config), opts);
}

/**
 * {@link withStore} for a command with work to do while the store opens (`eval` asks its first
 * questions): `fn` gets the opening at once; with `after`, the store opens once that settles. The
 * embedded store's lock is taken before `fn` starts, so a store in use fails before any work. With
 * `config`, the command's configuration already loaded ({@link commandConfig}). The store is closed afterwards once it has opened; when
 * `fn` returns without having needed it and it failed to open, its error is the command's.
 */
export async function withStoreOpening<T>(
  io: Io,
  flags: { home?: string },
  fn: (store: Promise<Store>, config: Config) => Promise<T>,
  opts: { retention?: boolean; after?: Promise<unknown>; config?: Config } = {},
): Promise<T> {
  const config = opts.config ?? commandConfig(io, flags);
  for (const w of config.warnings) io.err(`warning: ${w}`);
  const opening = startOpeningStore(config.store, {
    ...(opts.retention === false ? {} : { retention: config.retention }),
    releaseStartupPages: config.releaseStartupPages,
    runtimeTuning: runtimeTuning(config.runtimeTuning),
    // Test-only (design §10): each injected fault is one line on stderr, which bench:soak counts.
    ...(config.faultStoreWriteEvery !== null ? { faultStoreWriteEvery: config.faultStoreWriteEvery, onStoreWriteFault: (f: Error) => io.err(f.message) } : {}),
    ...(opts.after !== undefined ? { after: opts.after } : {}),
  });
  // Awaited by `fn` or below; this keeps a failure to open from being unhandled meanwhile.
  opening.catch(() => undefined);
  let result: T;
  try {
    result = await fn(opening, config);
  } catch (err) {
    await opening.then(
      (store) => store.close(),
      () => undefined,
    );
    throw err;
  }
  const store = await opening;
  await store.close();
  return result;
}
