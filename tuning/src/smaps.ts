/**
 * Which mappings of a process hold only pages that can be dropped and read back from their file:
 * parsed from the text of `/proc/<pid>/smaps` (proc(5)).
 */

/** One mapping whose resident pages all come unchanged from its file. */
export interface ReleasableMapping {
  readonly start: bigint;
  readonly length: bigint;
  readonly path: string;
  readonly residentKiB: number;
}

const HEADER = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \S+\s*(.*)$/u;
const FIELD = /^(Rss|Anonymous|Private_Dirty|Shared_Dirty):\s+(\d+) kB$/u;

interface Open {
  start: bigint;
  end: bigint;
  perms: string;
  path: string;
  rss: number;
  written: number;
}

/**
 * The mappings that are private, not writable and backed by a file (`r-xp` code, `r--p`
 * read-only data) and hold no page of their own: no anonymous (copy-on-write) page and nothing
 * dirty, which rules out e.g. the relocated pages a dynamic loader made read-only afterwards. Their
 * resident pages are identical to the file's, so dropping them (MADV_DONTNEED) loses nothing: a
 * later access reads them back from the page cache. Mappings with nothing resident are left out.
 */
export function releasableMappings(smaps: string): ReleasableMapping[] {
  return parseMappings(smaps)
    .filter(isReleasable)
    .map((m) => ({ start: m.start, length: m.end - m.start, path: m.path, residentKiB: m.rss }));
}

/** The mappings of an smaps text: each header line, with its Rss and written (dirty, anonymous) KiB summed. */
function parseMappings(smaps: string): Open[] {
  const mappings: Open[] = [];
  for (const line of smaps.split("\n")) {
    const h = HEADER.exec(line);
    if (h) {
      mappings.push({ start: BigInt(`0x${h[1]}`), end: BigInt(`0x${h[2]}`), perms: h[3] ?? "", path: h[4] ?? "", rss: 0, written: 0 });
      continue;
    }
    const f = FIELD.exec(line);
    const cur = mappings.at(-1);
    if (f === null || cur === undefined) continue;
    const kib = Number(f[2]);
    if (f[1] === "Rss") cur.rss = kib;
    else cur.written += kib;
  }
  return mappings;
}

/** Private, not writable, backed by a file still there, nothing written, something resident. */
function isReleasable(m: Open): boolean {
  const fromFile = m.path.startsWith("/") && !m.path.endsWith(" (deleted)");
  return (m.perms === "r-xp" || m.perms === "r--p") && fromFile && m.written === 0 && m.rss > 0;
}
