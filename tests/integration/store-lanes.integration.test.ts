import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../store/src/client.js";
import { rows } from "../helpers/streaming.js";

let store: Store;
beforeAll(async () => {
  store = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-lanes-")), database: "ragmeter" });
});
afterAll(async () => {
  await store?.close();
});

/** A statement that keeps one engine thread busy for a while (half a second or more here). */
const HEAVY = "SELECT sum(cityHash64(number)) AS s FROM numbers(300000000) SETTINGS max_threads = 1";

/** Resolves to the order in which `heavy` and then `quick` finished. */
async function finishOrder(heavy: Store, quick: Store): Promise<string[]> {
  const order: string[] = [];
  const a = rows(heavy, HEAVY).then(() => order.push("heavy"));
  // Sent once the heavy statement is on its way.
  await new Promise((r) => setTimeout(r, 50));
  const b = rows(quick, "SELECT 1 AS one").then(() => order.push("quick"));
  await Promise.all([a, b]);
  return order;
}

/** The store seen through its second connection. */
const secondLane = async (s: Store): Promise<Store> => ({ ...s, client: await s.secondClient() });

describe("the embedded store's second connection (the streaming scorer's span writes, issue 15)", () => {
  it("is opened once", async () => {
    expect(await store.secondClient()).toBe(await store.secondClient());
    expect(await store.secondClient()).not.toBe(store.client);
  });

  it("runs its statements beside the first connection's, where one connection runs them one at a time", async () => {
    const lane = await secondLane(store);
    expect(await finishOrder(store, store)).toEqual(["heavy", "quick"]);
    expect(await finishOrder(store, lane)).toEqual(["quick", "heavy"]);
  }, 60_000);

  it("writes what the first connection reads, and has the session settings (64-bit integers as exact strings)", async () => {
    const lane = await secondLane(store);
    await lane.client.insert({
      table: "ragmeter.forgotten_traces",
      values: [{ trace_id: "lane-t", forgotten_at: Date.now(), reason: "test", version: store.nextVersion() }],
      format: "JSONEachRow",
    });
    expect(await rows(store, "SELECT trace_id FROM ragmeter.forgotten_traces FINAL WHERE trace_id = 'lane-t'")).toEqual([{ trace_id: "lane-t" }]);
    expect(await rows(lane, "SELECT toUInt64(18446744073709551615) AS n")).toEqual([{ n: "18446744073709551615" }]);
  });

  it("is closed with the store", async () => {
    const lane = await secondLane(store);
    expect(await rows(lane, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await store.close();
    await expect(rows(lane, "SELECT 1 AS one")).rejects.toThrow();
  });
});
