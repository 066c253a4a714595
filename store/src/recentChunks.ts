/**
 * Chunks this store handle wrote lately (design §6, `chunks`): a chunk written less than
 * {@link RECENT_CHUNK_MS} ago is not written again, so `last_seen` is when a trace last retrieved it
 * to within that window, and a corpus retrieved over and over costs one row per chunk and window
 * instead of one per retrieval (bench:phoenix, issue 38: 25,000 rows for 2,000 passages).
 * Bounded: the oldest entries go past {@link RECENT_CHUNK_MAX}.
 */
const RECENT_CHUNK_MS = 10 * 60_000;

/** Entries kept at most (about 120 bytes each). */
const RECENT_CHUNK_MAX = 100_000;

export class RecentChunks {
  /** Chunk (database + hash) → when written, with which document id and `first_seen`, oldest first. */
  private readonly written = new Map<string, { at: number; documentId: string; firstSeen: number }>();

  constructor(
    private readonly windowMs: number = RECENT_CHUNK_MS,
    private readonly max: number = RECENT_CHUNK_MAX,
  ) {}

  /** True when `hash` was written within the window before `now` with `documentId` (or `documentId` is '': unknown). */
  fresh(hash: string, documentId: string, now: number): boolean {
    const w = this.written.get(hash);
    return w !== undefined && now - w.at < this.windowMs && (documentId === "" || documentId === w.documentId);
  }

  /** The document id `hash` was last written with, '' when unknown. */
  documentIdOf(hash: string): string {
    return this.written.get(hash)?.documentId ?? "";
  }

  /** The `first_seen` `hash` was last written with (ms since the epoch), undefined when not kept. */
  firstSeenOf(hash: string): number | undefined {
    return this.written.get(hash)?.firstSeen;
  }

  /** Records chunks written at `now` with their `first_seen` (call once their insert succeeded). */
  wrote(chunks: Iterable<readonly [hash: string, documentId: string, firstSeen: number]>, now: number): void {
    for (const [h, documentId, firstSeen] of chunks) {
      this.written.delete(h);
      this.written.set(h, { at: now, documentId, firstSeen });
    }
    for (const h of this.written.keys()) {
      if (this.written.size <= this.max) break;
      this.written.delete(h);
    }
  }

  /** Forgets every entry (after chunks were deleted: `forget`). */
  clear(): void {
    this.written.clear();
  }
}
