-- name: ZSTD(3) on the captured text columns (spans, logs, chunks, interactions, claims)

-- Captured text compresses about 1.6x smaller with ZSTD(3) than with LZ4, the default: the same
-- 5,000 bench:phoenix traces' rows copied into tables with and without these codecs (one part
-- each): spans 1,362 -> 835 B per trace, chunks 1,001 -> 640, interactions 646 -> 431, claims
-- 557 -> 336 (issue 38). New parts and merges use it; parts written before keep LZ4 until merged.
ALTER TABLE {db}.spans MODIFY COLUMN attributes CODEC(ZSTD(3)), MODIFY COLUMN resource_attributes CODEC(ZSTD(3)), MODIFY COLUMN events CODEC(ZSTD(3));

ALTER TABLE {db}.logs MODIFY COLUMN body CODEC(ZSTD(3)), MODIFY COLUMN attributes CODEC(ZSTD(3));

ALTER TABLE {db}.chunks MODIFY COLUMN text CODEC(ZSTD(3));

ALTER TABLE {db}.interactions MODIFY COLUMN question CODEC(ZSTD(3)), MODIFY COLUMN answer CODEC(ZSTD(3)), MODIFY COLUMN retrieved CODEC(ZSTD(3)), MODIFY COLUMN reason CODEC(ZSTD(3));

ALTER TABLE {db}.claims MODIFY COLUMN claim CODEC(ZSTD(3)), MODIFY COLUMN chunk_ids CODEC(ZSTD(3));
