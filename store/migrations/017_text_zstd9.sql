-- name: ZSTD(9) on the largest text columns (spans.attributes, chunks.text, interactions.answer)

-- The three columns that hold most of a trace's stored bytes compress a sixth smaller with ZSTD(9)
-- than with ZSTD(3) (migration 14), for about 3 to 4 times the CPU of compressing them: on the rows
-- of 5,000 bench:phoenix traces copied into one-part tables (B per trace; CPU of the insert, one
-- thread, µs per trace): spans.attributes 500 -> 418 (19-24 -> 75-90 µs), chunks.text 571 -> 512
-- (20 -> 69), interactions.answer 204 -> 166 (8 -> 31). Higher levels cost far more: ZSTD(15) on
-- the three 1.5 ms per trace for 396, 450 and 145 B (issue 38). New parts and merges use it; parts
-- written before keep their codec until merged.
ALTER TABLE {db}.spans MODIFY COLUMN attributes CODEC(ZSTD(9));

ALTER TABLE {db}.chunks MODIFY COLUMN text CODEC(ZSTD(9));

ALTER TABLE {db}.interactions MODIFY COLUMN answer CODEC(ZSTD(9));
