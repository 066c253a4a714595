import { setImmediate } from "node:timers/promises";
import type { Evaluation, EvaluationSink } from "@ragmeter/core/domain/evaluation";
import { extractInteraction } from "@ragmeter/core/extract/interaction";
import { judgePromptVersion } from "@ragmeter/core/judges/promptVersion";
import type { Judge } from "@ragmeter/core/judges/types";
import type { JudgeBudget } from "@ragmeter/core/scoring/budget";
import { evaluationsOf } from "@ragmeter/core/scoring/evaluations";
import { type ScoredTrace, scoreTrace, traceRows } from "@ragmeter/core/scoring/trace";
import type { Store } from "@ragmeter/store/client";
import { forgottenAmong } from "@ragmeter/store/forgotten";
import { goldenItemsFor } from "@ragmeter/store/golden";
import { type ClaimInsert, type InteractionInsert, type ScoreInsert, saveResults } from "@ragmeter/store/results";
import { loadTraces, settledTraces, storedRowCounts } from "@ragmeter/store/spans";
import pLimit from "p-limit";
import type { HeldTrace, HeldTraceSource } from "./held.js";

/**
 * Traces one batch of a scoring pass takes, by judge: 5,000 with an unmetered judge (no judge cost,
 * and each batch costs a fixed round of statements and inserts: bench:scorer at 30,000 traces did
 * 2,486–2,539 traces/s in batches of 500, 3,131–3,133 of 1,000 and 3,453–3,468 of 5,000), 500 with
 * a metered judge (an LLM) (a batch's results are written once all of it is judged, so fewer judge calls wait
 * to be stored; the judge stays busy across batches, two are scored at a time).
 */
export function passBatchSize(judge: Judge): number {
  return judge.metered ? 500 : 5000;
}

/** Settings of the scoring loop. */
export interface ScoringSettings {
  readonly judge: Judge;
  /** k values of recall@k. */
  readonly ks: readonly number[];
  /** Quiet window after a trace's last span, ms (`RAGMETER_QUIET_MS`). */
  readonly quietMs: number;
  /** LLM-judge sampling rate of live traffic, 0–1. */
  readonly liveSampleRate: number;
  /** Per-service overrides of `liveSampleRate`, by `service.name`. */
  readonly liveSampleRates?: Readonly<Record<string, number>>;
  /** The judge budget of live traffic (one per scorer process), or none. */
  readonly budget?: JudgeBudget | null;
  /** Traces scored at once. */
  readonly concurrency: number;
  /** Traces taken per pass. */
  readonly batchSize: number;
  /**
   * How long the scoring loop lets a trace past its quiet window wait at most for others to share
   * its batch (whose rows are one insert per table), ms (`RAGMETER_SCORER_BATCH_MAX_WAIT_MS`); a full
   * batch goes at once. Default 0: a batch of whatever is due.
   */
  readonly batchWaitMs?: number;
  /** Receives a `gen_ai.evaluation.result` per stored score row (`RAGMETER_EVALUATION_EXPORT_ENDPOINT`). */
  readonly evaluations?: EvaluationSink | null;
}

/**
 * A full pass of the scoring loop (design §6): finds the settled, not yet scored traces in the
 * store (a scan of the spans table — run at start-up and now and then, so a restart or a rebalance
 * finds the traces another instance wrote but did not score) and scores them.
 * @param now the clock, ms since the epoch.
 * @param settleMs how long ago a trace's last span must have arrived (default: the quiet window).
 * @returns the traces scored in this pass.
 */
export async function scoreSettledTraces(store: Store, settings: ScoringSettings, now: number, settleMs: number = settings.quietMs): Promise<ScoredTrace[]> {
  const promptVersion = judgePromptVersion(settings.judge);
  const settled = await settledTraces(store, { quietMs: settleMs, promptVersion, now, limit: settings.batchSize });
  return scoreTraces(
    store,
    settings,
    settled.map((s) => s.trace_id),
  );
}

/**
 * The given traces' spans and log records: from `held` for each trace whose stored row counts
 * (one query on the key column) equal the held ones — the store then has exactly what was held —
 * and read back from the store for the others (not held, or the store has rows this process did
 * not hold: written by another process, or a span stored twice).
 */
async function tracesOf(store: Store, traceIds: readonly string[], held: HeldTraceSource | null): Promise<Map<string, HeldTrace>> {
  if (held === null) return loadTraces(store, traceIds);
  const fromMemory = new Map<string, HeldTrace>();
  for (const id of traceIds) {
    const t = held.get(id);
    if (t !== null) fromMemory.set(id, t);
  }
  if (fromMemory.size === 0) return loadTraces(store, traceIds);
  const counts = await storedRowCounts(store, [...fromMemory.keys()]);
  const matches = (id: string, t: HeldTrace): boolean => counts.get(id)?.spans === t.spans.length && counts.get(id)?.logs === t.logs.length;
  for (const [id, t] of fromMemory) if (!matches(id, t)) fromMemory.delete(id);
  const readBack = traceIds.filter((id) => !fromMemory.has(id));
  const stored = readBack.length > 0 ? await loadTraces(store, readBack) : new Map<string, HeldTrace>();
  // In the requested order, as loadTraces gives them (it has an entry for every id it was asked).
  return new Map(traceIds.map((id) => [id, fromMemory.get(id) ?? (stored.get(id) as HeldTrace)]));
}

/** Traces scored and their rows, not yet written ({@link prepareTraces}, {@link saveScored}). */
export interface PreparedScores {
  readonly scored: ScoredTrace[];
  readonly batch: { interactions: InteractionInsert[]; scores: ScoreInsert[]; claims: ClaimInsert[] };
  readonly evaluations: Evaluation[];
}

/**
 * Builds and scores the interactions of the given traces (judge calls included) and their rows,
 * without writing them. A trace forgotten in the meantime (`ragmeter forget`) is left out, so its
 * blanked interaction is never rebuilt.
 * @param held traces as this process wrote them (see {@link tracesOf}); null reads every trace back.
 */
export async function prepareTraces(store: Store, settings: ScoringSettings, requested: readonly string[], held: HeldTraceSource | null = null): Promise<PreparedScores> {
  const forgotten = await forgottenAmong(store, requested);
  const traceIds = forgotten.size === 0 ? requested : requested.filter((id) => !forgotten.has(id));
  const batch: PreparedScores["batch"] = { interactions: [], scores: [], claims: [] };
  const evaluations: Evaluation[] = [];
  if (traceIds.length === 0) return { scored: [], batch, evaluations };
  const promptVersion = judgePromptVersion(settings.judge);
  const traces = await tracesOf(store, traceIds, held);
  const extracted = [...traces].map(([id, t]) => ({ id, t, interaction: extractInteraction(id, t.spans, t.logs) }));
  const pairs: { run_id: string; golden_id: string }[] = [];
  for (const { interaction: i } of extracted) {
    if (i.run_id !== null && i.golden_id !== null) pairs.push({ run_id: i.run_id, golden_id: i.golden_id });
  }
  const golden = await goldenItemsFor(store, pairs);
  const limit = pLimit(Math.max(1, settings.concurrency));
  const scored = await Promise.all(
    extracted.map(({ id, t, interaction: pre }) =>
      limit(async () => {
        // The event loop's turn between traces: a no-LLM judge scores a trace in a few ms of this
        // thread, and a batch of them in one stretch held back the requests and writes meanwhile.
        await setImmediate();
        const item = pre.run_id !== null && pre.golden_id !== null ? (golden.get(`${pre.run_id}\u0000${pre.golden_id}`) ?? null) : null;
        return scoreTrace(
          id,
          t.spans,
          t.logs,
          {
            judge: settings.judge,
            ks: settings.ks,
            liveSampleRate: settings.liveSampleRate,
            ...(settings.liveSampleRates !== undefined ? { liveSampleRates: settings.liveSampleRates } : {}),
            budget: settings.budget ?? null,
            golden: item,
          },
          pre,
        );
      }),
    ),
  );
  const sink = settings.evaluations ?? null;
  for (const s of scored) {
    const rows = traceRows(s, settings.judge, settings.ks, promptVersion);
    batch.interactions.push(rows.interaction);
    batch.scores.push(...rows.scores);
    batch.claims.push(...rows.claims);
    if (sink) evaluations.push(...evaluationsOf(rows, s.interaction.spans));
  }
  return { scored, batch, evaluations };
}

/**
 * Writes what {@link prepareTraces} built (interactions, scores, claims), then emits its
 * evaluation events. Keys make a repeated call harmless (one row per key after FINAL).
 * @returns the traces scored.
 */
export async function saveScored(store: Store, settings: ScoringSettings, prepared: PreparedScores): Promise<ScoredTrace[]> {
  if (prepared.scored.length === 0) return [];
  await saveResults(store, prepared.batch);
  // Emitted once stored: every event is a stored score.
  settings.evaluations?.emit(prepared.evaluations);
  return prepared.scored;
}

/**
 * Builds, scores and writes the interactions of the given traces ({@link prepareTraces} then
 * {@link saveScored}).
 * @returns the traces scored.
 */
export async function scoreTraces(store: Store, settings: ScoringSettings, requested: readonly string[], held: HeldTraceSource | null = null): Promise<ScoredTrace[]> {
  return saveScored(store, settings, await prepareTraces(store, settings, requested, held));
}
