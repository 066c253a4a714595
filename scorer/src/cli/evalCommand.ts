import { writeFile } from "node:fs/promises";
import { loadGoldenSet, type GoldenSet } from "@ragmeter/golden";
import { evalJson } from "../eval/report.js";
import { formatSummary } from "../eval/format.js";
import { runEval, type EvalOutcome } from "../eval/runner.js";
import { httpTarget, type Target } from "../eval/target.js";
import type { Store } from "../store/client.js";
import type { Judge } from "../judges/types.js";
import type { PriceTable } from "../judges/cost.js";
import { createProgress } from "./progress.js";
import { judgeFor, withStore, type Io } from "./context.js";

/** Flags of `ragmeter eval`. */
export interface EvalFlags {
  readonly golden: string;
  readonly target: string;
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
}

/** Judge options shared by `eval` and `demo`. */
export interface JudgeRunFlags {
  readonly cache?: boolean;
  readonly repeat?: number;
  readonly maxCost?: number;
}

/** Exit codes (design §5). */
export const EXIT = { done: 0, gate: 1, usage: 2 } as const;

/**
 * Runs one evaluation and prints its summary; shared by `eval` and `demo`.
 * @returns the outcome, or null for an empty golden set (`empty_golden_set` printed).
 */
export async function evaluateAndReport(
  io: Io,
  store: Store,
  judge: Judge,
  golden: GoldenSet,
  target: Target,
  opts: { pipelineVersion: string; ks: readonly number[]; concurrency: number; json?: string | undefined; judging?: JudgeRunFlags; prices?: PriceTable | null },
): Promise<EvalOutcome | null> {
  if (golden.items.length === 0) {
    io.err(`${golden.path}: empty_golden_set — the golden set has no items; nothing was scored`);
    return null;
  }
  const progress = createProgress(io.interactive, `eval ${opts.pipelineVersion}`);
  let outcome: EvalOutcome;
  try {
    outcome = await runEval({
      golden,
      target,
      pipelineVersion: opts.pipelineVersion,
      ks: opts.ks,
      concurrency: opts.concurrency,
      judge,
      store,
      onProgress: (d, t) => progress.update(d, t),
      repeat: opts.judging?.repeat ?? 1,
      cache: opts.judging?.cache ?? true,
      maxCostUsd: opts.judging?.maxCost ?? null,
      prices: opts.prices ?? null,
    });
  } finally {
    progress.stop();
  }
  io.out(formatSummary(outcome, store.location));
  if (opts.json) {
    await writeFile(opts.json, `${JSON.stringify(evalJson(outcome), null, 2)}\n`);
    io.out(`json report: ${opts.json}`);
  }
  return outcome;
}

/** `ragmeter eval`: replay a golden set against an HTTP target, score, store, print. Returns the exit code. */
export async function evalCommand(io: Io, flags: EvalFlags): Promise<number> {
  const golden = await loadGoldenSet(flags.golden);
  return withStore(io, flags, async (store, config) => {
    const outcome = await evaluateAndReport(io, store, judgeFor(config), golden, httpTarget(flags.target, config.targetTimeoutMs), {
      pipelineVersion: flags.pipelineVersion,
      ks: flags.k,
      concurrency: flags.concurrency,
      json: flags.json,
      judging: flags,
      prices: config.prices,
    });
    if (outcome === null) return EXIT.usage;
    if (flags.maxErrorRate !== undefined && outcome.errorRate > flags.maxErrorRate) {
      io.err(`gate failed: target error rate ${outcome.errorRate.toFixed(3)} > --max-error-rate ${flags.maxErrorRate}`);
      return EXIT.gate;
    }
    return EXIT.done;
  });
}
