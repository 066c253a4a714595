import type { EvaluationSink } from "@ragmeter/core/domain/evaluation";
import type { QuestionResult } from "@ragmeter/core/domain/result";
import type { Judge } from "@ragmeter/core/judges/types";
import type { GoldenItem, GoldenSet } from "@ragmeter/golden";
import type { Store } from "@ragmeter/store/client";
import { scoreTargetResult } from "./answers.js";
import { askAhead } from "./askAhead.js";
import { questionDigester } from "./digest.js";
import { askTarget, openRun, planRun } from "./recorder.js";
import type { RunSpec } from "./spec.js";
import type { EvalOutcome } from "./summary.js";
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

/** Options of {@link runEval}: the run's specification (a golden source) and what answers and records it. */
export interface EvalOptions {
  /** The run: golden set, pipeline version, ks, repeat, cache, cost cap, prices ({@link runSpec}). */
  readonly spec: RunSpec;
  readonly target: Target;
  /** Questions in flight at once. */
  readonly concurrency: number;
  readonly judge: Judge;
  /** The store, or its opening (questions are asked meanwhile, see {@link ASK_AHEAD}). */
  readonly store: Store | Promise<Store>;
  /** Called after each question (progress bar). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Clock for run timestamps (tests); default `Date.now`. */
  readonly now?: () => number;
  /** Receives a `gen_ai.evaluation.result` per stored score (`RAGMETER_EVALUATION_EXPORT_ENDPOINT`). */
  readonly evaluations?: EvaluationSink | null;
  /**
   * Keep every full result (answers, contexts, claims) for the outcome (default true; `--json`
   * needs them). When false the run holds only each question's digest, so memory stays bounded.
   */
  readonly keepResults?: boolean;
}

/**
 * The golden set of a golden run's specification whose answers come from the target's replies
 * (`viaTraces` false: {@link runEval}) or its spans (true: `runEvalViaTraces`).
 * @throws TypeError for another source (a caller's bug).
 */
export function goldenOf(spec: RunSpec, viaTraces: boolean): GoldenSet {
  const s = spec.source;
  if (s.kind !== "golden" || s.viaTraces !== viaTraces)
    throw new TypeError(
      `this run reads a golden set ${viaTraces ? "via traces" : "from replies"}; the spec says ${s.kind}${s.kind === "golden" && s.viaTraces ? " via traces" : ""}`,
    );
  return s.set;
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
  const { spec } = options;
  const { ks, repeat, pipelineVersion } = spec;
  const golden = goldenOf(spec, false);
  const now = options.now ?? Date.now;
  // The run's id goes out in every question's baggage, so it is known before the store is open.
  const planned = planRun(spec, options.judge, now());
  const opening = Promise.resolve(options.store).then((store) => openRun(spec, { store, judge: options.judge, planned, now, evaluations: options.evaluations ?? null }));
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
        if (res.ok && res.reply.pipeline_version !== null && res.reply.pipeline_version !== pipelineVersion) {
          warnings.add(`the target reports pipeline version "${res.reply.pipeline_version}"; recorded as "${pipelineVersion}" (--pipeline-version wins)`);
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
    return await rec.complete({ questions, results: kept, warnings: [...warnings] });
  } finally {
    await opening.then(
      (r) => r.close(),
      () => undefined,
    );
  }
}
