import type { Store } from "./client.js";

/**
 * The live view's aggregates per minute (migration 12, design §3 and §6), kept by the writers so
 * `/api/live` reads a few rows per minute instead of every row of the window:
 * - `live_minutes_state`: per minute of `created_at`, a `touched` row (the version of the latest
 *   write of a live row of that minute, written before those rows) and a `computed` row (the
 *   `touched` version its aggregates cover, and the traces they count);
 * - `live_minutes`: per minute and `covers` (the touched version they were computed at), the
 *   minute's `live_traces` and `live_scores` rows (FINAL, as the live view counts them) grouped as
 *   the live view groups them.
 * `saveResults` writes the marks; a scorer computes the minutes ({@link refreshLiveMinutes}, every
 * {@link LIVE_MINUTES_REFRESH_MS} in the stream service). A minute's aggregates are used only while they cover its latest write (`covers ≥ touched`), so
 * a later write to the minute (a rescore, late spans, a replay) sends the reader back to the
 * minute's rows until they are computed again: the figures never depend on whether they were.
 */

/** Minutes computed at most per refresh (one statement reads their rows). */
const LIVE_MINUTES_PER_REFRESH = 240;
/**
 * A minute is computed once its latest write is this old (ms): its rows (written after its
 * `touched` mark, in the same `saveResults`) have landed, and a minute still being written is
 * not computed again on every batch.
 */
const LIVE_MINUTES_SETTLE_MS = 5_000;
/** How often a scorer (the stream service) refreshes the minutes' aggregates, ms. */
export const LIVE_MINUTES_REFRESH_MS = 5_000;
/** Minutes last written, or of traces, longer ago than this (ms) are left to the reader's rows (bounds each refresh's scan of the state to the last day's minutes). */
const LIVE_MINUTES_LOOKBACK_MS = 86_400_000;

/** Columns of `live_minutes` in the order the refresh writes them. */
const MINUTE_COLUMNS =
  "minute, covers, kind, service_name, pipeline_version, status, metric, flag, content_missing, judge_model, n, n_values, value_sum, input_tokens, output_tokens, version";

/** The `touched` rows of live rows written at `version`: one per distinct minute of their `created_at` (ms). */
function touchedRows(createdAt: readonly number[], version: number): unknown[][] {
  const minutes = new Set(createdAt.map((t) => Math.floor(t / 60_000) * 60));
  return [...minutes].map((m) => [m, "touched", version, 0, 0]);
}

/** Marks the minutes of live rows about to be written at `version` (before the rows: a crash in between costs a recompute, never a stale minute). */
export async function markLiveMinutes(store: Store, createdAt: readonly number[], version: number): Promise<void> {
  if (createdAt.length === 0) return;
  await store.client.insert({
    table: `${store.database}.live_minutes_state`,
    columns: ["minute", "kind", "version", "covers", "traces"],
    values: touchedRows(createdAt, version),
    format: "JSONCompactEachRow",
  });
}

/**
 * SELECT of the aggregate rows of the minutes `{minutes:Array(UInt32)}` (seconds), each with its
 * `covers` from `{covers:Array(UInt64)}` (same order) and `version` `{version:UInt64}`: per minute,
 * kind `t` (traces: service, version, `view_status`, `scored`, `content_missing`; count) and kind `m`
 * (scores with a status: service, version, status, metric, whether the judge spent tokens, judge
 * model; count, values, their sum, tokens), as {@link liveAggregates} groups the window's rows.
 */
function minuteAggregatesSql(db: string): string {
  const minute = "toDateTime(toStartOfMinute(created_at), 'UTC')";
  const range = `created_at >= toDateTime64(arrayMin({minutes:Array(UInt32)}), 3, 'UTC') AND created_at < toDateTime64(arrayMax({minutes:Array(UInt32)}) + 60, 3, 'UTC')
      AND toUInt32(toUnixTimestamp(${minute})) IN {minutes:Array(UInt32)}`;
  return `SELECT mi, {covers:Array(UInt64)}[indexOf({minutes:Array(UInt32)}, toUInt32(toUnixTimestamp(mi)))], ki, service_name, pipeline_version, st, me,
      fl, cm, jm, n, nv, vs, it, ot, {version:UInt64}
    FROM (
      SELECT ${minute} AS mi, 't' AS ki, service_name, pipeline_version, toString(view_status) AS st, '' AS me, scored AS fl, content_missing AS cm,
          '' AS jm, count() AS n, toUInt64(0) AS nv, toFloat64(0) AS vs, toUInt64(0) AS it, toUInt64(0) AS ot
        FROM ${db}.live_traces FINAL WHERE ${range}
        GROUP BY mi, service_name, pipeline_version, st, fl, cm
      UNION ALL
      SELECT ${minute} AS mi, 'm' AS ki, service_name, pipeline_version, toString(status) AS st, toString(metric) AS me,
          toUInt8(input_tokens + output_tokens > 0) AS fl, toUInt8(0) AS cm, toString(judge_model) AS jm, count() AS n,
          toUInt64(count(value)) AS nv, toFloat64(ifNull(sum(value), 0)) AS vs, toUInt64(sum(input_tokens)) AS it, toUInt64(sum(output_tokens)) AS ot
        FROM ${db}.live_scores FINAL WHERE ${range} AND status != ''
        GROUP BY mi, service_name, pipeline_version, st, me, fl, jm
    )`;
}

/**
 * Computes the aggregates of the minutes whose latest write is settled ({@link LIVE_MINUTES_SETTLE_MS}
 * before `nowMs`), not yet covered, and no older than {@link LIVE_MINUTES_LOOKBACK_MS}: their rows,
 * then their `computed` marks (a reader uses a minute's rows only once its mark says they cover
 * its latest write). At most {@link LIVE_MINUTES_PER_REFRESH} minutes, the latest first (what the live view reads most); returns
 * how many were computed.
 */
export async function refreshLiveMinutes(store: Store, nowMs: number, lookbackMs = LIVE_MINUTES_LOOKBACK_MS): Promise<number> {
  const db = store.database;
  const rs = await store.client.query({
    query: `SELECT toUInt32(toUnixTimestamp(minute)), touched, covered FROM (
        SELECT minute, maxIf(version, kind = 'touched') AS touched, maxIf(covers, kind = 'computed') AS covered FROM ${db}.live_minutes_state
        WHERE minute >= toDateTime({oldestMinute:UInt32}, 'UTC') GROUP BY minute)
      WHERE touched > covered AND touched <= {settled:UInt64} AND touched > {oldest:UInt64}
      ORDER BY minute DESC LIMIT {limit:UInt32}`,
    query_params: {
      settled: (nowMs - LIVE_MINUTES_SETTLE_MS) * 1000,
      oldest: Math.max(0, nowMs - lookbackMs) * 1000,
      // Minutes of traces older than the lookback too (a rescore of old traces leaves them to the reader's rows).
      oldestMinute: Math.floor(Math.max(0, nowMs - lookbackMs) / 1000),
      limit: LIVE_MINUTES_PER_REFRESH,
    },
    format: "JSONCompactEachRow",
  });
  // Versions are µs since the epoch: below 2^53 until the year 2255, exact as numbers.
  const stale = (await rs.json<[number | string, number | string, number | string]>()).map(([m, touched, covered]) => ({
    m: Number(m),
    touched: Number(touched),
    covered: Number(covered),
  }));
  if (stale.length === 0) return 0;
  const version = store.nextVersion();
  const minutes = stale.map((s) => s.m);
  const covers = stale.map((s) => s.touched);
  await store.client.command({
    query: `INSERT INTO ${db}.live_minutes (${MINUTE_COLUMNS}) ${minuteAggregatesSql(db)}`,
    query_params: { minutes, covers, version },
  });
  // The traces each minute's aggregates count (what a reader weighs reading them against).
  const counted = await store.client.query({
    query: `SELECT toUInt32(toUnixTimestamp(minute)), sum(n) FROM ${db}.live_minutes
      WHERE minute >= toDateTime({lo:UInt32}, 'UTC') AND minute <= toDateTime({hi:UInt32}, 'UTC') AND version = {version:UInt64} AND kind = 't' GROUP BY minute`,
    query_params: { lo: Math.min(...minutes), hi: Math.max(...minutes), version },
    format: "JSONCompactEachRow",
  });
  const traces = new Map((await counted.json<[number | string, number | string]>()).map(([m, n]) => [Number(m), Number(n)]));
  await store.client.insert({
    table: `${db}.live_minutes_state`,
    columns: ["minute", "kind", "version", "covers", "traces"],
    values: stale.map((s) => [s.m, "computed", version, s.touched, traces.get(s.m) ?? 0]),
    format: "JSONCompactEachRow",
  });
  await dropSuperseded(
    store,
    stale.filter((s) => s.covered > 0),
  );
  return stale.length;
}

/**
 * Deletes the earlier computations of minutes computed again (`again`: each minute, s, and the
 * `touched` version its new computation covers): a reader takes a minute's aggregates only at a
 * `covers` at or above its `touched` mark, which never goes back, so those below it are never read
 * again (the table's key holds `covers`: without this they would stay). A lightweight DELETE of the
 * few minutes a late write or a rescore sent back; nothing when none was.
 */
async function dropSuperseded(store: Store, again: readonly { readonly m: number; readonly touched: number }[]): Promise<void> {
  if (again.length === 0) return;
  await store.client.command({
    query: `DELETE FROM ${store.database}.live_minutes WHERE minute >= toDateTime({lo:UInt32}, 'UTC') AND minute <= toDateTime({hi:UInt32}, 'UTC')
      AND indexOf({minutes:Array(UInt32)}, toUInt32(toUnixTimestamp(minute))) > 0 AND covers < {covers:Array(UInt64)}[indexOf({minutes:Array(UInt32)}, toUInt32(toUnixTimestamp(minute)))]`,
    query_params: { lo: Math.min(...again.map((s) => s.m)), hi: Math.max(...again.map((s) => s.m)), minutes: again.map((s) => s.m), covers: again.map((s) => s.touched) },
  });
}
