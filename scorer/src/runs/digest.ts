import { JUDGED_METRICS, type MetricValue, metricTable } from "@ragmeter/core/domain/metricTable";
import { outcomeOf, type QuestionResult } from "@ragmeter/core/domain/result";
import type { Status } from "@ragmeter/core/domain/status";
import { codePointLength, type JudgedValue } from "@ragmeter/core/judges/analysis";
import { type GoldenItem, matchMode, normalizeText } from "@ragmeter/golden";

/** What {@link pairedDelta} and {@link aggregate} read of one question: a metric's value and status by name. */
export interface MetricLookup {
  get(metric: string): MetricValue | undefined;
}

/**
 * One question's value and status of every metric of the table, compactly: a `Float64Array` of
 * values (NaN for null) and the status strings (shared constants), indexed by the table's order.
 */
class MetricRow implements MetricLookup {
  constructor(
    private readonly index: ReadonlyMap<string, number>,
    private readonly values: Float64Array,
    private readonly statuses: readonly string[],
  ) {}

  get(metric: string): MetricValue | undefined {
    const i = this.index.get(metric);
    if (i === undefined) return undefined;
    const v = this.values[i] as number;
    return { value: Number.isNaN(v) ? null : v, status: this.statuses[i] as string };
  }

  /** The status of `metric`, or undefined when it is not in the table. */
  status(metric: string): string | undefined {
    const i = this.index.get(metric);
    return i === undefined ? undefined : this.statuses[i];
  }
}

/** Why one question could not be measured. */
export interface QuestionFailure {
  readonly golden_id: string;
  /** `target_error`, `trace_timeout`, or `judge_error` (every judged metric failed). */
  readonly status: string;
  readonly reason: string;
}

/**
 * The question's failure, if it could not be measured: the target failed (`target_error`), the
 * spans never arrived (`trace_timeout`), or the judge failed on every judged metric (`judge_error`).
 */
export function questionFailure(q: QuestionResult): QuestionFailure | null {
  if (q.status !== "ok") return { golden_id: q.golden_id, status: q.status, reason: q.reason };
  // every judgment every backend makes (no view, no optional task) that applied has failed
  const judged = JUDGED_METRICS.filter((m) => !m.optional && m.view === undefined)
    .map((m) => outcomeOf(q, m.name))
    .filter((o) => o.status !== "not_applicable");
  if (judged.length > 0 && judged.every((o) => o.status === "judge_error")) {
    return { golden_id: q.golden_id, status: "judge_error", reason: judged.find((o) => o.reason !== "")?.reason ?? "judge failed" };
  }
  return null;
}

/**
 * What a run's summary keeps of one question (issue 12: 20,000 questions in bounded memory): its
 * ids, metric values and the few facts the summary counts, without the answer, contexts or claims.
 * Every figure of the summary is computed from these, in golden order, as from the full results.
 */
export interface QuestionDigest {
  readonly golden_id: string;
  readonly question: string;
  readonly tags: readonly string[];
  readonly status: Status;
  readonly reason: string;
  readonly metrics: MetricRow;
  /** Answer length in code points (length bias), null without an answer. */
  readonly answer_length: number | null;
  readonly failure: QuestionFailure | null;
  /** `metric: reason` of each judged metric in `judge_error` (grounding, relevance, reference facts). */
  readonly judge_errors: readonly string[];
  /** Per judged metric (JUDGED_METRICS order), the value of each repeat; null unless the judges ran more than once. */
  readonly repeats: readonly (readonly JudgedValue[])[] | null;
  /** Retrieved items, and whether one of them is an expected source of the golden set (the document-id warning). */
  readonly retrieved: number;
  readonly source_hit: boolean;
}

const NO_ERRORS: readonly string[] = [];

/** The expected sources of the items matched by document (modes `document`, `substring`, `lines`), normalized. */
export function expectedSources(items: readonly GoldenItem[]): Set<string> {
  const sources = new Set<string>();
  for (const it of items) {
    const mode = matchMode(it);
    if ((mode === "document" || mode === "substring" || mode === "lines") && it.expected_source !== null) sources.add(normalizeText(it.expected_source));
  }
  return sources;
}

/** Makes the digests of one run's questions (metric table of `ks`; expected sources of the golden items, if any). */
export function questionDigester(ks: readonly number[], goldenItems: readonly GoldenItem[] | null): (q: QuestionResult) => QuestionDigest {
  const table = metricTable(ks);
  const index = new Map(table.map((m, i) => [m.name, i] as const));
  const sources = goldenItems ? expectedSources(goldenItems) : new Set<string>();
  return (q) => {
    const values = new Float64Array(table.length);
    const statuses: string[] = new Array(table.length);
    let judgeErrors = NO_ERRORS;
    table.forEach((def, i) => {
      const v = outcomeOf(q, def.name);
      values[i] = v.value === null ? Number.NaN : v.value;
      statuses[i] = v.status;
      if (def.kind !== "judged" || def.view !== undefined || v.status !== "judge_error" || q.status !== "ok") return;
      if (judgeErrors === NO_ERRORS) judgeErrors = [];
      (judgeErrors as string[]).push(`${def.name}: ${v.reason || "no reason given"}`);
    });
    let sourceHit = false;
    if (sources.size > 0) for (const c of q.contexts) if (!sourceHit && sources.has(normalizeText(c.document_id))) sourceHit = true;
    return {
      golden_id: q.golden_id,
      question: q.question,
      tags: q.tags,
      status: q.status,
      reason: q.reason,
      metrics: new MetricRow(index, values, statuses),
      answer_length: q.answer === null ? null : codePointLength(q.answer),
      failure: questionFailure(q),
      judge_errors: judgeErrors,
      repeats: JUDGED_METRICS.some((m) => (q.metrics[m.name]?.repeats?.length ?? 0) > 1)
        ? JUDGED_METRICS.map((m) => (q.metrics[m.name]?.repeats ?? []).map((r) => ({ status: r.status, value: r.value })))
        : null,
      retrieved: q.contexts.length,
      source_hit: sourceHit,
    };
  };
}
