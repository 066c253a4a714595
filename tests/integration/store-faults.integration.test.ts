import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { types } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../scorer/src/cli/config.js";
import { ConfigError } from "../../scorer/src/domain/errors.js";
import { openStore } from "../../scorer/src/store/client.js";
import { InjectedStoreWriteFault } from "../../scorer/src/store/faults.js";

// RAGMETER_FAULT_STORE_WRITE_EVERY (test-only, design §10): bench:soak fails one store write in 50.
describe("store write fault injection", () => {
  it("fails inserts 3 and 6 of 7 over both connections with a retriable InjectedStoreWriteFault before the engine; the others are stored", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-faults-"));
    const seen: InjectedStoreWriteFault[] = [];
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" }, { faultStoreWriteEvery: 3, onStoreWriteFault: (f) => seen.push(f) });
    try {
      await store.client.command({ query: "CREATE TABLE ragmeter.fault_probe (n UInt32) ENGINE = MergeTree ORDER BY n" });
      const second = await store.secondClient();
      const outcomes: string[] = [];
      for (let n = 1; n <= 7; n++) {
        // Odd writes through the store's client, even ones through its second connection: one count.
        const client = n % 2 === 1 ? store.client : second;
        await client.insert({ table: "ragmeter.fault_probe", values: [{ n }], format: "JSONEachRow" }).then(
          () => outcomes.push("ok"),
          (err: unknown) => {
            expect(err).toBeInstanceOf(InjectedStoreWriteFault);
            expect((err as InjectedStoreWriteFault).retriable).toBe(true);
            outcomes.push("fault");
          },
        );
      }
      expect(outcomes).toEqual(["ok", "ok", "fault", "ok", "ok", "fault", "ok"]);
      expect(types.isProxy(store.client)).toBe(true);
      expect(seen.map((f) => [f.write, f.table])).toEqual([
        [3, "ragmeter.fault_probe"],
        [6, "ragmeter.fault_probe"],
      ]);
      const rows = await (await store.client.query({ query: "SELECT n FROM ragmeter.fault_probe ORDER BY n", format: "JSONEachRow" })).json<{ n: number }>();
      expect(rows.map((r) => r.n)).toEqual([1, 2, 4, 5, 7]);
    } finally {
      await store.close();
    }
  });

  it("reads RAGMETER_FAULT_STORE_WRITE_EVERY: unset is none (the store's clients are not wrapped), below 2 a ConfigError naming it", async () => {
    expect(loadConfig({}).faultStoreWriteEvery).toBeNull();
    expect(loadConfig({ RAGMETER_FAULT_STORE_WRITE_EVERY: "50" }).faultStoreWriteEvery).toBe(50);
    expect(() => loadConfig({ RAGMETER_FAULT_STORE_WRITE_EVERY: "1" })).toThrow(ConfigError);
    expect(() => loadConfig({ RAGMETER_FAULT_STORE_WRITE_EVERY: "1" })).toThrow(/RAGMETER_FAULT_STORE_WRITE_EVERY/u);
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-faults-"));
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    try {
      expect(types.isProxy(store.client)).toBe(false);
      expect(types.isProxy(await store.secondClient())).toBe(false);
    } finally {
      await store.close();
    }
  });
});
