import { describe, expect, it } from "vitest";
import { chunkHash } from "../../core/src/domain/chunkHash.js";
import { ChunkPresence } from "../../store/src/chunkPresence.js";

const hashes = Array.from({ length: 25 }, (_, i) => chunkHash(`stored chunk ${i}`)).sort();

/** Pages of `all` above `after`, `size` at a time, counting the pages asked for. */
function pages(all: readonly string[], size: number): { page: (after: string) => Promise<string[]>; asked: () => number } {
  let n = 0;
  return {
    page: async (after) => {
      n++;
      return all.filter((h) => h > after).slice(0, size);
    },
    asked: () => n,
  };
}

describe("ChunkPresence", () => {
  it("says every hash may be held until the database's stored hashes are read, then only those and the ones written", async () => {
    const p = new ChunkPresence();
    const fresh = chunkHash("never stored");
    expect(p.mayHold("db", fresh)).toBe(true);
    const src = pages(hashes, 10);
    await p.load("db", src.page);
    // 25 hashes in pages of 10: 10, 10, 5, then the empty page that ends it.
    expect(src.asked()).toBe(4);
    for (const h of hashes) expect(p.mayHold("db", h)).toBe(true);
    expect(p.mayHold("db", fresh)).toBe(false);
    // Another database is not read: anything may be held there.
    expect(p.mayHold("other", fresh)).toBe(true);
    p.wrote("db", [fresh]);
    expect(p.mayHold("db", fresh)).toBe(true);
    // Read once: a later load neither reads nor changes anything.
    const again = pages(hashes, 10);
    await p.load("db", again.page);
    expect(again.asked()).toBe(0);
  });

  it("reads a database once while a read is going, and reads again after one that failed", async () => {
    const p = new ChunkPresence();
    let fail = true;
    const flaky = async (after: string): Promise<string[]> => {
      if (fail) throw new Error("engine busy");
      return hashes.filter((h) => h > after).slice(0, 100);
    };
    const one = p.load("db", flaky);
    const two = p.load("db", flaky);
    expect(two).toBe(one);
    await expect(one).rejects.toThrow("engine busy");
    expect(p.mayHold("db", chunkHash("never stored"))).toBe(true);
    fail = false;
    await p.load("db", flaky);
    expect(p.mayHold("db", chunkHash("never stored"))).toBe(false);
  });

  it("gives false positives near the rate it is sized for (1 %), never a false negative", async () => {
    const p = new ChunkPresence();
    const stored = Array.from({ length: 20_000 }, (_, i) => chunkHash(`s${i}`)).sort();
    await p.load("db", pages(stored, 5_000).page);
    expect(stored.every((h) => p.mayHold("db", h))).toBe(true);
    const others = Array.from({ length: 20_000 }, (_, i) => chunkHash(`o${i}`));
    const falsePositives = others.filter((h) => p.mayHold("db", h)).length;
    // Sized for 2,000,000 at 1 %: with 1 % of that held, far fewer.
    expect(falsePositives / others.length).toBeLessThan(0.01);
  });
});
