import { type GoldenItem, isAnswerable } from "@ragmeter/golden";
import type { Expectations, JudgedMetric, MetricDef, MetricInput, Need, Outcome, RetrievedItem } from "../domain/metric.js";
import { isAbstention } from "../domain/metrics/abstention.js";
import { metricTable } from "../domain/metricTable.js";
import type { QuestionResult } from "../domain/result.js";
import type { Status } from "../domain/status.js";
import { combineRepeats } from "../judges/analysis.js";
import { heuristicClaims } from "../judges/heuristic/heuristicJudge.js";
import type { Judge, Judgment } from "../judges/types.js";
import { type PlanKey, planKeyOf } from "./applicability.js";

export type { Expectations } from "../domain/metric.js";
export type { QuestionResult } from "../domain/result.js";

/**
 * The result of a question that could not be scored at all: it holds no outcome, and every metric
 * reads as its `status` (e.g. `target_error`, or `trace_timeout` when its spans never arrived) with a
 * null value (`outcomeOf`).
 */
export function failedQuestion(
  item: Pick<GoldenItem, "id" | "tags" | "question">,
  traceId: string,
  status: Exclude<Status, "ok">,
  reason: string,
  latencyMs: number,
): QuestionResult {
  return {
    golden_id: item.id,
    trace_id: traceId,
    tags: item.tags,
    question: item.question,
    latency_ms: latencyMs,
    status,
    reason,
    answer: null,
    contexts: [],
    generator_model: null,
    metrics: {},
    abstained: null,
  };
}

/** Who is scored: the question and where its result is filed. */
export interface Subject {
  readonly trace_id: string;
  /** The golden item's id (or the key the run files it under, e.g. the original trace id of a replay). */
  readonly golden_id: string;
  readonly tags: readonly string[];
  readonly question: string;
  /** Wall time of the call that produced the answer, ms (0 when unknown). */
  readonly latency_ms: number;
}

/** What the RAG service answered: the answer text and the contexts it retrieved, in rank order. */
export interface Answer {
  readonly answer: string;
  readonly contexts: readonly RetrievedItem[];
  readonly model: string | null;
}

/** Options of {@link scoreInteraction}. */
export interface ScoreOptions {
  readonly judge: Judge;
  /** k values of the per-k metrics (recall@k, …). */
  readonly ks: readonly number[];
  /** Runs of each judge (`--repeat N`, default 1). */
  readonly repeat?: number;
  /** False for live traffic outside the judge sampling rate: judged metrics are `not_sampled` (no judge call). */
  readonly sampled?: boolean;
  /** Why the metrics that need a golden item do not apply without one (live traffic). */
  readonly noGoldenReason?: string;
  /**
   * What a trace lacks, decided before any call (the applicability of design §5): a metric whose
   * needs fall under a key here is stored with its status and reason, and no judge is called.
   */
  readonly skip?: Partial<Record<PlanKey, Skip>>;
}

/** A metric not computed: the status and reason it is stored with. */
export interface Skip {
  readonly status: Exclude<Status, "ok">;
  readonly reason: string;
}

const NOT_SAMPLED = "live trace outside the judge sampling rate";

/** Why a golden-side need is not met, or null when it is. */
function goldenGap(need: Need, input: MetricInput, noGolden: string): string | null {
  switch (need) {
    case "answerable":
    case "unanswerable":
      return input.expect === null ? noGolden : answerabilityGap(need, input.answerable);
    case "facts":
      return input.expect === null ? noGolden : keyFactsGap(input.expect);
    case "reference":
      return referenceGap(input.expect);
    default:
      return null;
  }
}

/** Why a question's answerability does not meet the need (an answerable question, or an unanswerable one), or null. */
function answerabilityGap(need: "answerable" | "unanswerable", answerable: boolean): string | null {
  if (need === "answerable") return answerable ? null : "unanswerable question";
  return answerable ? "answerable question" : null;
}

/** `golden item has no key_facts` when the item lists none, else null. */
function keyFactsGap(e: NonNullable<Expectations>): string | null {
  return e.key_facts === null || e.key_facts.length === 0 ? "golden item has no key_facts" : null;
}

/** `no reference_answer` without a golden item or with a blank reference answer, else null. */
function referenceGap(e: Expectations): string | null {
  return e === null || e.reference_answer === null || e.reference_answer.trim() === "" ? "no reference_answer" : null;
}

/**
 * Why a metric does not apply to this question (a status and reason), or null when it is computed:
 * its golden-side needs first, then whether the run's judge has its task, then what the trace
 * lacks, then the live sampling.
 */
export function metricGap(def: MetricDef, input: MetricInput, judge: Judge, options: Pick<ScoreOptions, "skip" | "sampled" | "noGoldenReason">): Skip | null {
  for (const need of def.needs) {
    const gap = goldenGap(need, input, options.noGoldenReason ?? "no golden item");
    if (gap !== null) return { status: "not_applicable", reason: gap };
  }
  if (def.kind === "judged" && judge.promptVersion[def.task] === undefined) {
    return { status: "not_applicable", reason: `the ${judge.kind} judge has no ${def.task} task` };
  }
  const skip = options.skip?.[planKeyOf(def.needs)];
  if (skip !== undefined) return skip;
  if (def.kind === "judged" && options.sampled === false) return { status: "not_sampled", reason: NOT_SAMPLED };
  return null;
}

/** A judgment as the outcome of its metric. */
function outcomeOfJudgment(j: Judgment): Outcome {
  const { reason, ...rest } = j;
  return { ...rest, reason: reason ?? "" };
}

/** Asks the judge `repeat` times for one judged metric's task and combines the repeats (design §5). */
async function judged(def: JudgedMetric, input: MetricInput, judge: Judge, repeat: number): Promise<Outcome> {
  const request = def.request(input);
  const unjudged = def.unjudged?.(request) ?? null;
  if (unjudged !== null) return { status: "not_applicable", value: null, reason: unjudged };
  const runs = await Promise.all(Array.from({ length: repeat }, () => judge.judge(def.task, request)));
  const each = runs.map(outcomeOfJudgment);
  const combined = combineRepeats(each);
  return each.length > 1 ? { ...combined, repeats: each } : combined;
}

/** A view metric's outcome from its task's judgment (each repeat viewed, then combined), without cost. */
function viewed(view: (j: Outcome) => Outcome, judgment: Outcome): Outcome {
  const free = (o: Outcome): Outcome => ({ ...view(o), input_tokens: 0, output_tokens: 0, latency_ms: 0, calls: 0 });
  if (judgment.repeats === undefined) return free(judgment);
  const each = judgment.repeats.map(free);
  return { ...combineRepeats(each), repeats: each };
}

/**
 * The scoring core (design §5), used by eval, replay and the streaming scorer alike: one answer in,
 * every metric of the table out, by name. Each metric applies when its needs are met (else its
 * status says why, and no judge is called); mechanical ones compute, judged ones ask the judge.
 */
export async function scoreInteraction(subject: Subject, reply: Answer, expect: Expectations, options: ScoreOptions): Promise<QuestionResult> {
  const { judge, ks } = options;
  const repeat = Math.max(1, options.repeat ?? 1);
  // isAbstention first: a cheap test that spares tokenizing every sentence of most answers.
  const abstained = isAbstention(reply.answer) && heuristicClaims(reply.answer).length === 0;
  const base: Omit<MetricInput, "k"> = {
    question: subject.question,
    answer: reply.answer,
    contexts: reply.contexts,
    // An item without a chunk id is shown to the judge by its rank (`#2`), the label its claims cite.
    chunks: reply.contexts.map((c, i) => ({ id: c.id !== "" ? c.id : `#${i + 1}`, text: c.text })),
    expect,
    answerable: expect !== null && isAnswerable(expect),
    abstained,
  };
  const table = metricTable(ks);
  // one judgment per task: a view metric reads the judgment of the metric that asks for it
  const tasks = new Map<string, Promise<Outcome>>();
  const outcomes = await Promise.all(
    table.map(async (def): Promise<Outcome> => {
      const k = /@([1-9]\d*)$/u.exec(def.name)?.[1];
      const input: MetricInput = { ...base, k: k === undefined ? 0 : Number(k) };
      const gap = metricGap(def, input, judge, options);
      if (gap !== null) return { status: gap.status, value: null, reason: gap.reason };
      if (def.kind !== "judged") return def.compute(input);
      let judgment = tasks.get(def.task);
      if (judgment === undefined) {
        judgment = judged(def, input, judge, repeat);
        tasks.set(def.task, judgment);
      }
      return def.view ? viewed(def.view, await judgment) : judgment;
    }),
  );
  const metrics: Record<string, Outcome> = {};
  table.forEach((def, i) => {
    metrics[def.name] = outcomes[i] as Outcome;
  });
  return {
    ...subject,
    status: "ok",
    reason: "",
    answer: reply.answer,
    contexts: reply.contexts.map((c) => ({ ...c })),
    generator_model: reply.model,
    metrics,
    abstained,
  };
}
