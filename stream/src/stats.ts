import type { JudgeFailureKind } from "@ragmeter/core/judges/failureKind";
import type { Store } from "@ragmeter/store/client";
import { saveIngestionStats } from "@ragmeter/store/ingestionStats";

/** Reasons a judge call is skipped (the statuses decided before judging, design §5). */
const SKIP_REASONS = ["not_applicable", "content_missing", "context_incomplete", "uncertain_reading", "not_sampled", "budget_exhausted"] as const;
type SkipReason = (typeof SKIP_REASONS)[number];
type Counts = Record<string, number>;
type Bucket = {
  spans: number;
  scored: number;
  dlq: number;
  lag: number;
  forgotten: number;
  skipped: Record<SkipReason, number>;
  failures: Counts;
  judgeOwn: number;
  dropped: Counts;
  judgeCalls: Counts;
  judgeTokens: Counts;
};
const noSkips = (): Record<SkipReason, number> => ({
  not_applicable: 0,
  content_missing: 0,
  context_incomplete: 0,
  uncertain_reading: 0,
  not_sampled: 0,
  budget_exhausted: 0,
});
const add = (to: Counts, from: Readonly<Partial<Record<string, number>>>): void => {
  for (const [k, n] of Object.entries(from)) if (n !== undefined && n > 0) to[k] = (to[k] ?? 0) + n;
};

/** What the stream counted since its start (the scorer's progress log; `ScorerService.stats()`). */
export interface StreamTotals {
  readonly spans: number;
  readonly scored: number;
  readonly forgotten: number;
  /** Judge calls not made, by the status decided before judging (design §5), `budget_exhausted` included. */
  readonly judge_skipped: Readonly<Record<SkipReason, number>>;
  /** Judgments that ended `judge_error`, by kind of failure (core/src/judges/failureKind.ts). */
  readonly judge_errors: Readonly<Partial<Record<JudgeFailureKind, number>>>;
  /** Traces of the judge's own LLM calls (`ragmeter.judge.call`), stored and never judged. */
  readonly judge_own_traces: number;
  /** Spans that arrived with attributes dropped by their SDK (OTLP `dropped_attributes_count` > 0 on the span, an event or a link), by `service.name`. */
  readonly spans_attributes_dropped: Readonly<Record<string, number>>;
}

/** Per-minute ingestion counters of one scorer instance (table `ingestion_stats`, for the dashboards). */
export class IngestionStats {
  readonly #scorerId: string;
  readonly #minutes = new Map<number, Bucket>();
  readonly #skippedTotal = noSkips();
  readonly #failuresTotal: Counts = {};
  readonly #droppedTotal: Counts = {};
  #spansTotal = 0;
  #scoredTotal = 0;
  #forgottenTotal = 0;
  #judgeOwnTotal = 0;

  /** Spans written, traces scored, and records dropped as forgotten since start (for progress logs). */
  totals(): { spans: number; scored: number; forgotten: number } {
    return { spans: this.#spansTotal, scored: this.#scoredTotal, forgotten: this.#forgottenTotal };
  }

  /** Everything counted since start. */
  snapshot(): StreamTotals {
    return {
      spans: this.#spansTotal,
      scored: this.#scoredTotal,
      forgotten: this.#forgottenTotal,
      judge_skipped: { ...this.#skippedTotal },
      judge_errors: { ...this.#failuresTotal },
      judge_own_traces: this.#judgeOwnTotal,
      spans_attributes_dropped: { ...this.#droppedTotal },
    };
  }

  constructor(scorerId: string) {
    this.#scorerId = scorerId;
  }

  /** The `scorer_id` of this instance's rows. */
  get scorerId(): string {
    return this.#scorerId;
  }

  #bucket(now: number): Bucket {
    const minute = Math.floor(now / 60_000) * 60_000;
    let b = this.#minutes.get(minute);
    if (!b) {
      b = { spans: 0, scored: 0, dlq: 0, lag: 0, forgotten: 0, skipped: noSkips(), failures: {}, judgeOwn: 0, dropped: {}, judgeCalls: {}, judgeTokens: {} };
      this.#minutes.set(minute, b);
    }
    return b;
  }

  /** Counts spans written. */
  spans(n: number, now: number): void {
    this.#spansTotal += n;
    this.#bucket(now).spans += n;
  }
  /** Counts spans and log records dropped because their trace was forgotten. */
  forgotten(n: number, now: number): void {
    if (n === 0) return;
    this.#forgottenTotal += n;
    this.#bucket(now).forgotten += n;
  }
  /** Counts traces scored. */
  scored(n: number, now: number): void {
    this.#scoredTotal += n;
    this.#bucket(now).scored += n;
  }
  /** Counts judge calls skipped, by reason (a scored trace's `skipped`). */
  skipped(counts: Partial<Record<string, number>>, now: number): void {
    const b = this.#bucket(now);
    for (const r of SKIP_REASONS) {
      const n = counts[r] ?? 0;
      b.skipped[r] += n;
      this.#skippedTotal[r] += n;
    }
  }
  /** Counts judgments that ended `judge_error`, by kind of failure (a scored trace's `judgeFailures`). */
  judgeFailures(counts: Readonly<Partial<Record<JudgeFailureKind, number>>>, now: number): void {
    add(this.#bucket(now).failures, counts);
    add(this.#failuresTotal, counts);
  }
  /** Counts traces of the judge's own LLM calls. */
  judgeOwn(n: number, now: number): void {
    if (n === 0) return;
    this.#judgeOwnTotal += n;
    this.#bucket(now).judgeOwn += n;
  }
  /** Counts spans with dropped attributes, by service. */
  droppedAttributes(byService: Readonly<Record<string, number>>, now: number): void {
    add(this.#bucket(now).dropped, byService);
    add(this.#droppedTotal, byService);
  }
  /** Counts what the judges spent on a live trace of `service` (the group's judge budget reads it back, design §5). */
  judgeSpend(service: string, spend: { readonly calls: number; readonly tokens: number }, now: number): void {
    const b = this.#bucket(now);
    // both maps get the service (the budget's read joins the tokens on the calls' keys)
    b.judgeCalls[service] = (b.judgeCalls[service] ?? 0) + spend.calls;
    b.judgeTokens[service] = (b.judgeTokens[service] ?? 0) + spend.tokens;
  }
  /** Judge calls skipped since start, by reason. */
  skippedTotals(): Readonly<Record<SkipReason, number>> {
    return { ...this.#skippedTotal };
  }
  /** Counts messages sent to the dead-letter topic. */
  dlq(n: number, now: number): void {
    this.#bucket(now).dlq += n;
  }
  /** Records the consumer lag (messages behind the high watermark, summed over partitions). */
  lag(messages: number, now: number): void {
    this.#bucket(now).lag = messages;
  }

  /**
   * Writes the counters of every minute seen (cumulative within the minute: the latest write of a
   * minute replaces the earlier ones), then forgets minutes older than the current one.
   */
  async flush(store: Store, now: number): Promise<void> {
    if (this.#minutes.size === 0) return;
    await saveIngestionStats(
      store,
      [...this.#minutes].map(([minute, b]) => ({
        minute: Math.floor(minute / 1000),
        scorer_id: this.#scorerId,
        spans_received: b.spans,
        traces_scored: b.scored,
        consumer_lag: b.lag,
        dlq_count: b.dlq,
        judge_skipped_not_applicable: b.skipped.not_applicable,
        judge_skipped_content_missing: b.skipped.content_missing,
        judge_skipped_context_incomplete: b.skipped.context_incomplete,
        judge_skipped_uncertain_reading: b.skipped.uncertain_reading,
        judge_skipped_not_sampled: b.skipped.not_sampled,
        judge_skipped_budget_exhausted: b.skipped.budget_exhausted,
        judge_errors: { ...b.failures },
        judge_own_traces: b.judgeOwn,
        spans_attributes_dropped: { ...b.dropped },
        spans_dropped_forgotten: b.forgotten,
        judge_calls_by_service: { ...b.judgeCalls },
        judge_tokens_by_service: { ...b.judgeTokens },
      })),
    );
    const current = Math.floor(now / 60_000) * 60_000;
    for (const m of [...this.#minutes.keys()]) if (m < current) this.#minutes.delete(m);
  }
}
