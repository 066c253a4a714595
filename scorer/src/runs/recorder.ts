import { randomBytes } from "node:crypto";
import type { EvaluatedSpans, Evaluation, EvaluationSink } from "@ragmeter/core/domain/evaluation";
import type { QuestionResult } from "@ragmeter/core/domain/result";
import type { ClaimInsert, InteractionInsert, ScoreInsert } from "@ragmeter/core/domain/rows";
import { judgePromptVersion } from "@ragmeter/core/judges/promptVersion";
import { createJudgeSession, type JudgeSession } from "@ragmeter/core/judges/session/session";
import type { Judge } from "@ragmeter/core/judges/types";
import { evaluationsOf } from "@ragmeter/core/scoring/evaluations";
import { resultRows } from "@ragmeter/core/scoring/rows";
import type { Store } from "@ragmeter/store/client";
import { saveGoldenSet } from "@ragmeter/store/golden";
import { storeJudgeCache } from "@ragmeter/store/judgeCache";
import { saveResults } from "@ragmeter/store/results";
import { type RunRecord, saveRun } from "@ragmeter/store/runs";
import type { QuestionDigest } from "./digest.js";
import { type RunSpec, runIdentity } from "./spec.js";
import { completeRun, type EvalOutcome } from "./summary.js";
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

/** What a run's summary needs besides its results and its specification (see {@link RunRecorder.complete}). */
interface CompleteOptions {
  /** What the summary keeps of each question, in golden order. */
  readonly questions: readonly QuestionDigest[];
  /** The full results in the same order when kept (`--json`), else null. */
  readonly results: readonly QuestionResult[] | null;
  readonly warnings: readonly string[];
}

/**
 * One run being recorded (eval, eval --via-traces, replay: sources of answers feeding it): its
 * specification, judge session, row, and a buffer of result rows written in batches by size and
 * interval (the model is langfuse's ClickhouseWriter), flushed on completion and on close.
 */
export interface RunRecorder {
  readonly spec: RunSpec;
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

/** What a run is recorded with, besides its specification. */
export interface RunDeps {
  readonly store: Store;
  /** The judge to score with (wrapped in a session; its kind, model and prompt version are recorded). */
  readonly judge: Judge;
  /** The run's row when planned beforehand ({@link planRun}, from the same spec and judge); stored as it is. */
  readonly planned?: RunRecord;
  /** A replay's selection: the hash of the replayed trace ids (see {@link runIdentity}); null for a golden run. */
  readonly selectionHash?: string | null;
  /** Clock of the run's timestamps (tests); default `Date.now`. */
  readonly now?: () => number;
  readonly flush?: FlushPolicy;
  /** Receives a `gen_ai.evaluation.result` per score row once its batch is stored. */
  readonly evaluations?: EvaluationSink | null;
}

/** Run ids sort by time: `r-YYYYMMDDTHHMMSS-<6 hex>`. */
function newRunId(now: number): string {
  const t = new Date(now)
    .toISOString()
    .replace(/[-:]/gu, "")
    .replace(/\.\d+Z$/u, "");
  return `r-${t}-${randomBytes(3).toString("hex")}`;
}

/** The row of a new run in state `running`, not yet stored (its id is known before the store is open). */
export function planRun(spec: RunSpec, judge: Judge, startedAt: number, selectionHash: string | null = null): RunRecord {
  const id = runIdentity(spec, selectionHash);
  return {
    run_id: newRunId(startedAt),
    started_at: new Date(startedAt).toISOString(),
    finished_at: null,
    status: "running",
    source: id.source,
    pipeline_version: spec.pipelineVersion,
    golden_set_hash: id.goldenSetHash,
    golden_set_path: id.goldenSetPath,
    judge_kind: judge.kind,
    judge_model: judge.model,
    judge_prompt_version: judgePromptVersion(judge),
    ks: [...spec.ks],
    target: id.target,
    summary: "{}",
  };
}

/**
 * Opens a run: a judge session (cache, prices and cost cap of the spec), the golden set saved, the
 * run row in state `running`, and a row buffer. Its sources (eval, `--via-traces`, replay) only
 * produce answers and call `record` and `complete`.
 */
export async function openRun(spec: RunSpec, deps: RunDeps): Promise<RunRecorder> {
  const { store } = deps;
  const { ks } = spec;
  const now = deps.now ?? Date.now;
  const session = createJudgeSession(deps.judge, { cache: spec.useCache ? storeJudgeCache(store) : null, prices: spec.prices, maxCostUsd: spec.maxCostUsd });
  const judge = session.judge;
  const run = deps.planned ?? planRun(spec, judge, now(), deps.selectionHash ?? null);
  const golden = spec.source.kind === "golden" ? spec.source.set : null;
  if (golden) await saveGoldenSet(store, golden);
  await saveRun(store, run);
  const policy = deps.flush ?? DEFAULT_FLUSH;
  let interactions: InteractionInsert[] = [];
  let scores: ScoreInsert[] = [];
  let claims: ClaimInsert[] = [];
  let evaluations: Evaluation[] = [];
  const sink = deps.evaluations ?? null;
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
    spec,
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
        repeat: spec.repeat,
        useCache: spec.useCache,
        warnings: c.warnings,
        now,
        goldenItems: golden?.items ?? null,
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
