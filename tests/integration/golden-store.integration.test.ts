import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseGoldenSet } from "@ragmeter/golden";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../store/src/client.js";
import { GOLDEN_INSERT_ROWS, goldenItemsOfSet, saveGoldenSet } from "../../store/src/golden.js";

// Issue 12: a golden set is stored in inserts of GOLDEN_INSERT_ROWS items; a set of two and a half
// inserts must come back whole, in file order, with its set row counting every item.

let store: Store;

beforeAll(async () => {
  const home = await mkdtemp(path.join(tmpdir(), "ragmeter-golden-store-"));
  store = await openStore({ kind: "embedded", home, database: "ragmeter" });
}, 60_000);

afterAll(async () => {
  await store?.close();
});

describe("saveGoldenSet", () => {
  it("stores a set larger than one insert whole and in order", async () => {
    const n = Math.floor(GOLDEN_INSERT_ROWS * 2.5);
    // Ids in descending order, so an ORDER BY golden_id would not pass for file order.
    const lines = Array.from({ length: n }, (_, i) =>
      JSON.stringify({ id: `item-${String(n - i).padStart(6, "0")}`, question: `question ${i}?`, expected_source: `doc-${i % 7}.md`, tags: i % 2 ? ["odd"] : [] }),
    );
    const set = await parseGoldenSet(lines.join("\n"), "big.jsonl");
    await saveGoldenSet(store, set);
    const back = await goldenItemsOfSet(store, set.sha256);
    expect(back.length).toBe(n);
    expect(back.map((it) => it.id)).toEqual(lines.map((l) => (JSON.parse(l) as { id: string }).id));
    expect(back[n - 1]).toMatchObject({ question: `question ${n - 1}?`, expected_source: `doc-${(n - 1) % 7}.md`, tags: ["odd"] });
    const rs = await store.client.query({
      query: "SELECT item_count FROM ragmeter.golden_sets FINAL WHERE golden_set_hash = {h:String}",
      query_params: { h: set.sha256 },
      format: "JSONEachRow",
    });
    expect((await rs.json<{ item_count: number | string }>()).map((r) => Number(r.item_count))).toEqual([n]);
  }, 60_000);
});
