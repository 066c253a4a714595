import { createHash } from "node:crypto";
import type { EvaluationSink } from "@ragmeter/core/domain/evaluation";
import { distinct, jaccard, rankBiasedOverlap } from "@ragmeter/core/domain/overlap";
import type { QuestionResult } from "@ragmeter/core/domain/result";
import type { Judge } from "@ragmeter/core/judges/types";
import { type Expectations, scoreInteraction } from "@ragmeter/core/scoring/score";
import type { GoldenItem } from "@ragmeter/golden";
import { RagmeterError } from "@ragmeter/runtime";
import type { Store } from "@ragmeter/store/client";
import { goldenItemsFor } from "@ragmeter/store/golden";
import pLimit from "p-limit";
import { scoreTargetResult } from "../answers.js";
import { type PairedDelta, pairedDelta } from "../paired.js";
import { askTarget, openRun } from "../recorder.js";
import type { RunSpec } from "../spec.js";
import { digestResults, type EvalOutcome, runMetricNames, runMetricValues } from "../summary.js";
import type { Target } from "../target.js";
import { type CapturedInteraction, type ReplaySource, selectInteractions } from "./select.js";

const LIVE = "captured live traffic: no golden item";

/** Options of {@link runReplay}: the run's specification (a replay source) and what answers and records it. */
export interface ReplayOptions {
  /** The new side's run: `--from`, pipeline version, ks, cache, prices ({@link runSpec}). */
  readonly spec: RunSpec;
  readonly store: Store;
  readonly judge: Judge;
  readonly target: Target;
  /** The interactions to replay (`--from`, parsed). */
  readonly from: ReplaySource;
  readonly sample: number | null;
  readonly concurrency: number;
  readonly onProgress?: (done: number, total: number) => void;
  /** Receives a `gen_ai.evaluation.result` per stored score of the new side (`RAGMETER_EVALUATION_EXPORT_ENDPOINT`). */
  readonly evaluations?: EvaluationSink | null;
}

/** Retrieval overlap of one replayed question. */
interface QuestionOverlap {
  readonly key: string;
  readonly question: string;
  /** Jaccard similarity of the two sets of retrieved document ids. */
  readonly jaccard: number;
  /** Rank-biased overlap (p = 0.9) of the two rankings of document ids. */
  readonly rbo: number;
}

/** Outcome of a replay: the new run, both sides per question, paired deltas and overlap. */
export interface ReplayOutcome {
  readonly outcome: EvalOutcome;
  readonly captured: readonly CapturedInteraction[];
  /** The original side re-scored with the same judge, keyed like the new side (original trace id). */
  readonly original: readonly QuestionResult[];
  readonly deltas: readonly PairedDelta[];
  readonly overlap: readonly QuestionOverlap[];
}

/** No interaction matched `--from` (exit 2). */
export class NothingToReplayError extends RagmeterError {
  override readonly name = "NothingToReplayError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "usage", cause: options?.cause });
  }
}

/**
 * Trace replay (design §2): sends the questions of captured interactions to a new pipeline version,
 * scores both sides with the same judge (the original from its stored answer and retrieved items,
 * the new one from the target's reply), stores the new side as a `replay` run, and pairs the two
 * per question (key: the original trace id) with the overlap of their retrieved documents.
 * @throws NothingToReplayError when the selection is empty.
 */
export async function runReplay(o: ReplayOptions): Promise<ReplayOutcome> {
  const { spec } = o;
  if (spec.source.kind !== "replay") throw new TypeError(`a replay needs a replay source, not ${spec.source.kind}`);
  const { ks } = spec;
  const fromSpec = spec.source.from;
  const captured = await selectInteractions(o.store, o.from, o.sample);
  if (captured.length === 0) throw new NothingToReplayError(`nothing to replay: no scored interaction with a captured question and answer matches --from ${fromSpec}`);
  const golden = await goldenItemsFor(
    o.store,
    captured.filter((c) => c.golden_id !== "").map((c) => ({ run_id: c.run_id, golden_id: c.golden_id })),
  );
  // The replayed question is filed under the original trace id; a captured golden question keeps its item's expectations.
  const itemOf = (c: CapturedInteraction): { item: GoldenItem; expect: Expectations; live: boolean } => {
    const g = c.golden_id !== "" ? golden.get(`${c.run_id}\u0000${c.golden_id}`) : undefined;
    if (g) return { item: { ...g, id: c.trace_id, tags: [...g.tags, `golden:${g.id}`] }, expect: g, live: false };
    return {
      item: {
        id: c.trace_id,
        question: c.question,
        expected_source: null,
        expected_substring: null,
        reference_answer: null,
        key_facts: null,
        tags: c.service_name ? [`service:${c.service_name}`] : [],
      },
      expect: null,
      live: true,
    };
  };

  const selectionHash = createHash("sha256")
    .update(captured.map((c) => c.trace_id).join("\n"))
    .digest("hex");
  const recorder = await openRun(spec, { store: o.store, judge: o.judge, selectionHash, evaluations: o.evaluations ?? null });
  const { run, judge } = recorder;

  let outcome: EvalOutcome;
  let pairs: { c: CapturedInteraction; original: QuestionResult; replayed: QuestionResult }[];
  try {
    const limit = pLimit(Math.max(1, o.concurrency));
    let done = 0;
    pairs = await Promise.all(
      captured.map((c) =>
        limit(async () => {
          const { item, expect } = itemOf(c);
          const subject = { trace_id: c.trace_id, golden_id: item.id, tags: item.tags, question: item.question, latency_ms: 0 };
          // The original side: its stored answer and retrieved items, scored by the same judge.
          const original = await scoreInteraction(subject, { answer: c.answer, contexts: c.retrieved, model: null }, expect, { judge, ks: ks, noGoldenReason: LIVE });
          const { traceId, spans, result: res } = await askTarget(o.target, run, c.trace_id, c.question);
          const replayed = await scoreTargetResult(item, traceId, res, judge, ks, { expect, noGoldenReason: LIVE });
          await recorder.record(replayed, spans);
          done++;
          o.onProgress?.(done, captured.length);
          return { c, original, replayed };
        }),
      ),
    );
    const results = pairs.map((p) => p.replayed);
    outcome = await recorder.complete({ questions: digestResults(results, ks, null), results, warnings: [] });
  } finally {
    await recorder.close().catch(() => undefined);
  }
  const a = new Map(pairs.map((p) => [p.c.trace_id, runMetricValues(p.original, ks)] as const));
  const b = new Map(pairs.map((p) => [p.c.trace_id, runMetricValues(p.replayed, ks)] as const));
  // Every metric of the table (before the table, replay forgot abstention and reference_facts).
  const metrics = runMetricNames(ks, judge);
  const deltas = metrics.map((m) => pairedDelta(m, a, b, { resamples: 10_000 }));
  const docs = (xs: readonly { document_id: string }[]): string[] => distinct(xs.map((x) => x.document_id));
  const overlap = pairs
    .filter((p) => p.replayed.status === "ok")
    .map((p) => ({
      key: p.c.trace_id,
      question: p.c.question,
      jaccard: jaccard(docs(p.c.retrieved), docs(p.replayed.contexts)),
      rbo: rankBiasedOverlap(docs(p.c.retrieved), docs(p.replayed.contexts)),
    }));
  return { outcome, captured, original: pairs.map((p) => p.original), deltas, overlap };
}
