// The runtime tuning switch (tuning/src/tuning.ts, design §10 RAGMETER_RUNTIME_TUNING, a setting of the catalog): how the one
// setting is read, and that with it off nothing of the process is changed.

import { RagmeterError } from "@ragmeter/runtime";
import { describe, expect, it } from "vitest";
import { loadCollectorConfig } from "../../collector/src/config.js";
import { loadConfig } from "../../scorer/src/cli/config.js";
import { runtimeTuning, runtimeTuningEnabled } from "../../tuning/src/tuning.js";

describe("runtimeTuningEnabled", () => {
  it("is on when unset or empty, and reads on/off, true/false, 1/0 (and the catalog's yes/no) in any case", () => {
    expect(runtimeTuningEnabled({})).toBe(true);
    expect(runtimeTuningEnabled({ RAGMETER_RUNTIME_TUNING: "" })).toBe(true);
    for (const v of ["on", "ON", "true", "1", " on ", "yes"]) expect(runtimeTuningEnabled({ RAGMETER_RUNTIME_TUNING: v })).toBe(true);
    for (const v of ["off", "Off", "false", "0", "no"]) expect(runtimeTuningEnabled({ RAGMETER_RUNTIME_TUNING: v })).toBe(false);
  });

  it("rejects any other value with the catalog's one line naming the variable", () => {
    let caught: unknown;
    try {
      runtimeTuningEnabled({ RAGMETER_RUNTIME_TUNING: "maybe" });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RagmeterError);
    expect((caught as RagmeterError).code).toBe("config");
    expect((caught as Error).message).toBe("environment variable RAGMETER_RUNTIME_TUNING: must be true or false (or 1/0, yes/no, on/off)");
  });
});

describe("runtimeTuning", () => {
  it("sets the embedded engine's allocator settings only when on and only when unset", () => {
    const unset: Record<string, string | undefined> = {};
    runtimeTuning(true).tuneEmbeddedAllocator(unset);
    expect(unset["JE_MALLOC_CONF"]).toBe("dirty_decay_ms:0,muzzy_decay_ms:0");
    const user: Record<string, string | undefined> = { JE_MALLOC_CONF: "narenas:1" };
    runtimeTuning(true).tuneEmbeddedAllocator(user);
    expect(user["JE_MALLOC_CONF"]).toBe("narenas:1");
    const off: Record<string, string | undefined> = {};
    runtimeTuning(false).tuneEmbeddedAllocator(off);
    expect(off).toEqual({});
  });

  it("releases no startup page when off, saying why", async () => {
    await expect(runtimeTuning(false).releaseStartupPages()).resolves.toEqual({ status: "unavailable", reason: "RAGMETER_RUNTIME_TUNING is off" });
  });

  it("is read by the collector's and the CLI's configuration (default on)", () => {
    expect(loadCollectorConfig({}, {}).runtimeTuning).toBe(true);
    expect(loadCollectorConfig({ RAGMETER_RUNTIME_TUNING: "off" }, {}).runtimeTuning).toBe(false);
    expect(loadConfig({ RAGMETER_HOME: "/tmp/ragmeter-tuning-test" }).runtimeTuning).toBe(true);
    expect(loadConfig({ RAGMETER_HOME: "/tmp/ragmeter-tuning-test", RAGMETER_RUNTIME_TUNING: "off" }).runtimeTuning).toBe(false);
  });
});
