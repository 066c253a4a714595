-- name: golden_items.expected_chunk_id (match by exact chunk id)

ALTER TABLE {db}.golden_items ADD COLUMN IF NOT EXISTS expected_chunk_id Nullable(String);
