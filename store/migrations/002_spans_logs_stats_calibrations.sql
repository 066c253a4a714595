-- name: spans, logs, ingestion stats, calibrations

-- One row per OTLP span (design §6: key (trace_id, span_id)); attributes as JSON text with
-- 64-bit integers kept exact as strings.
CREATE TABLE IF NOT EXISTS {db}.spans (
        trace_id String,
        span_id String,
        parent_span_id String,
        name String,
        kind UInt8,
        start_time_unix_nano UInt64,
        end_time_unix_nano UInt64,
        status_code UInt8,
        attributes String,
        resource_attributes String,
        scope_name String,
        events String,
        service_name String,
        received_at DateTime64(3, 'UTC'),
        kafka_partition Int32,
        kafka_offset Int64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (trace_id, span_id);

-- OTLP log records of GenAI content events, linked to their span (record_id = content hash).
CREATE TABLE IF NOT EXISTS {db}.logs (
        trace_id String,
        span_id String,
        record_id String,
        event_name String,
        time_unix_nano UInt64,
        body String,
        attributes String,
        received_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (trace_id, span_id, record_id);

-- Per-minute counters of each scorer instance (cumulative within the minute; the latest write wins).
CREATE TABLE IF NOT EXISTS {db}.ingestion_stats (
        minute DateTime('UTC'),
        scorer_id String,
        spans_received UInt64,
        traces_scored UInt64,
        consumer_lag Int64,
        dlq_count UInt64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (minute, scorer_id);

-- The judge prompt version an interaction was scored under (the scoring loop's "already scored" test).
ALTER TABLE {db}.interactions ADD COLUMN IF NOT EXISTS judge_prompt_version String DEFAULT '';

-- Judge agreement with human labels (ragmeter calibrate score).
CREATE TABLE IF NOT EXISTS {db}.calibrations (
        calibration_id String,
        created_at DateTime64(3, 'UTC'),
        judge_kind LowCardinality(String),
        judge_model String,
        judge_prompt_version String,
        source_run_id String,
        file String,
        n_claims UInt32,
        claim_agreement Nullable(Float64),
        claim_kappa Nullable(Float64),
        n_relevance UInt32,
        relevance_agreement Nullable(Float64),
        relevance_qwk Nullable(Float64),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY calibration_id;
