import { describe, expect, it } from "vitest";
import { releasableMappings } from "../../tuning/src/smaps.js";

/** One smaps entry: the header line, then the fields given (kB), the rest 0. */
function entry(range: string, perms: string, path: string, f: Partial<Record<"Rss" | "Anonymous" | "Private_Dirty" | "Shared_Dirty", number>>): string {
  const fields = ["Size", "KernelPageSize", "Rss", "Pss", "Shared_Clean", "Shared_Dirty", "Private_Clean", "Private_Dirty", "Referenced", "Anonymous", "Swap"];
  const lines = fields.map((k) => `${`${k}:`.padEnd(16)}${String((f as Record<string, number>)[k] ?? 0).padStart(8)} kB`);
  return [`${range} ${perms} 00000000 08:01 1234${path ? `                       ${path}` : ""}`, ...lines, "VmFlags: rd ex mr mw me dw"].join("\n");
}

describe("releasableMappings (which mappings of /proc/self/smaps may drop their pages)", () => {
  const smaps = [
    entry("55d0a0000000-55d0a1000000", "r-xp", "/usr/bin/node", { Rss: 20_480 }), // code, clean: yes
    entry("55d0a1000000-55d0a1400000", "r--p", "/usr/bin/node", { Rss: 4_096 }), // read-only data, clean: yes
    entry("55d0a1400000-55d0a1410000", "r--p", "/usr/bin/node", { Rss: 64, Anonymous: 64, Private_Dirty: 64 }), // relocated, made read-only: no
    entry("55d0a1410000-55d0a1420000", "rw-p", "/usr/bin/node", { Rss: 64 }), // writable: no
    entry("7f0000000000-7f0000100000", "r-xp", "/opt/lib/libchdb.so (deleted)", { Rss: 1_024 }), // file gone: no
    entry("7f0000100000-7f0000200000", "r-xp", "/opt/lib/libchdb.so", { Rss: 0 }), // nothing resident: no
    entry("7f0000200000-7f0000300000", "r--p", "", { Rss: 1_024, Anonymous: 0 }), // anonymous mapping: no
    entry("7fff00000000-7fff00002000", "r-xp", "[vdso]", { Rss: 8 }), // not a file: no
    entry("7f0000300000-7f0000340000", "r-xs", "/dev/shm/x", { Rss: 256 }), // shared: no
    entry("7f0000400000-7f0000500000", "r-xp", "/opt/lib/libchdb.so", { Rss: 900, Shared_Dirty: 4 }), // a dirty page: no
    entry("7f0000500000-7f0000600000", "r-xp", "/opt/lib/libchdb.so", { Rss: 512 }), // yes
  ].join("\n");

  it("keeps exactly the private, read-only, file-backed mappings with resident clean pages only", () => {
    const got = releasableMappings(smaps);
    expect(got.map((m) => [m.start.toString(16), m.length.toString(16), m.path, m.residentKiB])).toEqual([
      ["55d0a0000000", "1000000", "/usr/bin/node", 20_480],
      ["55d0a1000000", "400000", "/usr/bin/node", 4_096],
      ["7f0000500000", "100000", "/opt/lib/libchdb.so", 512],
    ]);
  });

  it("reads a path with spaces, and nothing from an empty text", () => {
    expect(releasableMappings(entry("1000-3000", "r--p", "/a dir/lib x.so", { Rss: 8 })).map((m) => [m.path, m.length])).toEqual([["/a dir/lib x.so", 0x2000n]]);
    expect(releasableMappings("")).toEqual([]);
  });
});
