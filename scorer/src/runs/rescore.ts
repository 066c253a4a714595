import { extractInteraction, type Interaction } from "@ragmeter/core/extract/interaction";
import { judgePromptVersion } from "@ragmeter/core/judges/promptVersion";
import type { Store } from "@ragmeter/store/client";
import { dropOtherVersions, type StoredReading, storedReadings, type TraceScore, traceScores } from "@ragmeter/store/rescore";
import { loadTraces } from "@ragmeter/store/spans";
import { prepareTraces, type ScoringSettings, saveScored } from "@ragmeter/stream/loop";

/** What a reading holds that the scores depend on. */
export type ReadingField = "question" | "retrieved" | "answer" | "model" | "tokens";

/** A trace whose reading changed, with its scores before and (unless a dry run) after. */
interface RescoredTrace {
  readonly trace_id: string;
  readonly fields: readonly ReadingField[];
  readonly before: readonly TraceScore[];
  /** Null on a dry run. */
  readonly after: readonly TraceScore[] | null;
}

/** What `ragmeter rescore` did. */
export interface RescoreReport {
  readonly service: string;
  readonly since: string;
  readonly dry_run: boolean;
  /** Stored traces of the service since `since` that were read again. */
  readonly traces: number;
  /** Their stored spans are gone (forgotten or past retention): cannot be read again. */
  readonly without_spans: number;
  readonly changed: readonly RescoredTrace[];
  readonly judge_prompt_version: string;
}

/** Traces read back per batch. */
const BATCH = 500;

/** The fields in which today's reading of a trace differs from the stored one (same mapping as the stored row, design §4). */
export function changedFields(stored: StoredReading, now: Interaction): ReadingField[] {
  const out: ReadingField[] = [];
  if ((now.question ?? "") !== stored.question) out.push("question");
  const items = (now.retrieved ?? []).map((d) => ({ id: d.id ?? "", document_id: d.document_id ?? d.id ?? "", text: d.text ?? "", score: d.score }));
  if (JSON.stringify(items) !== JSON.stringify(stored.retrieved.map((d) => ({ id: d.id, document_id: d.document_id, text: d.text, score: d.score })))) out.push("retrieved");
  if ((now.answer ?? "") !== (stored.answer ?? "")) out.push("answer");
  if (now.generator_model !== stored.generator_model) out.push("model");
  if (now.input_tokens !== stored.input_tokens || now.output_tokens !== stored.output_tokens) out.push("tokens");
  return out;
}

/**
 * Re-reads the stored spans of a service's traces since a date with today's readers, and re-scores
 * those whose reading changed (issue 28): their interaction, scores and claims are written again
 * under the current judge prompt version (one row per key: the old rows of that version are
 * replaced, those of other versions in the same run removed, so no trace is counted twice), keeping
 * the time each was first scored. Traces whose reading is unchanged are left alone. A dry run only compares.
 */
export async function rescore(store: Store, settings: ScoringSettings, o: { service: string; since: Date; dryRun: boolean }): Promise<RescoreReport> {
  const promptVersion = judgePromptVersion(settings.judge);
  const stored = await storedReadings(store, o.service, o.since);
  const changed: { reading: StoredReading; fields: ReadingField[] }[] = [];
  let withoutSpans = 0;
  for (let i = 0; i < stored.length; i += BATCH) {
    const batch = stored.slice(i, i + BATCH);
    const traces = await loadTraces(
      store,
      batch.map((r) => r.trace_id),
    );
    for (const reading of batch) {
      const t = traces.get(reading.trace_id);
      if (!t || t.spans.length === 0) {
        withoutSpans += 1;
        continue;
      }
      const fields = changedFields(reading, extractInteraction(reading.trace_id, t.spans, t.logs));
      if (fields.length > 0) changed.push({ reading, fields });
    }
  }
  const ids = changed.map((c) => c.reading.trace_id);
  const before = await traceScores(store, ids);
  let after: TraceScore[] | null = null;
  if (!o.dryRun && ids.length > 0) {
    for (let i = 0; i < changed.length; i += BATCH) {
      const part = changed.slice(i, i + BATCH);
      const firstScored = new Map(part.map((c) => [c.reading.trace_id, c.reading.created_at]));
      const prepared = await prepareTraces(
        store,
        settings,
        part.map((c) => c.reading.trace_id),
      );
      const batch = { ...prepared.batch, interactions: prepared.batch.interactions.map((r) => ({ ...r, created_at: firstScored.get(r.trace_id) ?? Date.now() })) };
      await dropOtherVersions(store, batch.interactions, promptVersion);
      await saveScored(store, settings, { ...prepared, batch });
    }
    after = await traceScores(store, ids);
  }
  const of = (rows: readonly TraceScore[], id: string): TraceScore[] => rows.filter((r) => r.trace_id === id);
  return {
    service: o.service,
    since: o.since.toISOString(),
    dry_run: o.dryRun,
    traces: stored.length,
    without_spans: withoutSpans,
    changed: changed.map((c) => ({
      trace_id: c.reading.trace_id,
      fields: c.fields,
      before: of(before, c.reading.trace_id),
      after: after === null ? null : of(after, c.reading.trace_id),
    })),
    judge_prompt_version: promptVersion,
  };
}
