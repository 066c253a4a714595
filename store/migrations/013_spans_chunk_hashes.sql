-- name: spans.chunk_hashes: spans keep references to the chunks' texts stored in chunks

-- The hashes of the chunks a span's attributes refer to (design §6, core/src/domain/chunkRefs.ts):
-- its retrieved texts are stored once in chunks; readers put them back, forget keeps a chunk
-- another trace's span still refers to.
ALTER TABLE {db}.spans ADD COLUMN IF NOT EXISTS chunk_hashes Array(String) DEFAULT [];
