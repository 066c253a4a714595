-- name: ingestion_stats.judge_skipped_uncertain_reading (traces read from a fallback)

ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_skipped_uncertain_reading UInt64 DEFAULT 0;
