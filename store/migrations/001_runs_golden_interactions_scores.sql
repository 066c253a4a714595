-- name: runs, golden sets, interactions, scores, claims, judge cache, comparisons

CREATE TABLE IF NOT EXISTS {db}.runs (
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
      ) ENGINE = ReplacingMergeTree(version) ORDER BY run_id;

CREATE TABLE IF NOT EXISTS {db}.golden_sets (
        golden_set_hash String,
        path String,
        item_count UInt32,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY golden_set_hash;

CREATE TABLE IF NOT EXISTS {db}.golden_items (
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
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (golden_set_hash, golden_id);

CREATE TABLE IF NOT EXISTS {db}.interactions (
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
      ) ENGINE = ReplacingMergeTree(version) ORDER BY trace_id;

CREATE TABLE IF NOT EXISTS {db}.scores (
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
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (run_id, trace_id, metric, judge_prompt_version, repeat_index);

CREATE TABLE IF NOT EXISTS {db}.claims (
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
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (run_id, trace_id, judge_prompt_version, repeat_index, claim_index);

CREATE TABLE IF NOT EXISTS {db}.judge_cache (
        cache_key String,
        judge_model String,
        judge_prompt_version String,
        result String,
        created_at DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY cache_key;

CREATE TABLE IF NOT EXISTS {db}.comparisons (
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
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (comparison_id, metric);
