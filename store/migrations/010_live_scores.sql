-- name: live_scores: one row per live metric of a scoring of a live trace (the live view reads metrics by name); live_traces keeps the trace-level facts

-- What ragmeter live and /api/live read per metric (design §3, live view): beside each row of
-- live_traces (same created_at, trace_id and version), a row per live metric of the table.
CREATE TABLE IF NOT EXISTS {db}.live_scores (
        created_at DateTime64(3, 'UTC'),
        trace_id String,
        service_name LowCardinality(String),
        pipeline_version LowCardinality(String),
        metric LowCardinality(String),
        status LowCardinality(String),
        value Nullable(Float64),
        judge_model LowCardinality(String),
        input_tokens UInt64,
        output_tokens UInt64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (created_at, trace_id, metric);

-- The per-metric column groups of migration 7 now live in live_scores; live_traces keeps what
-- the view counts each trace as (traceView: from its status and its live metrics' statuses).
ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS grounding_status;

ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS grounding_value;

ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS grounding_judge_model;

ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS grounding_input_tokens;

ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS grounding_output_tokens;

ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS relevance_status;

ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS relevance_value;

ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS relevance_judge_model;

ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS relevance_input_tokens;

ALTER TABLE {db}.live_traces DROP COLUMN IF EXISTS relevance_output_tokens;

ALTER TABLE {db}.live_traces ADD COLUMN IF NOT EXISTS view_status LowCardinality(String) DEFAULT '';

ALTER TABLE {db}.live_traces ADD COLUMN IF NOT EXISTS scored UInt8 DEFAULT 0;

ALTER TABLE {db}.live_traces ADD COLUMN IF NOT EXISTS content_missing UInt8 DEFAULT 0;

-- data

-- The live traces stored before this migration: their live metrics' scores, then their view (once).
-- The live metrics are those of the metric table when this migration was written, frozen here.
-- The rows of live_scores for the live interactions already stored: for each interaction (FINAL)
-- and each live metric, its score of run live written with it (same version: the same scoring;
-- the lowest repeat), at the interaction's time and version (those of its live_traces row).
INSERT INTO {db}.live_scores (created_at, trace_id, service_name, pipeline_version, metric, status, value, judge_model, input_tokens, output_tokens, version)
    SELECT i.created_at, i.trace_id, i.service_name, i.pipeline_version, s.metric,
      tupleElement(s.x, 1), tupleElement(s.x, 2), tupleElement(s.x, 3), tupleElement(s.x, 4), tupleElement(s.x, 5), i.version
    FROM (SELECT * FROM {db}.interactions FINAL WHERE source = 'live') AS i
    INNER JOIN (SELECT trace_id, metric, version, argMin(tuple(status, value, judge_model, judge_input_tokens, judge_output_tokens), repeat_index) AS x
      FROM {db}.scores FINAL WHERE run_id = 'live' AND metric IN ('grounding', 'grounding_risk', 'relevance', 'context_relevance') GROUP BY trace_id, metric, version) AS s
    ON s.trace_id = i.trace_id AND s.version = i.version;

-- Every row of live_traces written again with what the view counts it as (as traceView, from its
-- live_scores of the same version), at the same key and version: the row written last wins.
INSERT INTO {db}.live_traces (created_at, trace_id, service_name, pipeline_version, status, question_hash, documents, view_status, scored, content_missing, version)
    SELECT t.created_at, t.trace_id, t.service_name, t.pipeline_version, t.status, t.question_hash, t.documents,
      if(t.status != 'ok' OR ifNull(s.first, '') = '', t.status, s.first), ifNull(s.ok, 0), if(t.status = 'content_missing', 1, ifNull(s.cm, 0)), t.version
    FROM (SELECT * FROM {db}.live_traces FINAL) AS t
    LEFT JOIN (SELECT trace_id, version, max(status = 'ok') AS ok, max(status = 'content_missing') AS cm, argMin(status, indexOf(['grounding', 'grounding_risk', 'relevance', 'context_relevance'], metric)) AS first
      FROM {db}.live_scores FINAL WHERE status != '' AND metric IN ('grounding', 'grounding_risk', 'relevance', 'context_relevance') GROUP BY trace_id, version) AS s
    ON s.trace_id = t.trace_id AND s.version = t.version;
