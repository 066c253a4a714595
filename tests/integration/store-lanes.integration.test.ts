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

/** Resolves once the engine runs the heavy statement (seen through `watch`, a connection of its own), or it is `done`. */
async function running(watch: Store, done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i++) {
    const r = await rows(watch, "SELECT count() AS c FROM system.processes WHERE query LIKE '%cityHash64(number)%' AND query NOT LIKE '%system.processes%'");
    if (Number((r[0] as { c: string }).c) > 0) return;
    await new Promise((x) => setTimeout(x, 5));
  }
  throw new Error("the heavy statement never ran");
}

/** Resolves to the order in which `heavy` and then `quick` finished, `quick` sent once the engine runs `heavy` (watched through `watch`). */
async function finishOrder(heavy: Store, quick: Store, watch: Store): Promise<string[]> {
  const order: string[] = [];
  const a = rows(heavy, HEAVY).then(() => order.push("heavy"));
  // Sent once the heavy statement runs (a fixed wait lost the race on a loaded box).
  await running(watch, () => order.length > 0);
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
    expect(await finishOrder(store, store, lane)).toEqual(["heavy", "quick"]);
    expect(await finishOrder(store, lane, lane)).toEqual(["quick", "heavy"]);
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
