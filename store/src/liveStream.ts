/**
 * The stream's counters the live view shows (design §3): judge failures by kind and judge calls
 * skipped for the budget, from `ingestion_stats` (migration 9; every scorer of the store) over the
 * minutes from the one holding the window's start.
 */

/** The stream's judge failures by kind and calls skipped for the judge budget. */
export interface LiveStreamStats {
  readonly judge_errors: Readonly<Record<string, number>>;
  readonly judge_skipped_budget_exhausted: number;
}

/**
 * A scalar subquery of the counters: a tuple of the failures by kind (`Map(String, UInt64)`) and the
 * budget skips (`UInt64`) over the minutes from the one holding `{since:Int64}` (ms) on.
 */
export const streamStatsSql = (db: string): string =>
  `(SELECT (CAST(sumMap(judge_errors) AS Map(String, UInt64)), toUInt64(sum(judge_skipped_budget_exhausted))) FROM ${db}.ingestion_stats FINAL
          WHERE minute >= toStartOfMinute(fromUnixTimestamp64Milli({since:Int64}, 'UTC')))`;

/** The counters from the subquery's columns as read: the kinds with failures in name order, the skips. */
export function streamStats(errors: Readonly<Record<string, number | string>>, budget: number): LiveStreamStats {
  const judge_errors: Record<string, number> = {};
  for (const k of Object.keys(errors).sort()) {
    const n = Number(errors[k]);
    if (n > 0) judge_errors[k] = n;
  }
  return { judge_errors, judge_skipped_budget_exhausted: budget };
}
