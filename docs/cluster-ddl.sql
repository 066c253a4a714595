-- ragmeter's schema in its clustered form (CLICKHOUSE_CLUSTER=ragmeter_cluster, CLICKHOUSE_DATABASE=ragmeter), design §11.
-- Generated from the migrations (store/src/migrations.ts, clusteredStatements) by `npm run docs:cluster-ddl`;
-- tests/unit/cluster-ddl.unit.test.ts fails when this file is stale, and tests/integration/migrations.integration.test.ts
-- parses every statement in the ClickHouse engine. `ragmeter scorer` (or serve) runs them itself on its first start
-- with CLICKHOUSE_URL and CLICKHOUSE_CLUSTER set, recording each migration in schema_migrations, and then the data
-- statements of migrations 7, 10 and 12 (filling live_traces, live_scores, marking live_minutes_state) as they are; this file is for review. {shard} and {replica} are
-- the macros of each server's configuration.

CREATE DATABASE IF NOT EXISTS ragmeter ON CLUSTER ragmeter_cluster;

CREATE TABLE IF NOT EXISTS ragmeter.schema_migrations ON CLUSTER ragmeter_cluster (id UInt32, name String, applied_at DateTime64(3, 'UTC')) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/ragmeter/schema_migrations', '{replica}') ORDER BY id;

CREATE TABLE IF NOT EXISTS ragmeter.runs_local ON CLUSTER ragmeter_cluster (
        run_id String,
        started_at DateTime64(3, 'UTC'),
        finished_at Nullable(DateTime64(3, 'UTC')),
        status LowCardinality(String),
        source LowCardinality(String),
        pipeline_version String,
        golden_set_hash String,
        golden_set_path String,
        judge_kind LowCardinality(String),
        judge_model String,
        judge_prompt_version String,
        ks Array(UInt16),
        target String,
        summary String,
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/runs', '{replica}', version) ORDER BY run_id;

CREATE TABLE IF NOT EXISTS ragmeter.runs ON CLUSTER ragmeter_cluster AS ragmeter.runs_local ENGINE = Distributed(ragmeter_cluster, ragmeter, runs_local, cityHash64(run_id));

CREATE TABLE IF NOT EXISTS ragmeter.golden_sets_local ON CLUSTER ragmeter_cluster (
        golden_set_hash String,
        path String,
        item_count UInt32,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/golden_sets', '{replica}', version) ORDER BY golden_set_hash;

CREATE TABLE IF NOT EXISTS ragmeter.golden_sets ON CLUSTER ragmeter_cluster AS ragmeter.golden_sets_local ENGINE = Distributed(ragmeter_cluster, ragmeter, golden_sets_local, cityHash64(golden_set_hash));

CREATE TABLE IF NOT EXISTS ragmeter.golden_items_local ON CLUSTER ragmeter_cluster (
        golden_set_hash String,
        golden_id String,
        position UInt32,
        question String,
        expected_source Nullable(String),
        expected_substring Nullable(String),
        reference_answer Nullable(String),
        key_facts Array(String),
        has_key_facts UInt8,
        tags Array(String),
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/golden_items', '{replica}', version) ORDER BY (golden_set_hash, golden_id);

CREATE TABLE IF NOT EXISTS ragmeter.golden_items ON CLUSTER ragmeter_cluster AS ragmeter.golden_items_local ENGINE = Distributed(ragmeter_cluster, ragmeter, golden_items_local, cityHash64(golden_set_hash));

CREATE TABLE IF NOT EXISTS ragmeter.interactions_local ON CLUSTER ragmeter_cluster (
        trace_id String,
        run_id String,
        golden_id String,
        source LowCardinality(String),
        service_name String,
        deployment_environment String,
        pipeline_version String,
        question String,
        answer Nullable(String),
        retrieved Array(Tuple(id String, document_id String, text String, score Nullable(Float64), rank UInt32)),
        generator_model Nullable(String),
        input_tokens Nullable(UInt64),
        output_tokens Nullable(UInt64),
        abstained Nullable(UInt8),
        status LowCardinality(String),
        reason String,
        latency_ms Nullable(Float64),
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/interactions', '{replica}', version) ORDER BY trace_id;

CREATE TABLE IF NOT EXISTS ragmeter.interactions ON CLUSTER ragmeter_cluster AS ragmeter.interactions_local ENGINE = Distributed(ragmeter_cluster, ragmeter, interactions_local, cityHash64(trace_id));

CREATE TABLE IF NOT EXISTS ragmeter.scores_local ON CLUSTER ragmeter_cluster (
        run_id String,
        trace_id String,
        metric LowCardinality(String),
        judge_prompt_version String,
        repeat_index UInt16,
        golden_id String,
        value Nullable(Float64),
        status LowCardinality(String),
        reason String,
        judge_kind LowCardinality(String),
        judge_model String,
        pipeline_version String,
        source LowCardinality(String),
        created_at DateTime64(3, 'UTC'),
        judge_input_tokens UInt64,
        judge_output_tokens UInt64,
        latency_ms Float64,
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/scores', '{replica}', version) ORDER BY (run_id, trace_id, metric, judge_prompt_version, repeat_index);

CREATE TABLE IF NOT EXISTS ragmeter.scores ON CLUSTER ragmeter_cluster AS ragmeter.scores_local ENGINE = Distributed(ragmeter_cluster, ragmeter, scores_local, cityHash64(trace_id));

CREATE TABLE IF NOT EXISTS ragmeter.claims_local ON CLUSTER ragmeter_cluster (
        run_id String,
        trace_id String,
        judge_prompt_version String,
        repeat_index UInt16,
        claim_index UInt32,
        golden_id String,
        claim String,
        verdict LowCardinality(String),
        chunk_ids Array(String),
        judge_model String,
        pipeline_version String,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/claims', '{replica}', version) ORDER BY (run_id, trace_id, judge_prompt_version, repeat_index, claim_index);

CREATE TABLE IF NOT EXISTS ragmeter.claims ON CLUSTER ragmeter_cluster AS ragmeter.claims_local ENGINE = Distributed(ragmeter_cluster, ragmeter, claims_local, cityHash64(trace_id));

CREATE TABLE IF NOT EXISTS ragmeter.judge_cache_local ON CLUSTER ragmeter_cluster (
        cache_key String,
        judge_model String,
        judge_prompt_version String,
        result String,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/judge_cache', '{replica}', version) ORDER BY cache_key;

CREATE TABLE IF NOT EXISTS ragmeter.judge_cache ON CLUSTER ragmeter_cluster AS ragmeter.judge_cache_local ENGINE = Distributed(ragmeter_cluster, ragmeter, judge_cache_local, cityHash64(cache_key));

CREATE TABLE IF NOT EXISTS ragmeter.comparisons_local ON CLUSTER ragmeter_cluster (
        comparison_id String,
        run_a String,
        run_b String,
        metric LowCardinality(String),
        n UInt32,
        mean_a Nullable(Float64),
        mean_b Nullable(Float64),
        delta Nullable(Float64),
        ci_lower Nullable(Float64),
        ci_upper Nullable(Float64),
        seed UInt64,
        resamples UInt32,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/comparisons', '{replica}', version) ORDER BY (comparison_id, metric);

CREATE TABLE IF NOT EXISTS ragmeter.comparisons ON CLUSTER ragmeter_cluster AS ragmeter.comparisons_local ENGINE = Distributed(ragmeter_cluster, ragmeter, comparisons_local, cityHash64(comparison_id));

CREATE TABLE IF NOT EXISTS ragmeter.spans_local ON CLUSTER ragmeter_cluster (
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
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/spans', '{replica}', version) ORDER BY (trace_id, span_id);

CREATE TABLE IF NOT EXISTS ragmeter.spans ON CLUSTER ragmeter_cluster AS ragmeter.spans_local ENGINE = Distributed(ragmeter_cluster, ragmeter, spans_local, cityHash64(trace_id));

CREATE TABLE IF NOT EXISTS ragmeter.logs_local ON CLUSTER ragmeter_cluster (
        trace_id String,
        span_id String,
        record_id String,
        event_name String,
        time_unix_nano UInt64,
        body String,
        attributes String,
        received_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/logs', '{replica}', version) ORDER BY (trace_id, span_id, record_id);

CREATE TABLE IF NOT EXISTS ragmeter.logs ON CLUSTER ragmeter_cluster AS ragmeter.logs_local ENGINE = Distributed(ragmeter_cluster, ragmeter, logs_local, cityHash64(trace_id));

CREATE TABLE IF NOT EXISTS ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster (
        minute DateTime('UTC'),
        scorer_id String,
        spans_received UInt64,
        traces_scored UInt64,
        consumer_lag Int64,
        dlq_count UInt64,
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/ingestion_stats', '{replica}', version) ORDER BY (minute, scorer_id);

CREATE TABLE IF NOT EXISTS ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster AS ragmeter.ingestion_stats_local ENGINE = Distributed(ragmeter_cluster, ragmeter, ingestion_stats_local, cityHash64(minute));

ALTER TABLE ragmeter.interactions_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_prompt_version String DEFAULT '';

ALTER TABLE ragmeter.interactions ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_prompt_version String DEFAULT '';

CREATE TABLE IF NOT EXISTS ragmeter.calibrations_local ON CLUSTER ragmeter_cluster (
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
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/calibrations', '{replica}', version) ORDER BY calibration_id;

CREATE TABLE IF NOT EXISTS ragmeter.calibrations ON CLUSTER ragmeter_cluster AS ragmeter.calibrations_local ENGINE = Distributed(ragmeter_cluster, ragmeter, calibrations_local, cityHash64(calibration_id));

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_not_applicable UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_not_applicable UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_content_missing UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_content_missing UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_context_incomplete UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_context_incomplete UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_not_sampled UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_not_sampled UInt64 DEFAULT 0;

ALTER TABLE ragmeter.golden_items_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS expected_chunk_id Nullable(String);

ALTER TABLE ragmeter.golden_items ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS expected_chunk_id Nullable(String);

CREATE TABLE IF NOT EXISTS ragmeter.forgotten_traces_local ON CLUSTER ragmeter_cluster (
        trace_id String,
        forgotten_at DateTime64(3, 'UTC'),
        reason String,
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/forgotten_traces', '{replica}', version) ORDER BY trace_id;

CREATE TABLE IF NOT EXISTS ragmeter.forgotten_traces ON CLUSTER ragmeter_cluster AS ragmeter.forgotten_traces_local ENGINE = Distributed(ragmeter_cluster, ragmeter, forgotten_traces_local, cityHash64(trace_id));

ALTER TABLE ragmeter.spans_local ON CLUSTER ragmeter_cluster MODIFY COLUMN attributes String DEFAULT '{}';

ALTER TABLE ragmeter.spans ON CLUSTER ragmeter_cluster MODIFY COLUMN attributes String DEFAULT '{}';

ALTER TABLE ragmeter.spans_local ON CLUSTER ragmeter_cluster MODIFY COLUMN events String DEFAULT '[]';

ALTER TABLE ragmeter.spans ON CLUSTER ragmeter_cluster MODIFY COLUMN events String DEFAULT '[]';

ALTER TABLE ragmeter.logs_local ON CLUSTER ragmeter_cluster MODIFY COLUMN body String DEFAULT 'null';

ALTER TABLE ragmeter.logs ON CLUSTER ragmeter_cluster MODIFY COLUMN body String DEFAULT 'null';

ALTER TABLE ragmeter.logs_local ON CLUSTER ragmeter_cluster MODIFY COLUMN attributes String DEFAULT '{}';

ALTER TABLE ragmeter.logs ON CLUSTER ragmeter_cluster MODIFY COLUMN attributes String DEFAULT '{}';

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS spans_dropped_forgotten UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS spans_dropped_forgotten UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_uncertain_reading UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_uncertain_reading UInt64 DEFAULT 0;

CREATE TABLE IF NOT EXISTS ragmeter.live_traces_local ON CLUSTER ragmeter_cluster (
        created_at DateTime64(3, 'UTC'),
        trace_id String,
        service_name String,
        pipeline_version String,
        status LowCardinality(String),
        question_hash UInt64,
        documents Array(String),
        grounding_status LowCardinality(String),
        grounding_value Nullable(Float64),
        grounding_judge_model String,
        grounding_input_tokens UInt64,
        grounding_output_tokens UInt64,
        relevance_status LowCardinality(String),
        relevance_value Nullable(Float64),
        relevance_judge_model String,
        relevance_input_tokens UInt64,
        relevance_output_tokens UInt64,
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/live_traces', '{replica}', version) ORDER BY (created_at, trace_id);

CREATE TABLE IF NOT EXISTS ragmeter.live_traces ON CLUSTER ragmeter_cluster AS ragmeter.live_traces_local ENGINE = Distributed(ragmeter_cluster, ragmeter, live_traces_local, cityHash64(trace_id));

CREATE TABLE IF NOT EXISTS ragmeter.chunks_local ON CLUSTER ragmeter_cluster (
        chunk_hash String,
        text String,
        document_id String,
        first_seen DateTime64(3, 'UTC'),
        last_seen DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/chunks', '{replica}', version) ORDER BY chunk_hash;

CREATE TABLE IF NOT EXISTS ragmeter.chunks ON CLUSTER ragmeter_cluster AS ragmeter.chunks_local ENGINE = Distributed(ragmeter_cluster, ragmeter, chunks_local, cityHash64(chunk_hash));

ALTER TABLE ragmeter.interactions_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS chunk_hashes Array(String) DEFAULT [];

ALTER TABLE ragmeter.interactions ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS chunk_hashes Array(String) DEFAULT [];

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_budget_exhausted UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_skipped_budget_exhausted UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_errors Map(LowCardinality(String), UInt64);

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_errors Map(LowCardinality(String), UInt64);

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_own_traces UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_own_traces UInt64 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS spans_attributes_dropped Map(String, UInt64);

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS spans_attributes_dropped Map(String, UInt64);

CREATE TABLE IF NOT EXISTS ragmeter.live_scores_local ON CLUSTER ragmeter_cluster (
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
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/live_scores', '{replica}', version) ORDER BY (created_at, trace_id, metric);

CREATE TABLE IF NOT EXISTS ragmeter.live_scores ON CLUSTER ragmeter_cluster AS ragmeter.live_scores_local ENGINE = Distributed(ragmeter_cluster, ragmeter, live_scores_local, cityHash64(trace_id));

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_status;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_status;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_value;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_value;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_judge_model;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_judge_model;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_input_tokens;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_input_tokens;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_output_tokens;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS grounding_output_tokens;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_status;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_status;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_value;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_value;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_judge_model;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_judge_model;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_input_tokens;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_input_tokens;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_output_tokens;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster DROP COLUMN IF EXISTS relevance_output_tokens;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS view_status LowCardinality(String) DEFAULT '';

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS view_status LowCardinality(String) DEFAULT '';

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS scored UInt8 DEFAULT 0;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS scored UInt8 DEFAULT 0;

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS content_missing UInt8 DEFAULT 0;

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS content_missing UInt8 DEFAULT 0;

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_calls_by_service Map(String, UInt64);

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_calls_by_service Map(String, UInt64);

ALTER TABLE ragmeter.ingestion_stats_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_tokens_by_service Map(String, UInt64);

ALTER TABLE ragmeter.ingestion_stats ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS judge_tokens_by_service Map(String, UInt64);

CREATE TABLE IF NOT EXISTS ragmeter.live_minutes_state_local ON CLUSTER ragmeter_cluster (
        minute DateTime('UTC'),
        kind LowCardinality(String),
        covers UInt64,
        traces UInt64,
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/live_minutes_state', '{replica}', version) ORDER BY (minute, kind);

CREATE TABLE IF NOT EXISTS ragmeter.live_minutes_state ON CLUSTER ragmeter_cluster AS ragmeter.live_minutes_state_local ENGINE = Distributed(ragmeter_cluster, ragmeter, live_minutes_state_local, cityHash64(minute));

CREATE TABLE IF NOT EXISTS ragmeter.live_minutes_local ON CLUSTER ragmeter_cluster (
        minute DateTime('UTC'),
        covers UInt64,
        kind LowCardinality(String),
        service_name LowCardinality(String),
        pipeline_version LowCardinality(String),
        status LowCardinality(String),
        metric LowCardinality(String),
        flag UInt8,
        content_missing UInt8,
        judge_model LowCardinality(String),
        n UInt64,
        n_values UInt64,
        value_sum Float64,
        input_tokens UInt64,
        output_tokens UInt64,
        version UInt64
      ) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ragmeter/live_minutes', '{replica}', version) ORDER BY (minute, covers, kind, service_name, pipeline_version, status, metric, flag, content_missing, judge_model);

CREATE TABLE IF NOT EXISTS ragmeter.live_minutes ON CLUSTER ragmeter_cluster AS ragmeter.live_minutes_local ENGINE = Distributed(ragmeter_cluster, ragmeter, live_minutes_local, cityHash64(minute));

ALTER TABLE ragmeter.spans_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS chunk_hashes Array(String) DEFAULT [];

ALTER TABLE ragmeter.spans ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS chunk_hashes Array(String) DEFAULT [];

ALTER TABLE ragmeter.spans_local ON CLUSTER ragmeter_cluster MODIFY COLUMN attributes CODEC(ZSTD(3)), MODIFY COLUMN resource_attributes CODEC(ZSTD(3)), MODIFY COLUMN events CODEC(ZSTD(3));

ALTER TABLE ragmeter.spans ON CLUSTER ragmeter_cluster MODIFY COLUMN attributes CODEC(ZSTD(3)), MODIFY COLUMN resource_attributes CODEC(ZSTD(3)), MODIFY COLUMN events CODEC(ZSTD(3));

ALTER TABLE ragmeter.logs_local ON CLUSTER ragmeter_cluster MODIFY COLUMN body CODEC(ZSTD(3)), MODIFY COLUMN attributes CODEC(ZSTD(3));

ALTER TABLE ragmeter.logs ON CLUSTER ragmeter_cluster MODIFY COLUMN body CODEC(ZSTD(3)), MODIFY COLUMN attributes CODEC(ZSTD(3));

ALTER TABLE ragmeter.chunks_local ON CLUSTER ragmeter_cluster MODIFY COLUMN text CODEC(ZSTD(3));

ALTER TABLE ragmeter.chunks ON CLUSTER ragmeter_cluster MODIFY COLUMN text CODEC(ZSTD(3));

ALTER TABLE ragmeter.interactions_local ON CLUSTER ragmeter_cluster MODIFY COLUMN question CODEC(ZSTD(3)), MODIFY COLUMN answer CODEC(ZSTD(3)), MODIFY COLUMN retrieved CODEC(ZSTD(3)), MODIFY COLUMN reason CODEC(ZSTD(3));

ALTER TABLE ragmeter.interactions ON CLUSTER ragmeter_cluster MODIFY COLUMN question CODEC(ZSTD(3)), MODIFY COLUMN answer CODEC(ZSTD(3)), MODIFY COLUMN retrieved CODEC(ZSTD(3)), MODIFY COLUMN reason CODEC(ZSTD(3));

ALTER TABLE ragmeter.claims_local ON CLUSTER ragmeter_cluster MODIFY COLUMN claim CODEC(ZSTD(3)), MODIFY COLUMN chunk_ids CODEC(ZSTD(3));

ALTER TABLE ragmeter.claims ON CLUSTER ragmeter_cluster MODIFY COLUMN claim CODEC(ZSTD(3)), MODIFY COLUMN chunk_ids CODEC(ZSTD(3));

ALTER TABLE ragmeter.spans_local ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN span_id CODEC(ZSTD(1)), MODIFY COLUMN parent_span_id CODEC(ZSTD(1)), MODIFY COLUMN name CODEC(ZSTD(1)), MODIFY COLUMN start_time_unix_nano CODEC(Delta, ZSTD(1)), MODIFY COLUMN end_time_unix_nano CODEC(Delta, ZSTD(1)), MODIFY COLUMN received_at CODEC(Delta, ZSTD(1)), MODIFY COLUMN version CODEC(ZSTD(1)), MODIFY COLUMN chunk_hashes CODEC(ZSTD(1));

ALTER TABLE ragmeter.spans ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN span_id CODEC(ZSTD(1)), MODIFY COLUMN parent_span_id CODEC(ZSTD(1)), MODIFY COLUMN name CODEC(ZSTD(1)), MODIFY COLUMN start_time_unix_nano CODEC(Delta, ZSTD(1)), MODIFY COLUMN end_time_unix_nano CODEC(Delta, ZSTD(1)), MODIFY COLUMN received_at CODEC(Delta, ZSTD(1)), MODIFY COLUMN version CODEC(ZSTD(1)), MODIFY COLUMN chunk_hashes CODEC(ZSTD(1));

ALTER TABLE ragmeter.interactions_local ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN chunk_hashes CODEC(ZSTD(1));

ALTER TABLE ragmeter.interactions ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN chunk_hashes CODEC(ZSTD(1));

ALTER TABLE ragmeter.claims_local ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN claim_index CODEC(ZSTD(1)), MODIFY COLUMN version CODEC(ZSTD(1));

ALTER TABLE ragmeter.claims ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN claim_index CODEC(ZSTD(1)), MODIFY COLUMN version CODEC(ZSTD(1));

ALTER TABLE ragmeter.scores_local ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN value CODEC(ZSTD(1)), MODIFY COLUMN reason CODEC(ZSTD(1)), MODIFY COLUMN latency_ms CODEC(ZSTD(1));

ALTER TABLE ragmeter.scores ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN value CODEC(ZSTD(1)), MODIFY COLUMN reason CODEC(ZSTD(1)), MODIFY COLUMN latency_ms CODEC(ZSTD(1));

ALTER TABLE ragmeter.live_traces_local ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN documents CODEC(ZSTD(1));

ALTER TABLE ragmeter.live_traces ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN documents CODEC(ZSTD(1));

ALTER TABLE ragmeter.live_scores_local ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN value CODEC(ZSTD(1));

ALTER TABLE ragmeter.live_scores ON CLUSTER ragmeter_cluster MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN value CODEC(ZSTD(1));

ALTER TABLE ragmeter.chunks_local ON CLUSTER ragmeter_cluster MODIFY COLUMN chunk_hash CODEC(ZSTD(1));

ALTER TABLE ragmeter.chunks ON CLUSTER ragmeter_cluster MODIFY COLUMN chunk_hash CODEC(ZSTD(1));

ALTER TABLE ragmeter.claims_local ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS claim_start UInt32 DEFAULT 0 CODEC(T64, ZSTD(1)), ADD COLUMN IF NOT EXISTS claim_length UInt32 DEFAULT 0 CODEC(T64, ZSTD(1)), ADD COLUMN IF NOT EXISTS answer_digest UInt32 DEFAULT 0 CODEC(ZSTD(1));

ALTER TABLE ragmeter.claims ON CLUSTER ragmeter_cluster ADD COLUMN IF NOT EXISTS claim_start UInt32 DEFAULT 0 CODEC(T64, ZSTD(1)), ADD COLUMN IF NOT EXISTS claim_length UInt32 DEFAULT 0 CODEC(T64, ZSTD(1)), ADD COLUMN IF NOT EXISTS answer_digest UInt32 DEFAULT 0 CODEC(ZSTD(1));

ALTER TABLE ragmeter.spans_local ON CLUSTER ragmeter_cluster MODIFY COLUMN attributes CODEC(ZSTD(9));

ALTER TABLE ragmeter.spans ON CLUSTER ragmeter_cluster MODIFY COLUMN attributes CODEC(ZSTD(9));

ALTER TABLE ragmeter.chunks_local ON CLUSTER ragmeter_cluster MODIFY COLUMN text CODEC(ZSTD(9));

ALTER TABLE ragmeter.chunks ON CLUSTER ragmeter_cluster MODIFY COLUMN text CODEC(ZSTD(9));

ALTER TABLE ragmeter.interactions_local ON CLUSTER ragmeter_cluster MODIFY COLUMN answer CODEC(ZSTD(9));

ALTER TABLE ragmeter.interactions ON CLUSTER ragmeter_cluster MODIFY COLUMN answer CODEC(ZSTD(9));
