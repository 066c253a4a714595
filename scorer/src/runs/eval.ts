import type { EvaluationSink } from "@ragmeter/core/domain/evaluation";
import type { QuestionResult } from "@ragmeter/core/domain/result";
import type { PriceTable } from "@ragmeter/core/judges/session/cost";
import type { Judge } from "@ragmeter/core/judges/types";
import type { GoldenItem, GoldenSet } from "@ragmeter/golden";
import type { Store } from "@ragmeter/store/client";
import { scoreTargetResult } from "./answers.js";
import { askAhead } from "./askAhead.js";
import { questionDigester } from "./digest.js";
import { askTarget, startRecorder } from "./recorder.js";
import { type EvalOutcome, planRun } from "./summary.js";
import type { Target } from "./target.js";

export type { EvalOutcome } from "./summary.js";

/**
 * Answers parked while the store opens (loading the embedded engine and migrating a fresh store
 * takes ≈ 0.3–0.7 s, a second or more under load): the target answers them meanwhile instead of
 * idling, and they are judged and stored once it is open (issue 12).
 */
const ASK_AHEAD = 256;

/**
 * Questions handed ahead to a target that queues its own calls ({@link Target.inFlight}, the
 * client thread of `--target` and `--target-config`): it keeps `inFlight` questions at the target
 * and sends the next one the moment an answer arrives, from up to this many waiting, while the main
 * thread judges and stores (blocks of 20–140 ms, the longest while the engine loads). 2,000
 * questions against the sample target: the target idled 0.40–0.53 s inside the run with every
 * question asked from the main thread, 0.09–0.11 s this way (issue 12).
 */
const ASK_LOOKAHEAD = 64;

/** Options of {@link runEval}. */
export interface EvalOptions {
  readonly golden: GoldenSet;
  readonly target: Target;
  readonly pipelineVersion: string;
  /** k values of recall@k, ascending (default 1, 3, 5, 10). */
  readonly ks: readonly number[];
  /** Questions in flight at once. */
  readonly concurrency: number;
  readonly judge: Judge;
  /** The store, or its opening (questions are asked meanwhile, see {@link ASK_AHEAD}). */
  readonly store: Store | Promise<Store>;
  /** Called after each question (progress bar). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Clock for run timestamps (tests); default `Date.now`. */
  readonly now?: () => number;
  /** Runs of each judge per question (`--repeat N`, default 1); N > 1 bypasses the judge cache. */
  readonly repeat?: number;
  /** Use the judge cache (LLM judges; default true; `--no-cache` sets false). */
  readonly cache?: boolean;
  /** Stop judging once the run's estimated judge cost reaches this (USD, `--max-cost`). */
  readonly maxCostUsd?: number | null;
  /** Price table (`RAGMETER_PRICES`) for the cost estimate. */
  readonly prices?: PriceTable | null;
  /** Receives a `gen_ai.evaluation.result` per stored score (`RAGMETER_EVALUATION_EXPORT_ENDPOINT`). */
  readonly evaluations?: EvaluationSink | null;
  /**
   * Keep every full result (answers, contexts, claims) for the outcome (default true; `--json`
   * needs them). When false the run holds only each question's digest, so memory stays bounded.
   */
  readonly keepResults?: boolean;
}

/**
 * Replays a golden set against a target and scores it (design §2, golden replay): each question is
 * sent with a fresh `traceparent` and a `baggage` of run id, golden id and pipeline version; a
 * failed call is `target_error` for that question and the run goes on. The run recorder writes the
 * results in batches as questions complete; the run row is marked completed with its summary at the
 * end, and compared (paired) with the previous comparable run.
 * @throws store errors (infrastructure); never for a single question's failure.
 */
export async function runEval(options: EvalOptions): Promise<EvalOutcome> {
  const { golden, ks } = options;
  const repeat = Math.max(1, options.repeat ?? 1);
  const useCache = (options.cache ?? true) && repeat === 1;
  const now = options.now ?? Date.now;
  const newRun = {
    source: "golden" as const,
    pipelineVersion: options.pipelineVersion,
    goldenSetHash: golden.sha256,
    goldenSetPath: golden.path,
    target: options.target.description,
    startedAt: now(),
  };
  // The run's id goes out in every question's baggage, so it is known before the store is open.
  const planned = planRun({ ...newRun, judge: options.judge, ks });
  const opening = Promise.resolve(options.store).then((store) =>
    startRecorder({
      store,
      judge: options.judge,
      ks,
      cache: useCache,
      prices: options.prices ?? null,
      maxCostUsd: options.maxCostUsd ?? null,
      golden,
      evaluations: options.evaluations ?? null,
      run: newRun,
      planned,
    }),
  );
  try {
    const warnings = new Set<string>();
    let done = 0;
    const digest = questionDigester(ks, golden.items);
    const kept: QuestionResult[] | null = (options.keepResults ?? true) ? new Array(golden.items.length) : null;
    const questions = await askAhead(golden.items, {
      askers: options.target.inFlight !== undefined ? options.target.inFlight + ASK_LOOKAHEAD : options.concurrency,
      finishers: options.concurrency,
      backlog: ASK_AHEAD,
      ready: opening,
      ask: (item: GoldenItem, _i, cancel) => askTarget(options.target, planned, item.id, item.question, cancel),
      finish: async ({ traceId, spans, result: res }, item: GoldenItem, i) => {
        // Resolved by now: askAhead finishes nothing before `opening` has resolved.
        const rec = await opening;
        const judge = rec.judge;
        if (res.ok && res.reply.pipeline_version !== null && res.reply.pipeline_version !== options.pipelineVersion) {
          warnings.add(`the target reports pipeline version "${res.reply.pipeline_version}"; recorded as "${options.pipelineVersion}" (--pipeline-version wins)`);
        }
        if (res.ok && judge.metered && res.reply.model === judge.model) {
          warnings.add(`the judge model "${judge.model}" is also the generator model: self-preference bias is likely`);
        }
        const q = await scoreTargetResult(item, traceId, res, judge, ks, { repeat });
        await rec.record(q, spans);
        if (kept) kept[i] = q;
        done++;
        options.onProgress?.(done, golden.items.length);
        return digest(q);
      },
    });
    const rec = await opening;
    return await rec.complete({ questions, results: kept, repeat, useCache, warnings: [...warnings], now });
  } finally {
    await opening.then(
      (r) => r.close(),
      () => undefined,
    );
  }
}
