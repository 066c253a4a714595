import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { StoreInUseError } from "../../store/src/errors.js";
import { acquireStoreLock, readStoreLock } from "../../store/src/lock.js";

/** The PID of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

describe("store lock: owner PID and read API URL", () => {
  it("records the API URL on line 2, read back by readStoreLock", () => {
    const home = mkdtempSync(path.join(tmpdir(), "ragmeter-lock-"));
    expect(readStoreLock(home)).toBeNull();
    const lock = acquireStoreLock(home);
    expect(lock.tookOverFrom).toBeNull();
    expect(readStoreLock(home)).toEqual({ pid: process.pid, apiUrl: null, alive: true });
    lock.setApiUrl("http://127.0.0.1:4318");
    expect(readFileSync(path.join(home, "store.lock"), "utf8")).toBe(`${process.pid}\nhttp://127.0.0.1:4318\n`);
    expect(readStoreLock(home)).toEqual({ pid: process.pid, apiUrl: "http://127.0.0.1:4318", alive: true });
    expect(() => acquireStoreLock(home)).toThrow(StoreInUseError);
    lock.release();
    expect(readStoreLock(home)).toBeNull();
  });

  it("takes over a dead owner's lock and says whose it was; ignores a URL that is not http(s)", () => {
    const home = mkdtempSync(path.join(tmpdir(), "ragmeter-lock-"));
    const pid = deadPid();
    writeFileSync(path.join(home, "store.lock"), `${pid}\nfile:///etc/passwd\n`);
    expect(readStoreLock(home)).toEqual({ pid, apiUrl: null, alive: false });
    const lock = acquireStoreLock(home);
    expect(lock.tookOverFrom).toBe(pid);
    lock.release();
  });
});
