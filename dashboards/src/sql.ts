/**
 * The SQL of every panel, as the grafana-clickhouse-datasource plugin receives it: Grafana template
 * variables (`${pipeline_version:singlequote}`, `$source`, `${k}` …) and the plugin's macros
 * (`$__timeFilter(col)`, `$__timeInterval(col)`, `$__conditionalAll(cond, $var)`) are left in place;
 * Grafana and the plugin expand them (see `macros.ts` for the same expansion in tests).
 *
 * Tables are unqualified: the datasource's `defaultDatabase` (CLICKHOUSE_DATABASE) is the connection's
 * database. Every table is a ReplacingMergeTree (design §6), so every read uses FINAL.
 */

import { type MetricTable, metricTable } from "@ragmeter/core/metrics";
import { avgColumns, hitMetric, metricsAtEveryK, metricsAtK, scaledJudgedMetric, sqlNames } from "./metrics.js";

/**
 * A claim's text (design §6, migration 16): a claim stored as a slice of its answer is read back
 * from `i.answer` when the answer's digest is the one it was cut from, else its `claim` column. The
 * same SQL as the store's `claimTextSql("c", "i.answer")` (core/src/domain/claimSpans.ts; a unit
 * test holds them equal), written out here: the dashboards import only the metric table.
 */
export const CLAIM_TEXT =
  "if(c.claim_length > 0 AND reinterpretAsUInt32(MD5(ifNull(i.answer, ''))) = c.answer_digest, substring(ifNull(i.answer, ''), c.claim_start + 1, c.claim_length), c.claim)";

/** Dashboard variables (names used in the SQL). */
export const VARIABLES = {
  k: "k",
  pipelineVersion: "pipeline_version",
  goldenSet: "golden_set",
  source: "source",
  service: "service",
} as const;

/** Where the source and service of a row come from. */
interface FilterOptions {
  /** Time column for `$__timeFilter`, or null for no time filter. */
  readonly time: string | null;
  /** Column prefix (table alias with a dot), default none. */
  readonly prefix?: string;
  /** `column`: the table has a `source` column; `interactions`: look it up by trace id. */
  readonly source: "column" | "interactions";
  /** False when the table has no pipeline_version column. */
  readonly pipeline?: boolean;
}

/**
 * The common WHERE conditions of a panel on a table with `run_id`, `trace_id` (and usually
 * `pipeline_version`, `source`): time range, pipeline version, golden set (through `runs`), source
 * and service (through `interactions`). A variable set to "All" becomes `1=1` (`$__conditionalAll`).
 */
export function filters(o: FilterOptions): string {
  const p = o.prefix ?? "";
  const parts: string[] = [];
  if (o.time !== null) parts.push(`$__timeFilter(${p}${o.time})`);
  if (o.pipeline !== false) parts.push(`$__conditionalAll(${p}pipeline_version IN (\${pipeline_version:singlequote}), $pipeline_version)`);
  parts.push(`$__conditionalAll(${p}run_id IN (SELECT run_id FROM runs FINAL WHERE golden_set_hash IN (\${golden_set:singlequote})), $golden_set)`);
  parts.push(
    o.source === "column"
      ? `$__conditionalAll(${p}source IN (\${source:singlequote}), $source)`
      : `$__conditionalAll(${p}trace_id IN (SELECT trace_id FROM interactions FINAL WHERE source IN (\${source:singlequote})), $source)`,
  );
  parts.push(`$__conditionalAll(${p}trace_id IN (SELECT trace_id FROM interactions FINAL WHERE service_name IN (\${service:singlequote})), $service)`);
  return parts.join("\n  AND ");
}

/** Conditions on `runs` rows (alias-free): time on started_at, pipeline version, golden set, source. */
export function runFilters(): string {
  return [
    "$__timeFilter(started_at)",
    "$__conditionalAll(pipeline_version IN (${pipeline_version:singlequote}), $pipeline_version)",
    "$__conditionalAll(golden_set_hash IN (${golden_set:singlequote}), $golden_set)",
    "$__conditionalAll(source IN (${source:singlequote}), $source)",
  ].join("\n  AND ");
}

/**
 * Per-question `ok` scores (repeats averaged, design §5) in the filters: one row per
 * (run_id, trace_id, golden_id, metric, pipeline_version) with `v` (the mean) and `scored_at` (latest row time).
 */
function perQuestion(metrics: string): string {
  return `SELECT run_id, trace_id, golden_id, metric, pipeline_version, avg(value) AS v, max(created_at) AS scored_at
  FROM scores FINAL
  WHERE status = 'ok' AND metric IN (${metrics})
  AND ${filters({ time: "created_at", source: "column" })}
  GROUP BY run_id, trace_id, golden_id, metric, pipeline_version`;
}

/** Variable queries: the first column is the value, the second (when present) the text. */
export const VARIABLE_SQL = {
  pipelineVersion: "SELECT DISTINCT pipeline_version FROM runs FINAL WHERE pipeline_version != '' ORDER BY pipeline_version",
  goldenSet: "SELECT golden_set_hash, concat(any(path), ' (', substring(golden_set_hash, 1, 8), ')') FROM golden_sets FINAL GROUP BY golden_set_hash ORDER BY golden_set_hash",
  service: "SELECT DISTINCT service_name FROM interactions FINAL WHERE service_name != '' ORDER BY service_name",
} as const;

/** Panel SQL, keyed by panel id (see `dashboards.ts`), for the metrics of `table` (the scorer's by default). */
export function panelSql(table: MetricTable = metricTable) {
  /** The headline metrics of the Overview trend. */
  const HEADLINE = sqlNames(metricsAtK((m) => m.headline, table));
  /** The metrics of the per-version overview (the table's trend metrics). */
  const TREND = metricsAtK((m) => m.trend, table);
  /** The retrieval metrics at every k of the `k` variable. */
  const RETRIEVAL = metricsAtEveryK((m) => m.kind === "retrieval", table);
  /** The metrics of the by-tag table: every metric but those that need a reference-based judge. */
  const BY_TAG = metricsAtK((m) => !m.optional, table);
  /** Rows of view metrics (read from another metric's judgment: no judgment of their own) are not judge calls. */
  const VIEWS = table([]).filter((m) => m.kind === "judged" && m.view !== undefined);
  const notViews = VIEWS.length === 0 ? "" : ` AND metric NOT IN (${VIEWS.map((m) => `'${m.name}'`).join(", ")})`;
  /** The per-k metric whose questions lose their hit (recall@k). */
  const HIT = hitMetric(table);
  /** The judged metric on a 0–max scale (relevance): its distribution and low scores. */
  const SCALED = scaledJudgedMetric(table);
  const scores = Array.from({ length: SCALED.max + 1 }, (_, i) => `countIf(round(v) = ${i}) AS score_${i}`).join(",\n  ");
  return {
    // ── Overview ────────────────────────────────────────────────────────────────────────────────
    overview_trend: `SELECT $__timeInterval(created_at) AS time, metric, avg(value) AS value
FROM scores FINAL
WHERE status = 'ok' AND metric IN (${HEADLINE})
  AND ${filters({ time: "created_at", source: "column" })}
GROUP BY time, metric
ORDER BY time, metric`,

    overview_by_version: `SELECT pipeline_version,
  ${avgColumns(TREND)},
  uniqExact(trace_id) AS questions,
  max(scored_at) AS last_scored
FROM (${perQuestion(sqlNames(TREND))})
GROUP BY pipeline_version
ORDER BY last_scored DESC, pipeline_version`,

    overview_last_vs_previous: `WITH (
    SELECT argMax(comparison_id, created_at) FROM comparisons FINAL
    WHERE $__timeFilter(created_at)
      AND run_b IN (SELECT run_id FROM runs FINAL WHERE ${runFilters().replace(/\n {2}/gu, " ")})
  ) AS last_comparison
SELECT c.metric AS metric,
  ra.pipeline_version AS previous_version,
  rb.pipeline_version AS last_version,
  c.mean_a AS previous, c.mean_b AS last, c.delta AS delta,
  c.ci_lower AS ci_lower, c.ci_upper AS ci_upper, c.n AS n,
  if(c.ci_lower > 0 OR c.ci_upper < 0, 'yes', 'no') AS interval_excludes_0
FROM comparisons AS c FINAL
LEFT JOIN (SELECT run_id, pipeline_version FROM runs FINAL) AS ra ON ra.run_id = c.run_a
LEFT JOIN (SELECT run_id, pipeline_version FROM runs FINAL) AS rb ON rb.run_id = c.run_b
WHERE c.comparison_id = last_comparison
ORDER BY metric`,

    // ── Retrieval ───────────────────────────────────────────────────────────────────────────────
    retrieval_by_version: `SELECT pipeline_version,
  ${avgColumns(RETRIEVAL)},
  uniqExact(trace_id) AS answerable_questions
FROM (${perQuestion(sqlNames(RETRIEVAL))})
GROUP BY pipeline_version
ORDER BY max(scored_at) DESC, pipeline_version`,

    retrieval_lost_hit: `WITH
  (SELECT argMax(run_id, (started_at, run_id)) FROM runs FINAL WHERE status = 'completed' AND ${runFilters().replace(/\n {2}/gu, " ")}) AS last_run,
  (SELECT any(golden_set_hash) FROM runs FINAL WHERE run_id = last_run) AS last_hash,
  (SELECT any(started_at) FROM runs FINAL WHERE run_id = last_run) AS last_started,
  (SELECT argMax(run_id, (started_at, run_id)) FROM runs FINAL
     WHERE status = 'completed' AND golden_set_hash = last_hash AND run_id != last_run AND started_at <= last_started) AS previous_run
SELECT b.golden_id AS golden_id, gi.question AS question,
  a.pipeline_version AS previous_version, b.pipeline_version AS last_version,
  b.trace_id AS trace_id
FROM (SELECT golden_id, avg(value) AS v, any(pipeline_version) AS pipeline_version, any(trace_id) AS trace_id
      FROM scores FINAL WHERE run_id = last_run AND metric = '${HIT.name}' AND status = 'ok' GROUP BY golden_id) AS b
INNER JOIN (SELECT golden_id, avg(value) AS v, any(pipeline_version) AS pipeline_version
      FROM scores FINAL WHERE run_id = previous_run AND metric = '${HIT.name}' AND status = 'ok' GROUP BY golden_id) AS a
  ON a.golden_id = b.golden_id
LEFT JOIN (SELECT golden_id, question FROM golden_items FINAL WHERE golden_set_hash = last_hash) AS gi ON gi.golden_id = b.golden_id
WHERE a.v = 1 AND b.v = 0
ORDER BY golden_id`,

    // ── Grounding ───────────────────────────────────────────────────────────────────────────────
    grounding_verdicts: `SELECT $__timeInterval(created_at) AS time, verdict, count() AS claims
FROM claims FINAL
WHERE ${filters({ time: "created_at", source: "interactions" })}
GROUP BY time, verdict
ORDER BY time, verdict`,

    grounding_by_version: `SELECT pipeline_version,
  countIf(verdict = 'SUPPORTED') AS supported,
  countIf(verdict = 'UNSUPPORTED') AS unsupported,
  countIf(verdict = 'CONTRADICTED') AS contradicted,
  countIf(verdict = 'SUPPORTED') / count() AS supported_share
FROM claims FINAL
WHERE ${filters({ time: "created_at", source: "interactions" })}
GROUP BY pipeline_version
ORDER BY pipeline_version`,

    grounding_recent_bad: `SELECT c.created_at AS time, c.verdict AS verdict, ${CLAIM_TEXT} AS claim, i.question AS question,
  c.pipeline_version AS pipeline_version, c.trace_id AS trace_id, c.golden_id AS golden_id
FROM claims AS c FINAL
LEFT JOIN (SELECT trace_id, question, answer FROM interactions FINAL) AS i ON i.trace_id = c.trace_id
WHERE c.verdict IN ('UNSUPPORTED', 'CONTRADICTED')
  AND ${filters({ time: "created_at", source: "interactions", prefix: "c." })}
ORDER BY time DESC, trace_id, c.claim_index
LIMIT 50`,

    // ── Relevance ───────────────────────────────────────────────────────────────────────────────
    relevance_distribution: `SELECT pipeline_version,
  ${scores}
FROM (${perQuestion(sqlNames([SCALED]))})
GROUP BY pipeline_version
ORDER BY pipeline_version`,

    relevance_low: `SELECT s.scored_at AS time, s.v AS ${SCALED.column}, i.question AS question, i.answer AS answer,
  s.pipeline_version AS pipeline_version, s.trace_id AS trace_id, s.golden_id AS golden_id
FROM (${perQuestion(sqlNames([SCALED]))}) AS s
LEFT JOIN (SELECT trace_id, question, answer FROM interactions FINAL) AS i ON i.trace_id = s.trace_id
WHERE s.v <= 1
ORDER BY ${SCALED.column}, time DESC, trace_id
LIMIT 50`,

    // ── Judges ──────────────────────────────────────────────────────────────────────────────────
    judges_calls: `SELECT $__timeInterval(created_at) AS time, judge_kind, count() AS calls
FROM scores FINAL
WHERE judge_kind != 'mechanical'${notViews}
  AND ${filters({ time: "created_at", source: "column" })}
GROUP BY time, judge_kind
ORDER BY time, judge_kind`,

    judges_tokens: `SELECT $__timeInterval(created_at) AS time, sum(judge_input_tokens) AS tokens_in, sum(judge_output_tokens) AS tokens_out
FROM scores FINAL
WHERE judge_kind != 'mechanical'
  AND ${filters({ time: "created_at", source: "column" })}
GROUP BY time
ORDER BY time`,

    judges_skipped: `SELECT $__timeInterval(minute) AS time,
  sum(judge_skipped_not_applicable) AS not_applicable, sum(judge_skipped_content_missing) AS content_missing,
  sum(judge_skipped_context_incomplete) AS context_incomplete, sum(judge_skipped_uncertain_reading) AS uncertain_reading,
  sum(judge_skipped_not_sampled) AS not_sampled
FROM ingestion_stats FINAL
WHERE $__timeFilter(minute)
GROUP BY time
ORDER BY time`,

    judges_status: `SELECT metric, status, count() AS results
FROM scores FINAL
WHERE judge_kind != 'mechanical'
  AND ${filters({ time: "created_at", source: "column" })}
GROUP BY metric, status
ORDER BY metric, status`,

    judges_latency: `SELECT $__timeInterval(created_at) AS time,
  quantileExact(0.5)(latency_ms) AS p50_ms, quantileExact(0.95)(latency_ms) AS p95_ms
FROM scores FINAL
-- a model call (tokens sent); cached and model-free judgments take no call time
WHERE judge_kind != 'mechanical' AND judge_input_tokens > 0
  AND ${filters({ time: "created_at", source: "column" })}
GROUP BY time
ORDER BY time`,

    // judge usage and cost live in runs.summary (JSON `judge`: calls, cached, input_tokens, output_tokens, cost_usd)
    judges_runs: `SELECT started_at AS time, run_id, pipeline_version,
  JSONExtractUInt(summary, 'judge', 'calls') AS calls,
  JSONExtractUInt(summary, 'judge', 'cached') AS cached,
  if(calls + cached = 0, NULL, cached / (calls + cached)) AS cached_share,
  JSONExtractUInt(summary, 'judge', 'input_tokens') AS tokens_in,
  JSONExtractUInt(summary, 'judge', 'output_tokens') AS tokens_out,
  JSONExtract(summary, 'judge', 'cost_usd', 'Nullable(Float64)') AS cost_usd
FROM runs FINAL
WHERE status = 'completed' AND ${runFilters()}
ORDER BY started_at DESC, run_id
LIMIT 50`,

    judges_calibration: `SELECT created_at AS time, judge_kind, judge_model, judge_prompt_version, n_claims, claim_agreement, claim_kappa,
  n_relevance, relevance_agreement, relevance_qwk, file
FROM calibrations FINAL
ORDER BY created_at DESC, calibration_id
LIMIT 1`,

    // ── Ingestion ───────────────────────────────────────────────────────────────────────────────
    ingestion_throughput: `SELECT $__timeInterval(minute) AS time,
  sum(spans_received) AS spans_received, sum(traces_scored) AS traces_scored, sum(dlq_count) AS dead_lettered
FROM ingestion_stats FINAL
WHERE $__timeFilter(minute)
GROUP BY time
ORDER BY time`,

    ingestion_lag: `SELECT $__timeInterval(minute) AS time, scorer_id, max(consumer_lag) AS consumer_lag
FROM ingestion_stats FINAL
WHERE $__timeFilter(minute)
GROUP BY time, scorer_id
ORDER BY time, scorer_id`,

    // ── Tags ────────────────────────────────────────────────────────────────────────────────────
    tags_metrics: `SELECT g.tag AS tag, s.pipeline_version AS pipeline_version,
  ${avgColumns(BY_TAG, "s.")},
  uniqExact(s.trace_id) AS questions
FROM (${perQuestion(sqlNames(BY_TAG))}) AS s
INNER JOIN (SELECT run_id, golden_set_hash FROM runs FINAL) AS r ON r.run_id = s.run_id
INNER JOIN (SELECT golden_set_hash, golden_id, tag FROM golden_items FINAL ARRAY JOIN tags AS tag) AS g
  ON g.golden_set_hash = r.golden_set_hash AND g.golden_id = s.golden_id
GROUP BY tag, pipeline_version
ORDER BY tag, pipeline_version`,
  } as const;
}

/** Panel SQL of the scorer's metric table, keyed by panel id. */
export const PANEL_SQL = panelSql();

/** Panel id. */
export type PanelId = keyof typeof PANEL_SQL;
