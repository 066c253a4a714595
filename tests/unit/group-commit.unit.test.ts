import { describe, expect, it } from "vitest";
import { createGroupCommit } from "../../stream/src/groupCommit.js";

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

describe("group commit of serve's in-process writes (issue 31)", () => {
  it("writes what arrives during a write together in the next one, and settles each caller with its write", async () => {
    const w = heldWrite();
    const gc = createGroupCommit(w.write, { maxWeight: 100, weight: () => 1 });
    const settled: string[] = [];
    const add = (x: string) => gc.add(x).then(() => settled.push(x));
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
    await gc.drain();
    expect(settled).toEqual(["a", "b", "c", "d"]);
    expect(w.calls).toHaveLength(2);
  });

  it("bounds a group by weight, in order of arrival; an item heavier than the bound goes alone", async () => {
    const w = heldWrite();
    const weights: Record<string, number> = { first: 1, a: 4, b: 4, c: 4, big: 30, d: 1 };
    const gc = createGroupCommit(w.write, { maxWeight: 10, weight: (x) => weights[x] ?? 0 });
    const all = ["first", "a", "b", "c", "big", "d"].map((x) => gc.add(x));
    // "first" and the rest were handed in in the same tick: groups by weight 1+4+4 ≤ 10, then 4 (4+30 > 10), 30 alone, 1
    for (let i = 0; i < 4; i++) {
      await tick();
      w.finish(i);
    }
    await Promise.all(all);
    expect(w.calls).toEqual([["first", "a", "b"], ["c"], ["big"], ["d"]]);
  });

  it("rejects every caller of a failed write with its error and goes on with the next group", async () => {
    const w = heldWrite();
    const gc = createGroupCommit(w.write, { maxWeight: 100, weight: () => 1 });
    const a = gc.add("a");
    await tick();
    const b = gc.add("b");
    const c = gc.add("c");
    const failure = new Error("store down");
    w.finish(0, failure);
    await expect(a).rejects.toBe(failure);
    await tick();
    expect(w.calls[1]).toEqual(["b", "c"]);
    w.finish(1, failure);
    await expect(b).rejects.toBe(failure);
    await expect(c).rejects.toBe(failure);
    const d = gc.add("d");
    await tick();
    w.finish(2);
    await expect(d).resolves.toBeUndefined();
    expect(w.calls).toEqual([["a"], ["b", "c"], ["d"]]);
  });

  it("with one caller at a time, each item is its own write and nothing waits", async () => {
    const written: string[][] = [];
    const gc = createGroupCommit(
      async (items: readonly string[]) => {
        written.push([...items]);
      },
      { maxWeight: 100, weight: () => 1 },
    );
    for (const x of ["a", "b", "c"]) await gc.add(x);
    expect(written).toEqual([["a"], ["b"], ["c"]]);
    await gc.drain();
  });
});
