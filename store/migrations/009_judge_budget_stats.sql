-- name: ingestion_stats: judge budget, judge failures by kind, the judge's own traces, spans with dropped attributes by service

-- Online-evaluation controls (issue 38, design §5–§6): per minute and scorer.
ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_skipped_budget_exhausted UInt64 DEFAULT 0;

ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_errors Map(LowCardinality(String), UInt64);

ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_own_traces UInt64 DEFAULT 0;

ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS spans_attributes_dropped Map(String, UInt64);
