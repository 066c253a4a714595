import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { StoreInUseError } from "./errors.js";

/** A held single-owner lock; `release()` removes the lock file. */
export interface StoreLock {
  readonly file: string;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the single-owner lock of the embedded store in `home` (file `store.lock` holding the
 * owner's PID, created atomically). A lock left by a dead process is taken over.
 * @throws StoreInUseError when another live process holds it.
 */
export function acquireStoreLock(home: string): StoreLock {
  mkdirSync(home, { recursive: true });
  const file = path.join(home, "store.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number.parseInt(readFileSync(file, "utf8").trim(), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new StoreInUseError(pid);
      if (pid === process.pid) throw new StoreInUseError(pid);
      rmSync(file, { force: true });
    }
  }
  throw new StoreInUseError(Number.parseInt(readFileSync(file, "utf8").trim(), 10));
}
