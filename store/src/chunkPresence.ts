import { createRequire } from "node:module";

// mnemonist's Bloom filter alone: its package entry loads every structure it has (30 ms and 8 MiB
// at the start of every command that loads the store).
// (Its typings declare an ES default export; the module is CommonJS, whose export is the class.)
const BloomFilter = createRequire(import.meta.url)("mnemonist/bloom-filter.js") as new (options: {
  capacity: number;
  errorRate: number;
}) => { add(key: string): unknown; test(key: string): boolean };

/**
 * Chunk hashes an embedded store may hold (design §6, `chunks`), so that writing a chunk it cannot
 * hold needs no look-up of its `first_seen`: a Bloom filter of every hash stored when the handle first
 * wrote chunks to a database (read once, in pages, in the background) and of every hash the handle
 * wrote since. A hash the filter has not seen is not stored (the handle's lock keeps every other writer
 * out); one it has seen may be (1 % false positives up to {@link CAPACITY} hashes, more past it: a
 * look-up too many, never one too few). Until a database's stored hashes are read, every hash may be
 * stored. A server store has none (another process may write at any time). Keyed by database, as
 * `RecentChunks`: the copies a caller makes of a handle share it.
 */
export class ChunkPresence {
  readonly #filter = new BloomFilter({ capacity: CAPACITY, errorRate: 0.01 });
  /** Databases whose stored hashes are in the filter, and those being read. */
  readonly #read = new Set<string>();
  readonly #reading = new Map<string, Promise<void>>();

  /**
   * Reads the hashes `database` holds into the filter, once (later calls return the first one's
   * promise). `page(after)` gives the stored hashes above `after` in order, at most a page of them
   * (`''` first); an empty page ends it. A failed read leaves the database unread, so later writes
   * look up as before; the next call reads again.
   */
  load(database: string, page: (after: string) => Promise<readonly string[]>): Promise<void> {
    const going = this.#reading.get(database);
    if (going !== undefined || this.#read.has(database)) return going ?? Promise.resolve();
    const reading = (async () => {
      let after = "";
      for (;;) {
        const hashes = await page(after);
        if (hashes.length === 0) break;
        for (const h of hashes) this.#filter.add(`${database}.${h}`);
        after = hashes[hashes.length - 1] as string;
      }
      this.#read.add(database);
    })().finally(() => this.#reading.delete(database));
    this.#reading.set(database, reading);
    return reading;
  }

  /** False only when `hash` is surely not stored in `database` (its stored hashes were read and the filter has not seen it). */
  mayHold(database: string, hash: string): boolean {
    return !this.#read.has(database) || this.#filter.test(`${database}.${hash}`);
  }

  /** Records hashes written to `database` (before their insert: a write that fails leaves a false positive, never a miss). */
  wrote(database: string, hashes: Iterable<string>): void {
    for (const h of hashes) this.#filter.add(`${database}.${h}`);
  }
}

/** Hashes the filter is sized for at 1 % false positives: about 1.2 MiB per million. */
const CAPACITY = 2_000_000;
