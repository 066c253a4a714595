import pLimit from "p-limit";
import type { Evaluation, EvaluationSink } from "../domain/evaluation.js";
import { extractInteraction } from "../extract/interaction.js";
import { judgePromptVersion } from "../judges/promptVersion.js";
import type { Judge } from "../judges/types.js";
import { evaluationsOf } from "../scoring/evaluations.js";
import { type ScoredTrace, scoreTrace, traceRows } from "../scoring/trace.js";
import type { Store } from "../store/client.js";
import { forgottenAmong } from "../store/forgotten.js";
import { goldenItemsFor } from "../store/golden.js";
import { type ClaimInsert, type InteractionInsert, type ScoreInsert, saveResults } from "../store/results.js";
import { loadTraces, settledTraces } from "../store/spans.js";

/** Settings of the scoring loop. */
export interface ScoringSettings {
  readonly judge: Judge;
  /** k values of recall@k. */
  readonly ks: readonly number[];
  /** Quiet window after a trace's last span, ms (`RAGMETER_QUIET_MS`). */
  readonly quietMs: number;
  /** LLM-judge sampling rate of live traffic, 0–1. */
  readonly liveSampleRate: number;
  /** Traces scored at once. */
  readonly concurrency: number;
  /** Traces taken per pass. */
  readonly batchSize: number;
  /** Receives a `gen_ai.evaluation.result` per stored score row (`RAGMETER_EVALUATION_EXPORT_ENDPOINT`). */
  readonly evaluations?: EvaluationSink | null;
}

/**
 * A full pass of the scoring loop (design §6): finds the settled, not yet scored traces in the
 * store (a scan of the spans table — run at start-up and now and then, so a restart or a rebalance
 * finds the traces another instance wrote but did not score) and scores them.
 * @param now the clock, ms since the epoch.
 * @returns the traces scored in this pass.
 */
export async function scoreSettledTraces(store: Store, settings: ScoringSettings, now: number): Promise<ScoredTrace[]> {
  const promptVersion = judgePromptVersion(settings.judge);
  const settled = await settledTraces(store, { quietMs: settings.quietMs, promptVersion, now, limit: settings.batchSize });
  return scoreTraces(
    store,
    settings,
    settled.map((s) => s.trace_id),
  );
}

/**
 * Builds and scores the interactions of the given traces and writes interactions, scores and
 * claims. Keys make a repeated call harmless (one row per key after FINAL). A trace forgotten in the
 * meantime (`ragmeter forget`) is left out, so its blanked interaction is never rebuilt.
 * @returns the traces scored.
 */
export async function scoreTraces(store: Store, settings: ScoringSettings, requested: readonly string[]): Promise<ScoredTrace[]> {
  const forgotten = await forgottenAmong(store, requested);
  const traceIds = forgotten.size === 0 ? requested : requested.filter((id) => !forgotten.has(id));
  if (traceIds.length === 0) return [];
  const promptVersion = judgePromptVersion(settings.judge);
  const traces = await loadTraces(store, traceIds);
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
        const item = pre.run_id !== null && pre.golden_id !== null ? (golden.get(`${pre.run_id}\u0000${pre.golden_id}`) ?? null) : null;
        return scoreTrace(id, t.spans, t.logs, { judge: settings.judge, ks: settings.ks, liveSampleRate: settings.liveSampleRate, golden: item }, pre);
      }),
    ),
  );
  const batch: { interactions: InteractionInsert[]; scores: ScoreInsert[]; claims: ClaimInsert[] } = { interactions: [], scores: [], claims: [] };
  const sink = settings.evaluations ?? null;
  const evaluations: Evaluation[] = [];
  for (const s of scored) {
    const rows = traceRows(s, settings.judge, settings.ks, promptVersion);
    batch.interactions.push(rows.interaction);
    batch.scores.push(...rows.scores);
    batch.claims.push(...rows.claims);
    if (sink) evaluations.push(...evaluationsOf(rows, s.interaction.spans));
  }
  await saveResults(store, batch);
  // Emitted once stored: every event is a stored score.
  sink?.emit(evaluations);
  return scored;
}
