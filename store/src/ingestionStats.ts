import { z } from "zod";
import type { Store } from "./client.js";

/** One row of `ingestion_stats`: a scorer's counters of one minute (`minute` in Unix seconds). */
export interface IngestionStatsRow {
  readonly minute: number;
  readonly scorer_id: string;
  readonly spans_received: number;
  readonly traces_scored: number;
  readonly consumer_lag: number;
  readonly dlq_count: number;
  /** Judge calls not made, by the status the metric got instead (design §5); absent: 0. */
  readonly judge_skipped_not_applicable?: number;
  readonly judge_skipped_content_missing?: number;
  readonly judge_skipped_context_incomplete?: number;
  readonly judge_skipped_not_sampled?: number;
  /** Judge calls not made because the trace was read from a fallback (migration 6); absent: 0. */
  readonly judge_skipped_uncertain_reading?: number;
  /** Judge calls not made because the service's judge budget was used (migration 9); absent: 0. */
  readonly judge_skipped_budget_exhausted?: number;
  /** Judgments that ended `judge_error`, by kind of failure (migration 9); absent: none. */
  readonly judge_errors?: Readonly<Record<string, number>>;
  /** Traces of the judge's own LLM calls, never judged (migration 9); absent: 0. */
  readonly judge_own_traces?: number;
  /** Spans whose SDK dropped attributes, by service (migration 9); absent: none. */
  readonly spans_attributes_dropped?: Readonly<Record<string, number>>;
  /** Spans and log records dropped because their trace was forgotten (migration 5); absent: 0. */
  readonly spans_dropped_forgotten?: number;
  /** Judge requests sent for live traces, by service (migration 11; the same keys as the tokens'); absent: none. */
  readonly judge_calls_by_service?: Readonly<Record<string, number>>;
  /** Judge tokens (prompt + completion) spent on live traces, by service (migration 11); absent: none. */
  readonly judge_tokens_by_service?: Readonly<Record<string, number>>;
}

/** Writes minute counters (one version for the batch: the latest write of a minute wins after FINAL). */
export async function saveIngestionStats(store: Store, rows: readonly IngestionStatsRow[]): Promise<void> {
  const version = store.nextVersion();
  await store.client.insert({ table: `${store.database}.ingestion_stats`, values: rows.map((r) => ({ ...r, version })), format: "JSONEachRow" });
}

/** What the scorers spent on one service's live traces in one minute (`minute` in Unix seconds). */
export interface JudgeSpendRow {
  readonly minute: number;
  readonly service: string;
  readonly calls: number;
  readonly tokens: number;
}

const count = z.union([z.number(), z.string()]).transform(Number).pipe(z.number().int().nonnegative());
const spendRow = z.object({ minute_s: count, service: z.string(), calls: count, tokens: count }).transform(({ minute_s, ...r }) => ({ minute: minute_s, ...r }));

/**
 * What every scorer but `exceptScorer` spent on live traces from minute `fromMinute` (Unix seconds) on, per minute and
 * service, summed over scorers (each scorer's latest row of a minute, FINAL).
 */
export async function selectJudgeSpend(store: Store, fromMinute: number, exceptScorer: string): Promise<JudgeSpendRow[]> {
  const rs = await store.client.query({
    query: `SELECT toUnixTimestamp(minute) AS minute_s, service, sum(calls) AS calls, sum(judge_tokens_by_service[service]) AS tokens
      FROM ${store.database}.ingestion_stats FINAL
      ARRAY JOIN mapKeys(judge_calls_by_service) AS service, mapValues(judge_calls_by_service) AS calls
      WHERE minute >= toDateTime({from:UInt32}, 'UTC') AND scorer_id != {scorer:String}
      GROUP BY minute_s, service ORDER BY minute_s, service`,
    query_params: { from: fromMinute, scorer: exceptScorer },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((r) => spendRow.parse(r));
}
