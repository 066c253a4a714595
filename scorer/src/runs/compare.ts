import { randomUUID } from "node:crypto";
import { type MetricDef, type MetricValue, metricNames } from "@ragmeter/core/domain/metricTable";
import type { Store } from "@ragmeter/store/client";
import { saveComparison } from "@ragmeter/store/comparisons";
import { runQuestions } from "@ragmeter/store/results";
import type { RunRecord } from "@ragmeter/store/runs";
import { type PairedDelta, pairedDelta } from "./paired.js";
import { storedQuestionMetrics } from "./summary.js";

/** Result of comparing two stored runs. */
export interface Comparison {
  readonly comparison_id: string;
  readonly a: RunRecord;
  readonly b: RunRecord;
  readonly deltas: readonly PairedDelta[];
  readonly seed: number;
  readonly resamples: number;
  /** Warnings, e.g. different golden sets or judges. */
  readonly warnings: readonly string[];
}

/**
 * Paired comparison of two runs per metric with a percentile-bootstrap 95% interval (design §5);
 * repeats are averaged per question before pairing. Writes the result to `comparisons`.
 */
export async function compareRuns(store: Store, a: RunRecord, b: RunRecord, options: { seed: number; resamples: number }): Promise<Comparison> {
  // A replay files its questions under the original trace ids: against a golden or live run it pairs by question text.
  const byQuestion = (a.source === "replay") !== (b.source === "replay");
  const ma = byQuestion ? await keyedByQuestion(store, a.run_id) : await storedQuestionMetrics(store, a.run_id);
  const mb = byQuestion ? await keyedByQuestion(store, b.run_id) : await storedQuestionMetrics(store, b.run_id);
  const ks = [...new Set([...a.ks, ...b.ks])].sort((x, y) => x - y);
  // An optional metric (a task not every judge has) is compared when either run scored it.
  const scored = (d: MetricDef) => [...ma.values(), ...mb.values()].some((m) => m.get(d.name)?.status === "ok");
  const names = metricNames(ks, scored);
  const deltas = names.map((m) => pairedDelta(m, ma, mb, { seed: options.seed, resamples: options.resamples }));
  const warnings: string[] = [];
  if (byQuestion) warnings.push("one run is a replay: questions are paired by their text");
  else if (a.golden_set_hash !== b.golden_set_hash) warnings.push("the runs use different golden sets: only questions with the same id are paired");
  if (a.judge_kind !== b.judge_kind || a.judge_model !== b.judge_model || a.judge_prompt_version !== b.judge_prompt_version) {
    warnings.push(
      `the runs use different judges (${a.judge_kind} ${a.judge_model} ${a.judge_prompt_version} vs ${b.judge_kind} ${b.judge_model} ${b.judge_prompt_version}): judge changes are mixed into the deltas`,
    );
  }
  const comparison_id = randomUUID();
  await saveComparison(store, {
    comparison_id,
    run_a: a.run_id,
    run_b: b.run_id,
    seed: options.seed,
    resamples: options.resamples,
    deltas: deltas.map((d) => ({
      metric: d.metric,
      n: d.n,
      mean_a: d.mean_a,
      mean_b: d.mean_b,
      delta: d.delta,
      ci_lower: d.interval?.lower ?? null,
      ci_upper: d.interval?.upper ?? null,
    })),
  });
  return { comparison_id, a, b, deltas, seed: options.seed, resamples: options.resamples, warnings };
}

/** Per-question metrics of a run keyed by the question text (the first golden id of a repeated question wins). */
async function keyedByQuestion(store: Store, runId: string): Promise<Map<string, Map<string, MetricValue>>> {
  const metrics = await storedQuestionMetrics(store, runId);
  const questions = await runQuestions(store, runId);
  const out = new Map<string, Map<string, MetricValue>>();
  for (const [id, m] of [...metrics].sort((x, y) => x[0].localeCompare(y[0]))) {
    const q = questions.get(id);
    if (q !== undefined && !out.has(q)) out.set(q, m);
  }
  return out;
}
