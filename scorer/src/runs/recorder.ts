import type { EvaluatedSpans, Evaluation, EvaluationSink } from "@ragmeter/core/domain/evaluation";
import type { QuestionResult } from "@ragmeter/core/domain/result";
import type { ClaimInsert, InteractionInsert, ScoreInsert } from "@ragmeter/core/domain/rows";
import type { PriceTable } from "@ragmeter/core/judges/session/cost";
import { createJudgeSession, type JudgeSession } from "@ragmeter/core/judges/session/session";
import type { Judge } from "@ragmeter/core/judges/types";
import { evaluationsOf } from "@ragmeter/core/scoring/evaluations";
import { resultRows } from "@ragmeter/core/scoring/rows";
import type { GoldenSet } from "@ragmeter/golden";
import type { Store } from "@ragmeter/store/client";
import { saveGoldenSet } from "@ragmeter/store/golden";
import { storeJudgeCache } from "@ragmeter/store/judgeCache";
import { saveResults } from "@ragmeter/store/results";
import { type RunRecord, saveRun } from "@ragmeter/store/runs";
import type { QuestionDigest } from "./digest.js";
import { completeRun, type EvalOutcome, type NewRun, planRun } from "./summary.js";
import type { Target, TargetResult } from "./target.js";
import { baggage, newTraceIds, traceparent } from "./traceContext.js";

/**
 * When buffered rows are written: at `maxRows` rows, or `intervalMs` after the first buffered row;
 * after a write, the embedded engine's freed memory is released ({@link Store.releaseMemory}) when
 * the last release is `releaseMs` or more ago.
 */
interface FlushPolicy {
  readonly maxRows: number;
  readonly intervalMs: number;
  readonly releaseMs?: number;
}

/**
 * Default flush policy: a few thousand rows per insert, never more than a second behind; memory
 * released at most once a second. The embedded engine's cost is mostly per insert, and the parts it
 * writes are merged again in the background: for 2,000 questions at 1,000 rows a batch, 75 inserts
 * took 1.3 s of engine CPU and the merges 1.0 s; at 4,000 rows (the interval then decides: about a
 * second's results per batch) the merges take half of that and eval's CPU is 7 % lower. Peak RSS at
 * 20,000 questions: 1,000 rows 384 MiB, 4,000 390, 10,000 407 (issue 12's goal is 500), with the
 * startup pages released once the store is open (without: 479–498 MiB at 1,000 rows).
 */
const DEFAULT_FLUSH: FlushPolicy = { maxRows: 4000, intervalMs: 1000, releaseMs: 1000 };

/** What a run's summary needs besides its results (see {@link RunRecorder.complete}). */
interface CompleteOptions {
  /** What the summary keeps of each question, in golden order. */
  readonly questions: readonly QuestionDigest[];
  /** The full results in the same order when kept (`--json`), else null. */
  readonly results: readonly QuestionResult[] | null;
  readonly repeat: number;
  readonly useCache: boolean;
  readonly warnings: readonly string[];
  readonly now: () => number;
}

/**
 * One run being recorded (eval, eval --via-traces, replay): its judge session, its row, and a
 * buffer of result rows written in batches by size and interval (the model is langfuse's
 * ClickhouseWriter), flushed on completion and on close.
 */
export interface RunRecorder {
  readonly run: RunRecord;
  /** The session's judge (cache, budget, meter): score with this one. */
  readonly judge: Judge;
  readonly session: JudgeSession;
  /**
   * Buffers the rows of one question result; `spans`: the spans its scores evaluate (the
   * evaluation export's trace context). @throws the error of an earlier background flush.
   */
  record(q: QuestionResult, spans?: EvaluatedSpans | null): Promise<void>;
  /** Writes the buffered rows now. */
  flush(): Promise<void>;
  /** Flushes, marks the run completed (or failed) with its summary and pairs it with the previous comparable run. */
  complete(o: CompleteOptions): Promise<EvalOutcome>;
  /** Flushes and stops the interval timer (shutdown, or a run that ends in an error). */
  close(): Promise<void>;
}

/** Options of {@link startRecorder}. */
export interface RecorderOptions {
  readonly store: Store;
  /** The judge to score with (wrapped in a session). */
  readonly judge: Judge;
  readonly ks: readonly number[];
  /** The judge cache is used (`--no-cache` or `--repeat` > 1 turn it off). */
  readonly cache: boolean;
  readonly prices: PriceTable | null;
  readonly maxCostUsd: number | null;
  /** The golden set, saved before the run starts (none for replay). */
  readonly golden: GoldenSet | null;
  readonly run: Omit<NewRun, "judge" | "ks">;
  /** The run's row when planned beforehand ({@link planRun}, from the same `run`, judge and ks); stored as it is. */
  readonly planned?: RunRecord;
  readonly flush?: FlushPolicy;
  /** Receives a `gen_ai.evaluation.result` per score row once its batch is stored. */
  readonly evaluations?: EvaluationSink | null;
}

/**
 * Starts a run: a judge session, the golden set saved, the run row in state `running`, and a row
 * buffer.
 */
export async function startRecorder(o: RecorderOptions): Promise<RunRecorder> {
  const { store, ks } = o;
  const session = createJudgeSession(o.judge, { cache: o.cache ? storeJudgeCache(store) : null, prices: o.prices, maxCostUsd: o.maxCostUsd });
  const judge = session.judge;
  if (o.golden) await saveGoldenSet(store, o.golden);
  const run = o.planned ?? planRun({ ...o.run, judge, ks });
  await saveRun(store, run);
  const policy = o.flush ?? DEFAULT_FLUSH;
  let interactions: InteractionInsert[] = [];
  let scores: ScoreInsert[] = [];
  let claims: ClaimInsert[] = [];
  let evaluations: Evaluation[] = [];
  const sink = o.evaluations ?? null;
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  // Batches handed to the store and not yet written: a question waits only when the store is two behind.
  let pending = 0;
  let released = Date.now();
  const release = async (): Promise<void> => {
    if (Date.now() - released < (policy.releaseMs ?? DEFAULT_FLUSH.releaseMs ?? 1000)) return;
    await store.releaseMemory();
    released = Date.now();
  };

  const size = (): number => interactions.length + scores.length + claims.length;
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (size() > 0) {
      const batch = { interactions, scores, claims };
      const events = evaluations;
      interactions = [];
      scores = [];
      claims = [];
      evaluations = [];
      // Writes run one after another, in the order the rows were recorded; events follow a stored batch.
      pending++;
      writing = writing
        .then(() => saveResults(store, batch))
        .then(() => sink?.emit(events))
        .then(release)
        .catch((err: unknown) => {
          failure ??= err;
        })
        .finally(() => {
          pending--;
        });
    }
    return writing.then(() => {
      if (failure !== null) throw failure;
    });
  };

  return {
    run,
    judge,
    session,
    async record(q, spans) {
      if (failure !== null) throw failure;
      const rows = resultRows(run, q, judge, ks);
      interactions.push(rows.interaction);
      scores.push(...rows.scores);
      claims.push(...rows.claims);
      if (sink) evaluations.push(...evaluationsOf(rows, spans ?? null));
      if (size() >= policy.maxRows) {
        // Write in the background; wait (backpressure) only when an earlier batch is still being written.
        const written = flush();
        if (pending > 1) await written;
        else written.catch(() => undefined);
      } else timer ??= setTimeout(() => void flush().catch(() => undefined), policy.intervalMs);
    },
    flush,
    async complete(c) {
      await flush();
      return completeRun({
        store,
        run,
        questions: c.questions,
        results: c.results,
        ks,
        judge,
        stats: session.stats(),
        repeat: c.repeat,
        useCache: c.useCache,
        warnings: c.warnings,
        now: c.now,
        goldenItems: o.golden?.items ?? null,
      });
    },
    async close() {
      await flush();
    },
  };
}

/**
 * The target's reply as the answer source: asks `question` with a fresh `traceparent` and a
 * `baggage` of run id, key (golden id, or the original trace id of a replay) and pipeline version;
 * returns the trace id and the spans its scores evaluate (the `traceparent` span).
 */
export async function askTarget(
  target: Target,
  run: RunRecord,
  key: string,
  question: string,
  cancel?: AbortSignal,
): Promise<{ readonly traceId: string; readonly spans: EvaluatedSpans; readonly result: TargetResult }> {
  const ids = newTraceIds();
  const result = await target.ask(
    question,
    { traceparent: traceparent(ids), baggage: baggage(run.run_id, key, run.pipeline_version) },
    { golden_id: key, run_id: run.run_id },
    cancel,
  );
  return { traceId: ids.traceId, spans: requestSpans(ids.spanId), result };
}

/** The spans of a question answered directly: its every score evaluates the request ragmeter sent (the `traceparent` span id). */
function requestSpans(spanId: string): EvaluatedSpans {
  return { retrieval: null, generation: null, root: spanId };
}
