-- name: retention: forgotten_traces tombstones, content column defaults, ingestion_stats.spans_dropped_forgotten

-- Traces removed by ragmeter forget: the scorer drops their spans and log records arriving
-- later (Kafka replays) and never scores them again (design §13).
CREATE TABLE IF NOT EXISTS {db}.forgotten_traces (
        trace_id String,
        forgotten_at DateTime64(3, 'UTC'),
        reason String,
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY trace_id;

-- A content column's TTL resets it to its default: give the JSON columns a default that still
-- parses, so a span or record past its retention reads as "no attributes", never an error.
ALTER TABLE {db}.spans MODIFY COLUMN attributes String DEFAULT '{}';

ALTER TABLE {db}.spans MODIFY COLUMN events String DEFAULT '[]';

ALTER TABLE {db}.logs MODIFY COLUMN body String DEFAULT 'null';

ALTER TABLE {db}.logs MODIFY COLUMN attributes String DEFAULT '{}';

ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS spans_dropped_forgotten UInt64 DEFAULT 0;
