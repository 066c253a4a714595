-- name: ingestion_stats: judge calls and tokens spent on live traces, by service (the judge budget of the whole scorer group)

-- What each scorer's LLM judges spent per minute on live traces, by service.name (design §5: every
-- scorer adds the group's rows of the last 60 minutes to its own judge budget).
ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_calls_by_service Map(String, UInt64);

ALTER TABLE {db}.ingestion_stats ADD COLUMN IF NOT EXISTS judge_tokens_by_service Map(String, UInt64);
