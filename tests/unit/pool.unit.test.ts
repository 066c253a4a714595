import { describe, expect, it } from "vitest";
import { mapInPool } from "../../scorer/src/runs/pool.js";

const tick = () => new Promise<void>((r) => setImmediate(r));

describe("mapInPool", () => {
  it("keeps input order and never runs more than `concurrency` calls at once", async () => {
    let inFlight = 0;
    let most = 0;
    const items = Array.from({ length: 50 }, (_, i) => i);
    const out = await mapInPool(items, 4, async (x, i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Later items finish first: order must come from the index, not completion.
      for (let t = 0; t < (50 - i) % 5; t++) await tick();
      inFlight--;
      return x * 10;
    });
    expect(out).toEqual(items.map((x) => x * 10));
    expect(most).toBe(4);
  });

  it("starts no item after a failure and rejects with the first error", async () => {
    const started: number[] = [];
    const run = mapInPool(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (x) => {
        started.push(x);
        await tick();
        if (x === 4) throw new Error("boom at 4");
        return x;
      },
    );
    await expect(run).rejects.toThrow("boom at 4");
    // Items 0–2 start together, 3–5 as they finish; 4 fails, so at most 6 and 7 may have started before the flag was seen.
    expect(started.length).toBeLessThan(9);
    expect(started.slice(0, 3)).toEqual([0, 1, 2]);
  });

  it("handles an empty list and a concurrency above the item count", async () => {
    expect(await mapInPool([], 8, async (x: number) => x)).toEqual([]);
    expect(await mapInPool([1, 2], 8, async (x) => x + 1)).toEqual([2, 3]);
  });
});
