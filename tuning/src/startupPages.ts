/**
 * Returns to the kernel the pages of code and read-only data that only a process's start touched.
 *
 * Starting Node (and loading the embedded ClickHouse engine, libchdb.so) reads tens to hundreds of
 * MiB of machine code and constant data from the binaries' files: module loading, V8's snapshot,
 * the engine's static initialisers. Those pages stay mapped in the process, and counted in its
 * resident set, long after they were last used. They are clean copies of their files, so dropping
 * them (`madvise(MADV_DONTNEED)` on the mappings {@link releasableMappings} selects) loses nothing:
 * a page used again is read back from the page cache on its next access. Measured (issues 12 and 15):
 * eval's peak RSS at 20,000 questions 490 → 384 MiB; the collector's node binary 40 → 20 MiB
 * resident under load.
 *
 * madvise is reached through koffi (a C FFI with prebuilt binaries); where it cannot be (not Linux,
 * koffi's binary not installed, e.g. an image built with `--omit=optional`), nothing is released
 * and the outcome says why.
 */
import { readFile } from "node:fs/promises";
import { releasableMappings } from "./smaps.js";

/** MADV_DONTNEED (Linux, every architecture). */
const MADV_DONTNEED = 4;

/** What one release did. */
export type ReleaseOutcome =
  | { readonly status: "released"; readonly releasedMiB: number; readonly mappings: number; readonly failed: number }
  | { readonly status: "unavailable"; readonly reason: string };

type Madvise = (addr: bigint, length: bigint, advice: number) => number;

async function loadMadvise(): Promise<Madvise | string> {
  if (process.platform !== "linux") return `madvise on ${process.platform} is not used (Linux only)`;
  try {
    const { default: koffi } = await import("koffi");
    // dlopen(NULL): the process's own symbols, libc's madvise among them (glibc or musl).
    const fn = koffi.load(null).func("int madvise(uintptr_t addr, size_t length, int advice)");
    return (addr, length, advice) => Number(fn(addr, length, advice));
  } catch (err) {
    return `koffi cannot be loaded (${err instanceof Error ? err.message.split("\n")[0] : String(err)})`;
  }
}

/**
 * Drops the clean file-backed pages of code and read-only data this process holds (see the module
 * comment). Call it once the start is over (the collector listening, the engine open); it takes a
 * few milliseconds. Never throws: what went wrong is in the outcome. Whether to call it is the
 * caller's configuration (env RAGMETER_RELEASE_STARTUP_PAGES, design §10).
 */
export async function releaseStartupPages(): Promise<ReleaseOutcome> {
  const madvise = await loadMadvise();
  if (typeof madvise === "string") return { status: "unavailable", reason: madvise };
  let smaps: string;
  try {
    smaps = await readFile("/proc/self/smaps", "utf8");
  } catch (err) {
    return { status: "unavailable", reason: `/proc/self/smaps cannot be read (${(err as Error).message})` };
  }
  let kib = 0;
  let mappings = 0;
  let failed = 0;
  for (const m of releasableMappings(smaps)) {
    if (madvise(m.start, m.length, MADV_DONTNEED) === 0) {
      kib += m.residentKiB;
      mappings++;
    } else failed++;
  }
  return { status: "released", releasedMiB: Math.round(kib / 102.4) / 10, mappings, failed };
}
