import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunkHash } from "../../core/src/domain/chunkHash.js";
import { saveChunks } from "../../store/src/chunks.js";
import { openStore, type Store } from "../../store/src/client.js";
import { forgetTraces } from "../../store/src/forget.js";
import { countedStore } from "../helpers/countedStore.js";

// A chunk's first_seen is carried over by its writer (design §6, `chunks`). An embedded store's
// handle looks it up only for a hash the store may hold and the handle did not write itself: a
// Bloom filter of the hashes stored when it first wrote (read in the background) and of those it
// wrote since (store/src/chunkPresence.ts), and the first_seen it wrote (RecentChunks).
let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-first-seen-"));
});
const open = (): Promise<Store> => openStore({ kind: "embedded", home, database: "ragmeter" });
const text = (name: string): string => `${name}: ${"a chunk long enough to be stored on its own, ".repeat(3)}`;
const MIN = 60_000;
const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const firstSeen = async (store: Store): Promise<Record<string, number>> => {
  const rs = await store.client.query({
    query: "SELECT chunk_hash, toUnixTimestamp64Milli(first_seen) AS f FROM ragmeter.chunks FINAL",
    format: "JSONEachRow",
  });
  return Object.fromEntries((await rs.json<{ chunk_hash: string; f: string | number }>()).map((r) => [r.chunk_hash, Number(r.f)]));
};
let store: Store | null = null;
afterAll(async () => {
  await store?.close();
});

describe("saveChunks' look-up of first_seen on an embedded store", () => {
  it("looks up only the hashes the store may hold that this handle did not write, and carries every first_seen over", async () => {
    // A first process stores chunks x and w.
    const first = await open();
    await saveChunks(
      first,
      [
        { text: text("x"), document_id: "d" },
        { text: text("w"), document_id: "d" },
      ],
      1,
      T0,
    );
    await first.close();

    store = await open();
    const db = store.database;
    // Its first write: the stored hashes are not read yet, so both are looked up (x keeps T0).
    const a = countedStore(store);
    await saveChunks(
      a.store,
      [
        { text: text("x"), document_id: "d" },
        { text: text("y"), document_id: "d" },
      ],
      2,
      T0 + MIN,
    );
    expect(a.statements()).toBeGreaterThanOrEqual(2); // the look-up and the insert (and the background read of the hashes)
    // The background read of the stored hashes ends (the same promise the write started).
    await store.chunkPresence?.load(db, async () => {
      throw new Error("a second read started");
    });
    expect(store.chunkPresence?.mayHold(db, chunkHash(text("w")))).toBe(true);
    expect(store.chunkPresence?.mayHold(db, chunkHash(text("z")))).toBe(false);

    // 20 minutes on (past RecentChunks' 10-minute window, so x and y are written again): x and y
    // written by this handle and z new need no look-up: one statement, the insert.
    const b = countedStore(store);
    await saveChunks(
      b.store,
      ["x", "y", "z"].map((n) => ({ text: text(n), document_id: "d" })),
      3,
      T0 + 20 * MIN,
    );
    expect(b.statements()).toBe(1);
    // w: stored before this handle opened, never written by it: looked up, its first_seen kept.
    const c = countedStore(store);
    await saveChunks(c.store, [{ text: text("w"), document_id: "d" }], 4, T0 + 30 * MIN);
    expect(c.statements()).toBe(2);
    expect(await firstSeen(store)).toEqual({
      [chunkHash(text("x"))]: T0,
      [chunkHash(text("w"))]: T0,
      [chunkHash(text("y"))]: T0 + MIN,
      [chunkHash(text("z"))]: T0 + 20 * MIN,
    });
  });

  it("after forget (which drops the handle's memory of written chunks) looks the hashes up again", async () => {
    if (store === null) throw new Error("the first test opens the store");
    await forgetTraces(store, ["no-such-trace"], { reason: "test", now: T0 + 40 * MIN });
    const d = countedStore(store);
    await saveChunks(d.store, [{ text: text("x"), document_id: "d" }], 5, T0 + 41 * MIN);
    expect(d.statements()).toBe(2);
    expect((await firstSeen(store))[chunkHash(text("x"))]).toBe(T0);
  });
});
