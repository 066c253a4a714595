// Child of tests/integration/runtime-pages.integration.test.ts: releases its startup pages (with
// the embedded engine loaded when argv[2] is "chdb"), measures the clean file-backed pages before
// and after from /proc/self/smaps, then proves it still works (a hash; an engine query).
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { releasableMappings, releaseStartupPages } from "@ragmeter/tuning";

const kib = (only) =>
  releasableMappings(readFileSync("/proc/self/smaps", "utf8"))
    .filter((m) => only === undefined || m.path.endsWith(only))
    .reduce((a, m) => a + m.residentKiB, 0);
const withEngine = process.argv[2] === "chdb";
let session = null;
if (withEngine) {
  const chdb = createRequire(path.join(process.cwd(), "scorer", "package.json"))("chdb");
  session = new chdb.Session(mkdtempSync(path.join(tmpdir(), "ragmeter-pages-")));
  session.query("SELECT 1", "CSV");
}
const only = withEngine ? "libchdb.so" : undefined;
const before = kib(only);
const outcome = await releaseStartupPages();
const after = kib(only);
const hash = createHash("sha256").update("ragmeter startup pages").digest("hex");
const sum = session ? session.query("SELECT sum(number) FROM numbers(100000)", "CSV").trim() : null;
console.log(JSON.stringify({ outcome, before, after, hash, sum }));
