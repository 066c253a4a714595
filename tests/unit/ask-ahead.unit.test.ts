import { describe, expect, it } from "vitest";
import { askAhead } from "../../scorer/src/runs/askAhead.js";

const tick = () => new Promise<void>((r) => setImmediate(r));
const ticks = async (n: number) => {
  for (let t = 0; t < n; t++) await tick();
};

/** A promise with its resolve/reject, to settle `ready` when the test says so. */
function gate(): { promise: Promise<void>; open: () => void; fail: (e: Error) => void } {
  let open!: () => void;
  let fail!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    open = res;
    fail = rej;
  });
  return { promise, open, fail };
}

/** Stages that record what they were called with: ask answers x, finish gives x + 1, each after a tick. */
function recordingStages(): { asked: number[]; finished: number[]; ask: (x: number) => Promise<number>; finish: (x: number) => Promise<number> } {
  const asked: number[] = [];
  const finished: number[] = [];
  return {
    asked,
    finished,
    ask: async (x) => {
      asked.push(x);
      await tick();
      return x;
    },
    finish: async (x) => {
      finished.push(x);
      await tick();
      return x + 1;
    },
  };
}

describe("askAhead", () => {
  it("keeps input order, asks and finishes each item once, never more than `askers` asks nor `finishers` finishes at once", async () => {
    const asked: number[] = [];
    const finished: number[] = [];
    const items = Array.from({ length: 50 }, (_, i) => i);
    const gauge = () => {
      const g = { now: 0, most: 0 };
      const busy = async <T>(n: number, v: T): Promise<T> => {
        g.most = Math.max(g.most, ++g.now);
        await ticks(n);
        g.now--;
        return v;
      };
      return { g, busy };
    };
    const asking = gauge();
    const finishing = gauge();
    const out = await askAhead(items, {
      askers: 6,
      finishers: 2,
      backlog: 10,
      ready: Promise.resolve(),
      // Later items answer first: the order must come from the index, not from completion.
      ask: (x, i) => {
        asked.push(i);
        return asking.busy((50 - i) % 5, x * 10);
      },
      finish: (a, x, i) => {
        finished.push(i);
        return finishing.busy(i % 3, `${x}:${a}`);
      },
    });
    expect(out).toEqual(items.map((x) => `${x}:${x * 10}`));
    expect([...asked].sort((a, b) => a - b)).toEqual(items);
    expect([...finished].sort((a, b) => a - b)).toEqual(items);
    expect(asking.g.most).toBe(6);
    expect(finishing.g.most).toBe(2);
  });

  it("goes on asking while the finishers are busy, up to `finishers` answers queued plus one per asker", async () => {
    const g = gate();
    const asked: number[] = [];
    const run = askAhead(
      Array.from({ length: 30 }, (_, i) => i),
      {
        askers: 3,
        finishers: 2,
        backlog: 50,
        ready: Promise.resolve(),
        ask: async (x) => {
          asked.push(x);
          await tick();
          return x;
        },
        finish: async (x) => {
          if (x < 2) await g.promise;
          return x * 2;
        },
      },
    );
    await ticks(40);
    // Items 0 and 1 are being finished, 2 answers wait in the queue (the backlog applies only before `ready`), each asker holds one more.
    expect(asked).toEqual(Array.from({ length: 7 }, (_, i) => i));
    g.open();
    expect(await run).toEqual(Array.from({ length: 30 }, (_, i) => i * 2));
  });

  it("cancels the asks in flight when a call fails", async () => {
    const signals: AbortSignal[] = [];
    const run = askAhead(
      Array.from({ length: 10 }, (_, i) => i),
      {
        askers: 3,
        finishers: 1,
        backlog: 4,
        ready: Promise.resolve(),
        ask: (x, _i, cancel) => {
          signals.push(cancel);
          // Item 0 answers; the others hang until cancelled.
          if (x === 0) return Promise.resolve(x);
          return new Promise<number>((resolve) => cancel.addEventListener("abort", () => resolve(-1), { once: true }));
        },
        finish: async () => {
          throw new Error("store down");
        },
      },
    );
    await expect(run).rejects.toThrow("store down");
    expect(signals.length).toBeGreaterThan(1);
    expect(signals.every((x) => x.aborted)).toBe(true);
  });

  it("lets every ask in flight listen to the cancel signal without Node's listener-leak warning (68 asks with 2 listeners each), and still warns past a few per ask", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w.name);
    };
    process.on("warning", onWarning);
    try {
      // Each ask adds n listeners of its own (distinct functions: one added twice counts once).
      const ask = (n: number) => async (x: number, _i: number, cancel: AbortSignal) => {
        const fs = Array.from({ length: n }, () => (): void => {});
        for (const f of fs) cancel.addEventListener("abort", f, { once: true });
        await ticks(3);
        for (const f of fs) cancel.removeEventListener("abort", f);
        return x;
      };
      const stages = (n: number) => ({ askers: 68, finishers: 4, backlog: 4, ready: Promise.resolve(), ask: ask(n), finish: async (x: number) => x });
      const items = Array.from({ length: 200 }, (_, i) => i);
      expect(await askAhead(items, stages(2))).toEqual(items);
      await ticks(2);
      expect(warnings).toEqual([]);
      // 5 each (340 at once) is past 4 × 68 = 272: Node warns, as it would of a real leak.
      await askAhead(items, stages(5));
      await ticks(2);
      expect(warnings).toEqual(["MaxListenersExceededWarning"]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("gives the event loop a turn while finishing answers that are all there", async () => {
    let fired = 0;
    const timer = setInterval(() => fired++, 1);
    let firedAtEnd = -1;
    const busy = (ms: number) => {
      const t = performance.now();
      while (performance.now() - t < ms);
    };
    await askAhead(
      Array.from({ length: 60 }, (_, i) => i),
      {
        askers: 60,
        finishers: 1,
        backlog: 60,
        ready: Promise.resolve(),
        ask: (x) => Promise.resolve(x),
        finish: async (x, _item, i) => {
          busy(1);
          if (i === 59) firedAtEnd = fired;
          return x;
        },
      },
    );
    clearInterval(timer);
    // 60 ms of synchronous finishing: the 1 ms timer ran in between (every 10 ms of it).
    expect(firedAtEnd).toBeGreaterThanOrEqual(3);
  });

  it("asks ahead while `ready` is pending — up to the backlog plus one per asker — and finishes nothing before it resolves", async () => {
    const g = gate();
    const { asked, finished, ask, finish } = recordingStages();
    const run = askAhead(
      Array.from({ length: 100 }, (_, i) => i),
      { askers: 3, finishers: 3, backlog: 7, ready: g.promise, ask, finish },
    );
    await ticks(60);
    // 7 answers queued, then each of the 3 askers holds one more answer waiting for room.
    expect(asked).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(finished).toEqual([]);
    g.open();
    const out = await run;
    expect(out).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(finished.length).toBe(100);
    // The answers asked before `ready` (the first 10 questions) are finished first, in the order asked.
    expect(finished.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => i));
  });

  it("when `ready` rejects: no finish at all, asking stops, and the run rejects with that error", async () => {
    const g = gate();
    const { asked, finished, ask, finish } = recordingStages();
    const run = askAhead(
      Array.from({ length: 100 }, (_, i) => i),
      { askers: 2, finishers: 2, backlog: 4, ready: g.promise, ask, finish },
    );
    await ticks(3);
    g.fail(new Error("store locked"));
    await expect(run).rejects.toThrow("store locked");
    expect(finished.length).toBe(0);
    // At most the backlog plus one answer per asker, and the calls in flight when it failed.
    expect(asked.length).toBeLessThanOrEqual(4 + 2 + 2);
  });

  it("starts no call after a finish throws and rejects with the first error", async () => {
    const started: number[] = [];
    const run = askAhead(
      Array.from({ length: 40 }, (_, i) => i),
      {
        askers: 3,
        finishers: 3,
        backlog: 1,
        ready: Promise.resolve(),
        ask: async (x) => {
          started.push(x);
          await tick();
          return x;
        },
        finish: async (x) => {
          await tick();
          if (x === 4) throw new Error("boom at 4");
          if (x === 5) throw new Error("boom at 5");
          return x;
        },
      },
    );
    await expect(run).rejects.toThrow("boom at 4");
    // Before the failure: items 0–3 finished and 3 finishing at most, one queued, one with each asker.
    expect(started.length).toBeLessThanOrEqual(4 + 3 + 1 + 3);
    expect(started.slice(0, 3)).toEqual([0, 1, 2]);
    const atFailure = started.length;
    await ticks(10);
    expect(started.length).toBe(atFailure);
  });

  it("handles an empty list, a concurrency above the item count, and `ready` resolving after every answer is parked", async () => {
    expect(await askAhead([], { askers: 8, finishers: 8, backlog: 4, ready: Promise.resolve(), ask: async (x: number) => x, finish: async (a) => a })).toEqual([]);
    const g = gate();
    const run = askAhead([1, 2], { askers: 8, finishers: 8, backlog: 4, ready: g.promise, ask: async (x) => x, finish: async (a) => a * 2 });
    await ticks(5);
    g.open();
    expect(await run).toEqual([2, 4]);
  });
});
