-- name: live_minutes, live_minutes_state: the live view's aggregates per minute (marked by saveResults, computed by the scorers)

-- Per minute of created_at (design §3, §6; store/src/liveMinutes.ts): touched (kind) rows carry the
-- version of the latest write of a live row of the minute, computed rows the touched version
-- (covers) the minute's aggregates were computed at and the traces they count.
CREATE TABLE IF NOT EXISTS {db}.live_minutes_state (
        minute DateTime('UTC'),
        kind LowCardinality(String),
        covers UInt64,
        traces UInt64,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (minute, kind);

-- A minute's live_traces (kind t) and live_scores (kind m) rows as the live view groups them,
-- per touched version covered: a reader takes the rows of the minute's latest computed mark.
CREATE TABLE IF NOT EXISTS {db}.live_minutes (
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
      ) ENGINE = ReplacingMergeTree(version) ORDER BY (minute, covers, kind, service_name, pipeline_version, status, metric, flag, content_missing, judge_model);

-- data

-- The minutes already stored, marked as written now: the scorers' next refreshes compute them.
INSERT INTO {db}.live_minutes_state (minute, kind, covers, traces, version)
        SELECT DISTINCT toDateTime(toStartOfMinute(created_at), 'UTC'), 'touched', toUInt64(0), toUInt64(0), toUInt64(toUnixTimestamp64Micro(now64(6)))
        FROM {db}.live_traces;
