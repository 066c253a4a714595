-- name: ingestion stats: judge calls skipped by reason

-- Judge calls not made because the metric was decided before judging (design §5), by status.
ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_skipped_not_applicable UInt64 DEFAULT 0;

ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_skipped_content_missing UInt64 DEFAULT 0;

ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_skipped_context_incomplete UInt64 DEFAULT 0;

ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_skipped_not_sampled UInt64 DEFAULT 0;
