import { afterEach, describe, expect, it, vi } from "vitest";
import { createWriteBatcher, splitBatches, type WriteBatchLimits } from "../../stream/src/writeBatcher.js";

/** A write whose calls are recorded and finish only when the test says so. */
function heldWrite(): { calls: string[][]; finish: (i: number, err?: Error) => void; write: (items: readonly string[]) => Promise<void> } {
  const calls: string[][] = [];
  const settle: ((err?: Error) => void)[] = [];
  return {
    calls,
    finish: (i, err) => settle[i]?.(err),
    write: (items) =>
      new Promise<void>((resolve, reject) => {
        calls.push([...items]);
        settle.push((err) => (err ? reject(err) : resolve()));
      }),
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const NO_BOUND = Number.MAX_SAFE_INTEGER;
const limits = (l: Partial<WriteBatchLimits>): WriteBatchLimits => ({ maxCount: NO_BOUND, maxBytes: NO_BOUND, maxWaitMs: 0, gapMs: NO_BOUND, ...l });
const ones = { count: () => 1, bytes: () => 1 };

describe("write batches across callers (issue 38)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("without a wait, writes what arrives during a write together in the next one, and settles each caller with its write", async () => {
    const w = heldWrite();
    const b = createWriteBatcher(w.write, { limits: limits({}), ...ones });
    const settled: string[] = [];
    const add = (x: string) => b.add(x).then(() => settled.push(x));
    void add("a");
    await tick();
    expect(w.calls).toEqual([["a"]]);
    void add("b");
    void add("c");
    void add("d");
    await tick();
    expect(w.calls).toEqual([["a"]]); // nothing written beside the write in flight
    expect(settled).toEqual([]);
    w.finish(0);
    await tick();
    expect(settled).toEqual(["a"]);
    expect(w.calls).toEqual([["a"], ["b", "c", "d"]]);
    w.finish(1);
    await b.drain();
    expect(settled).toEqual(["a", "b", "c", "d"]);
    expect(w.calls).toHaveLength(2);
  });

  it("bounds a batch by count, in order of arrival; an item heavier than the bound goes alone", async () => {
    const w = heldWrite();
    const counts: Record<string, number> = { first: 1, a: 4, b: 4, c: 4, big: 30, d: 1 };
    const b = createWriteBatcher(w.write, { limits: limits({ maxCount: 10 }), count: (x) => counts[x] ?? 0, bytes: () => 0 });
    const all = ["first", "a", "b", "c", "big", "d"].map((x) => b.add(x));
    // handed in the same tick: 1+4+4 = 9 ≤ 10 (a further 4 would make 13), then 4 (4+30 > 10), 30 alone, 1
    for (let i = 0; i < 4; i++) {
      await tick();
      w.finish(i);
    }
    await Promise.all(all);
    expect(w.calls).toEqual([["first", "a", "b"], ["c"], ["big"], ["d"]]);
  });

  it("bounds a batch by bytes the same way, whatever the count", async () => {
    const w = heldWrite();
    const bytes: Record<string, number> = { a: 600, b: 400, c: 1, d: 5000, e: 999, f: 2 };
    const b = createWriteBatcher(w.write, { limits: limits({ maxBytes: 1000 }), count: () => 0, bytes: (x) => bytes[x] ?? 0 });
    const all = ["a", "b", "c", "d", "e", "f"].map((x) => b.add(x));
    // 600+400 = 1000 (≤ 1000; c would make 1001), then c alone (1+5000 > 1000), d alone (5000 > 1000), e+... 999+2 > 1000, f
    for (let i = 0; i < 5; i++) {
      await tick();
      w.finish(i);
    }
    await Promise.all(all);
    expect(w.calls).toEqual([["a", "b"], ["c"], ["d"], ["e"], ["f"]]);
  });

  it("holds the oldest item at most maxWaitMs for others to join, and writes a full batch without waiting", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const w = heldWrite();
    const b = createWriteBatcher(w.write, { limits: limits({ maxCount: 3, maxWaitMs: 50 }), ...ones });
    const a = b.add("a");
    await vi.advanceTimersByTimeAsync(30);
    expect(w.calls).toEqual([]); // 30 ms: still waiting for others
    void b.add("b");
    await vi.advanceTimersByTimeAsync(19);
    expect(w.calls).toEqual([]); // 49 ms after "a"
    await vi.advanceTimersByTimeAsync(1);
    expect(w.calls).toEqual([["a", "b"]]); // 50 ms after "a", not 50 after "b"
    w.finish(0);
    await expect(a).resolves.toBeUndefined();
    // three items make a full batch: written at once, no wait
    const full = ["c", "d", "e"].map((x) => b.add(x));
    await vi.advanceTimersByTimeAsync(0);
    expect(w.calls).toEqual([
      ["a", "b"],
      ["c", "d", "e"],
    ]);
    w.finish(1);
    await Promise.all(full);
    // items that waited out their time during a write are written as soon as it ends
    const f = b.add("f");
    await vi.advanceTimersByTimeAsync(50);
    expect(w.calls[2]).toEqual(["f"]);
    void b.add("g");
    await vi.advanceTimersByTimeAsync(80);
    expect(w.calls).toHaveLength(3);
    w.finish(2);
    await f;
    await vi.advanceTimersByTimeAsync(0);
    expect(w.calls[3]).toEqual(["g"]);
    w.finish(3);
  });

  it("writes a batch no item joined for gapMs before maxWaitMs, the gap counted from the newest item", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const w = heldWrite();
    const b = createWriteBatcher(w.write, { limits: limits({ maxWaitMs: 50, gapMs: 10 }), ...ones });
    void b.add("a");
    await vi.advanceTimersByTimeAsync(6);
    void b.add("b"); // 6 ms after "a": the gap now runs to 16 ms
    await vi.advanceTimersByTimeAsync(6);
    void b.add("c"); // 12 ms: to 22 ms
    await vi.advanceTimersByTimeAsync(9);
    expect(w.calls).toEqual([]); // 21 ms: 9 after "c"
    await vi.advanceTimersByTimeAsync(1);
    expect(w.calls).toEqual([["a", "b", "c"]]); // 22 ms: 10 after "c"
    w.finish(0);
    // items joining every 8 ms never leave a 10 ms gap: written at the oldest's 50 ms
    void b.add("d");
    for (let i = 0; i < 6; i++) {
      await vi.advanceTimersByTimeAsync(8);
      void b.add(`e${i}`);
    }
    expect(w.calls).toHaveLength(1); // 48 ms after "d"
    await vi.advanceTimersByTimeAsync(2);
    expect(w.calls[1]).toEqual(["d", "e0", "e1", "e2", "e3", "e4", "e5"]);
    w.finish(1);
  });

  it("drain writes what is pending without waiting out maxWaitMs", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const written: string[][] = [];
    const b = createWriteBatcher(
      async (items: readonly string[]) => {
        written.push([...items]);
      },
      { limits: limits({ maxWaitMs: 10_000 }), ...ones },
    );
    const a = b.add("a");
    const c = b.add("b");
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([]);
    await b.drain();
    expect(written).toEqual([["a", "b"]]);
    await Promise.all([a, c]);
  });

  it("a failed write acknowledges none of its items: every caller of the batch is rejected with its error, and the next batch goes on", async () => {
    const w = heldWrite();
    const b = createWriteBatcher(w.write, { limits: limits({}), ...ones });
    const outcome: string[] = [];
    const track = (x: string) =>
      b.add(x).then(
        () => outcome.push(`${x} ok`),
        (err: Error) => outcome.push(`${x} ${err.message}`),
      );
    const a = track("a");
    await tick();
    const later = ["b", "c"].map(track);
    w.finish(0, new Error("store down"));
    await a;
    await tick();
    expect(w.calls[1]).toEqual(["b", "c"]);
    w.finish(1, new Error("still down"));
    await Promise.all(later);
    const d = track("d");
    await tick();
    w.finish(2);
    await d;
    expect(outcome).toEqual(["a store down", "b still down", "c still down", "d ok"]);
    expect(w.calls).toEqual([["a"], ["b", "c"], ["d"]]);
  });

  it("with one caller at a time and no wait, each item is its own write and nothing waits", async () => {
    const written: string[][] = [];
    const b = createWriteBatcher(
      async (items: readonly string[]) => {
        written.push([...items]);
      },
      { limits: limits({}), ...ones },
    );
    for (const x of ["a", "b", "c"]) await b.add(x);
    expect(written).toEqual([["a"], ["b"], ["c"]]);
    await b.drain();
  });
});

describe("splitBatches (a Kafka fetch's records in bounded writes)", () => {
  it("cuts consecutive batches within both bounds, an oversized item alone, nothing lost or reordered", () => {
    const items = [
      { id: "a", n: 3, b: 10 },
      { id: "b", n: 3, b: 10 },
      { id: "c", n: 3, b: 10 }, // 9 spans, 30 bytes so far
      { id: "d", n: 1, b: 1 }, // 10 spans: count full
      { id: "e", n: 1, b: 50 },
      { id: "f", n: 1, b: 60 }, // 50+60 > 100 bytes
      { id: "g", n: 50, b: 1 }, // alone: over 10 spans
      { id: "h", n: 1, b: 1 },
    ];
    const cut = splitBatches(items, { maxCount: 10, maxBytes: 100 }, { count: (x) => x.n, bytes: (x) => x.b });
    expect(cut.map((p) => p.map((x) => x.id).join(""))).toEqual(["abcd", "e", "f", "g", "h"]);
    expect(splitBatches([], { maxCount: 1, maxBytes: 1 }, { count: () => 1, bytes: () => 1 })).toEqual([]);
  });
});
