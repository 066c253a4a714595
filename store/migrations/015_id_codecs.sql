-- name: ZSTD(1) on the id, hash, time and number columns (spans, interactions, claims, scores, live_traces, live_scores, chunks)

-- Ids and hashes are hexadecimal text: LZ4 finds no repeats in them and keeps their 4 bits per
-- character in 8, ZSTD's entropy stage halves them; the chunk hashes of spans and interactions
-- repeat (popular chunks) and shrink by two thirds. The spans' times are close within a trace
-- (Delta). On the rows of 5,000 bench:phoenix traces copied into tables with each codec (one part
-- each), in bytes per trace: spans.trace_id 34.5 -> 16.9, span_id 63.5 -> 33.1, parent_span_id
-- 27.5 -> 9.4, chunk_hashes 131.5 -> 49.7, start_time_unix_nano 19.8 -> 8.0, interactions.chunk_hashes
-- 128.5 -> 42.8, claims.trace_id 36.3 -> 20.6, scores.trace_id 34.5 -> 16.9, reason 12.2 -> 4.8,
-- live_traces.documents 40.0 -> 19.2, chunks.chunk_hash 44.5 -> 22.6 (issue 38). New parts and
-- merges use them; parts written before keep LZ4 until merged.
ALTER TABLE {db}.spans MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN span_id CODEC(ZSTD(1)), MODIFY COLUMN parent_span_id CODEC(ZSTD(1)), MODIFY COLUMN name CODEC(ZSTD(1)), MODIFY COLUMN start_time_unix_nano CODEC(Delta, ZSTD(1)), MODIFY COLUMN end_time_unix_nano CODEC(Delta, ZSTD(1)), MODIFY COLUMN received_at CODEC(Delta, ZSTD(1)), MODIFY COLUMN version CODEC(ZSTD(1)), MODIFY COLUMN chunk_hashes CODEC(ZSTD(1));

ALTER TABLE {db}.interactions MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN chunk_hashes CODEC(ZSTD(1));

ALTER TABLE {db}.claims MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN claim_index CODEC(ZSTD(1)), MODIFY COLUMN version CODEC(ZSTD(1));

ALTER TABLE {db}.scores MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN value CODEC(ZSTD(1)), MODIFY COLUMN reason CODEC(ZSTD(1)), MODIFY COLUMN latency_ms CODEC(ZSTD(1));

ALTER TABLE {db}.live_traces MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN documents CODEC(ZSTD(1));

ALTER TABLE {db}.live_scores MODIFY COLUMN trace_id CODEC(ZSTD(1)), MODIFY COLUMN value CODEC(ZSTD(1));

ALTER TABLE {db}.chunks MODIFY COLUMN chunk_hash CODEC(ZSTD(1));
