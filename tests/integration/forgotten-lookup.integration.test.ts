import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../store/src/client.js";
import { forgetTraces } from "../../store/src/forget.js";
import { forgottenAmong } from "../../store/src/forgotten.js";
import { countedStore as counted } from "../helpers/countedStore.js";
import { freshDatabase } from "../helpers/freshDatabase.js";

// The tombstone lookup before each span write (issue 38): an embedded store's handle, the only
// writer of its files, remembers that `forgotten_traces` is empty, so the lookup then costs no
// statement, until `forget` through the same handle writes a tombstone.
let base: Store;
beforeAll(async () => {
  base = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-forgotten-")), database: "ragmeter" });
});
afterAll(async () => {
  await base?.close();
});

describe("forgottenAmong on an embedded store", () => {
  it("reads the count once while the table is empty, and the tombstones again after forget", async () => {
    const db = await freshDatabase(base);
    const c = counted(db);
    expect(await forgottenAmong(c.store, ["t1", "t2"])).toEqual(new Set());
    expect(c.statements()).toBe(1);
    // A second copy of the handle (another connection's) shares what the first learnt.
    const other = counted({ ...db });
    expect(await forgottenAmong(other.store, ["t1", "t2"])).toEqual(new Set());
    expect(await forgottenAmong(c.store, ["t3"])).toEqual(new Set());
    expect(other.statements() + c.statements()).toBe(1);
    await forgetTraces(db, ["t1"], { reason: "test", now: Date.now() });
    expect(await forgottenAmong(c.store, ["t1", "t2"])).toEqual(new Set(["t1"]));
    // The count and the key lookup: the table is not empty now.
    expect(c.statements()).toBe(3);
    expect(await forgottenAmong(other.store, ["t2", "t1"])).toEqual(new Set(["t1"]));
  });

  it("keeps the mark per database: another database's empty table says nothing of this one's", async () => {
    const a = await freshDatabase(base);
    const b = { ...a, database: (await freshDatabase(base)).database };
    await forgetTraces(b, ["gone"], { reason: "test", now: Date.now() });
    expect(await forgottenAmong(a, ["gone"])).toEqual(new Set());
    expect(await forgottenAmong(b, ["gone"])).toEqual(new Set(["gone"]));
  });

  it("never remembers on a server store's handle (another process may forget)", async () => {
    const server: Store = { ...(await freshDatabase(base)), noneForgotten: null };
    const c = counted(server);
    await forgottenAmong(c.store, ["t1"]);
    await forgottenAmong(c.store, ["t1"]);
    expect(c.statements()).toBe(2);
  });
});
