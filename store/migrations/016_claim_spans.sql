-- name: claims.claim_start, .claim_length, .answer_digest: a claim cut from its answer is stored as a slice of it

-- A claim whose text is exactly a slice of its interaction's answer (the judges split the answer
-- into its sentences: every claim of 5,000 bench:phoenix traces) is stored as that slice's UTF-8
-- byte offset and length in interactions.answer and the answer's digest (the first four bytes of
-- its MD5, little-endian), its claim text blank; other claims keep their text, length 0 (design
-- §6, core/src/domain/claimSpans.ts). Readers put the text back from the trace's stored answer when
-- its digest matches. Rows written before have length 0 and read their text as before. T64 crops
-- the offsets' unused high bits: 20 and 11 B per trace against 26 and 17 with ZSTD(1) alone.
ALTER TABLE {db}.claims ADD COLUMN IF NOT EXISTS claim_start UInt32 DEFAULT 0 CODEC(T64, ZSTD(1)), ADD COLUMN IF NOT EXISTS claim_length UInt32 DEFAULT 0 CODEC(T64, ZSTD(1)), ADD COLUMN IF NOT EXISTS answer_digest UInt32 DEFAULT 0 CODEC(ZSTD(1));
