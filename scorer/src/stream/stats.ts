import type { Store } from "../store/client.js";
import { saveIngestionStats } from "../store/ingestionStats.js";

/** Reasons a judge call is skipped (the statuses decided before judging, design §5). */
const SKIP_REASONS = ["not_applicable", "content_missing", "context_incomplete", "uncertain_reading", "not_sampled"] as const;
type SkipReason = (typeof SKIP_REASONS)[number];
type Bucket = { spans: number; scored: number; dlq: number; lag: number; forgotten: number; skipped: Record<SkipReason, number> };
const noSkips = (): Record<SkipReason, number> => ({ not_applicable: 0, content_missing: 0, context_incomplete: 0, uncertain_reading: 0, not_sampled: 0 });

/** Per-minute ingestion counters of one scorer instance (table `ingestion_stats`, for the dashboards). */
export class IngestionStats {
  readonly #scorerId: string;
  readonly #minutes = new Map<number, Bucket>();
  readonly #skippedTotal = noSkips();
  #spansTotal = 0;
  #scoredTotal = 0;
  #forgottenTotal = 0;

  /** Spans written, traces scored, and records dropped as forgotten since start (for progress logs). */
  totals(): { spans: number; scored: number; forgotten: number } {
    return { spans: this.#spansTotal, scored: this.#scoredTotal, forgotten: this.#forgottenTotal };
  }

  constructor(scorerId: string) {
    this.#scorerId = scorerId;
  }

  #bucket(now: number): Bucket {
    const minute = Math.floor(now / 60_000) * 60_000;
    let b = this.#minutes.get(minute);
    if (!b) {
      b = { spans: 0, scored: 0, dlq: 0, lag: 0, forgotten: 0, skipped: noSkips() };
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
        spans_dropped_forgotten: b.forgotten,
      })),
    );
    const current = Math.floor(now / 60_000) * 60_000;
    for (const m of [...this.#minutes.keys()]) if (m < current) this.#minutes.delete(m);
  }
}
