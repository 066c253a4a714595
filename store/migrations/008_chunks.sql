-- name: chunks: retrieved chunks' text stored once, by hash; interactions.chunk_hashes

-- Content-addressed chunk table (design §6, issue 31): one row per distinct chunk text, keyed by
-- its hash (chunkHash: SHA-256 of the text, first 32 hex digits); an interaction keeps the hash
-- of each retrieved item (same order as retrieved, whose text is then '') and readers look the
-- text up here. first_seen is carried over by the writer; last_seen (when a trace last retrieved
-- it) is what its retention counts from.
CREATE TABLE IF NOT EXISTS {db}.chunks (
        chunk_hash String,
        text String,
        document_id String,
        first_seen DateTime64(3, 'UTC'),
        last_seen DateTime64(3, 'UTC'),
        version UInt64
      ) ENGINE = ReplacingMergeTree(version) ORDER BY chunk_hash;

ALTER TABLE {db}.interactions ADD COLUMN IF NOT EXISTS chunk_hashes Array(String) DEFAULT [];
