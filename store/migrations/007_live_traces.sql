-- name: live_traces: one narrow row per scoring of a live trace, in time order (the live view reads a window of it)

-- What ragmeter live and /api/live read (design §3, live view): per scoring of a live trace its
-- interaction's time, group, status, the question's hash, the retrieved document ids and its grounding
-- and relevance score, ordered by time so a window is a range of the key whatever the history.
CREATE TABLE IF NOT EXISTS {db}.live_traces (
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
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (created_at, trace_id);

-- data

-- The live traces stored before this migration, from their interactions and scores (once): each
-- interaction (FINAL) with its latest grounding and relevance score of run live (the lowest repeat
-- of the latest version); the question's hash as questionHash (store/src/liveTraces.ts) computes it.
INSERT INTO {db}.live_traces (created_at, trace_id, service_name, pipeline_version, status, question_hash, documents, grounding_status, grounding_value, grounding_judge_model, grounding_input_tokens, grounding_output_tokens, relevance_status, relevance_value, relevance_judge_model, relevance_input_tokens, relevance_output_tokens, version)
    SELECT i.created_at, i.trace_id, i.service_name, i.pipeline_version, i.status, if(i.question = '', toUInt64(0), reinterpretAsUInt64(substring(MD5(i.question), 1, 8))), arrayMap(r -> r.document_id, i.retrieved),
      tupleElement(s.grounding, 1), tupleElement(s.grounding, 2), tupleElement(s.grounding, 3), tupleElement(s.grounding, 4), tupleElement(s.grounding, 5), tupleElement(s.relevance, 1), tupleElement(s.relevance, 2), tupleElement(s.relevance, 3), tupleElement(s.relevance, 4), tupleElement(s.relevance, 5), i.version
    FROM (SELECT * FROM {db}.interactions FINAL WHERE source = 'live') AS i
    LEFT JOIN (SELECT trace_id, argMaxIf(tuple(status, value, judge_model, judge_input_tokens, judge_output_tokens), (version, -toInt32(repeat_index)), metric = 'grounding') AS grounding, argMaxIf(tuple(status, value, judge_model, judge_input_tokens, judge_output_tokens), (version, -toInt32(repeat_index)), metric = 'relevance') AS relevance
      FROM {db}.scores FINAL WHERE run_id = 'live' AND metric IN ('grounding', 'relevance') GROUP BY trace_id) AS s ON s.trace_id = i.trace_id;
