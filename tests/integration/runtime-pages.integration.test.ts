import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runtimeTuning } from "@ragmeter/tuning";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../scorer/src/cli/config.js";
import { startOpeningStore } from "../../store/src/client.js";

const root = path.resolve(import.meta.dirname, "../..");
const child = path.join(root, "tests/helpers/startup-pages-child.mjs");

interface ChildReport {
  outcome: { status: string; releasedMiB?: number; mappings?: number; failed?: number; reason?: string };
  before: number;
  after: number;
  hash: string;
  sum: string | null;
}

function run(...args: string[]): ChildReport {
  const out = execFileSync(process.execPath, [child, ...args], { cwd: root, encoding: "utf8", env: { ...process.env } });
  return JSON.parse(out.trim().split("\n").at(-1) ?? "") as ChildReport;
}

const expectedHash = createHash("sha256").update("ragmeter startup pages").digest("hex");

describe.runIf(process.platform === "linux")("releaseStartupPages (real process, real madvise)", () => {
  it("drops node's clean code and read-only pages, and the process goes on computing", () => {
    const r = run();
    expect(r.outcome.status).toBe("released");
    expect(r.outcome.failed).toBe(0);
    // node's own binary alone has 30–40 MiB of such pages resident after its start.
    expect(r.before).toBeGreaterThan(10 * 1024);
    // What it says it released is what smaps showed just before (a few pages touched in between).
    expect(Math.abs((r.outcome.releasedMiB ?? 0) * 1024 - r.before)).toBeLessThan(0.2 * r.before);
    // Measured again afterwards: only what ran since came back.
    expect(r.after).toBeLessThan(0.5 * r.before);
    expect(r.hash).toBe(expectedHash);
  });

  it("drops most of the embedded engine's pages, and its next query answers right", () => {
    const r = run("chdb");
    expect(r.outcome.status).toBe("released");
    expect(r.before).toBeGreaterThan(50 * 1024); // libchdb.so: 150 MiB and more after loading
    expect(r.after).toBeLessThan(0.5 * r.before);
    expect(r.sum).toBe(String((99_999 * 100_000) / 2));
  });

  it("is done by a store's opening when asked, and kept as its outcome", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "ragmeter-pages-store-"));
    try {
      const plain = await startOpeningStore({ kind: "embedded", home, database: "ragmeter" });
      expect(plain.startupPages).toBeUndefined();
      await plain.close();
      const store = await startOpeningStore({ kind: "embedded", home, database: "ragmeter" }, { releaseStartupPages: true, runtimeTuning: runtimeTuning(true) });
      try {
        expect(store.startupPages?.status).toBe("released");
        // the engine was loaded and initialised in this process: its pages are among those released
        expect(store.startupPages?.status === "released" ? store.startupPages.releasedMiB : 0).toBeGreaterThan(50);
        const rs = await store.client.query({ query: "SELECT count() AS n FROM ragmeter.runs", format: "JSONEachRow" });
        expect(await rs.json()).toEqual([{ n: "0" }]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("RAGMETER_RELEASE_STARTUP_PAGES", () => {
  it("is on by default, off with false or 0, and an error naming it otherwise", () => {
    expect(loadConfig({}).releaseStartupPages).toBe(true);
    expect(loadConfig({ RAGMETER_RELEASE_STARTUP_PAGES: "false" }).releaseStartupPages).toBe(false);
    expect(loadConfig({ RAGMETER_RELEASE_STARTUP_PAGES: "0" }).releaseStartupPages).toBe(false);
    expect(() => loadConfig({ RAGMETER_RELEASE_STARTUP_PAGES: "maybe" })).toThrow("environment variable RAGMETER_RELEASE_STARTUP_PAGES: must be true or false");
  });
});
