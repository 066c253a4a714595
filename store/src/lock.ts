import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { StoreInUseError } from "./errors.js";

/** A held single-owner lock; `release()` removes the lock file. */
export interface StoreLock {
  readonly file: string;
  /** PID of a dead owner whose lock was taken over, else null (its running runs are aborted, design §5). */
  readonly tookOverFrom: number | null;
  /** Records the read API's URL in the lock file, so other processes ask the owner over HTTP (design §3). */
  setApiUrl(url: string): void;
  release(): void;
}

/** What a lock file says: the owner's PID (line 1) and, once its read API listens, the API URL (line 2). */
export interface LockInfo {
  readonly pid: number;
  readonly apiUrl: string | null;
  /** The owner process is alive. */
  readonly alive: boolean;
}

const lockFile = (home: string): string => path.join(home, "store.lock");
const apiUrlSchema = z.url({ protocol: /^https?$/u });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function parse(text: string): { pid: number; apiUrl: string | null } {
  const [first = "", second = ""] = text.split("\n");
  const pid = Number.parseInt(first.trim(), 10);
  const url = apiUrlSchema.safeParse(second.trim());
  return { pid, apiUrl: url.success ? url.data : null };
}

/** Reads the lock file of the embedded store in `home`; null when there is none (or it is unreadable). */
export function readStoreLock(home: string): LockInfo | null {
  let text: string;
  try {
    text = readFileSync(lockFile(home), "utf8");
  } catch {
    return null;
  }
  const { pid, apiUrl } = parse(text);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, apiUrl, alive: pid === process.pid || alive(pid) };
}

/**
 * Takes the single-owner lock of the embedded store in `home` (file `store.lock` holding the
 * owner's PID, created atomically). A lock left by a dead process is taken over.
 * @throws StoreInUseError when another live process holds it.
 */
export function acquireStoreLock(home: string): StoreLock {
  mkdirSync(home, { recursive: true });
  const file = lockFile(home);
  let tookOverFrom: number | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return heldLock(file, tookOverFrom);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      tookOverFrom = removeDeadLock(file) ?? tookOverFrom;
    }
  }
  throw new StoreInUseError(parse(readFileSync(file, "utf8")).pid);
}

/** The lock this process holds in `file`. */
function heldLock(file: string, tookOverFrom: number | null): StoreLock {
  let released = false;
  return {
    file,
    tookOverFrom,
    setApiUrl(url) {
      if (!released) writeFileSync(file, `${process.pid}\n${url}\n`);
    },
    release() {
      if (released) return;
      released = true;
      rmSync(file, { force: true });
    },
  };
}

/**
 * Removes a lock file left by a dead process (or holding no PID); returns that process's PID.
 * @throws StoreInUseError when a live process (this one included) holds it.
 */
function removeDeadLock(file: string): number | null {
  const { pid } = parse(readFileSync(file, "utf8"));
  const valid = Number.isInteger(pid) && pid > 0;
  if (valid && pid !== process.pid && alive(pid)) throw new StoreInUseError(pid);
  if (pid === process.pid) throw new StoreInUseError(pid);
  rmSync(file, { force: true });
  return valid ? pid : null;
}
