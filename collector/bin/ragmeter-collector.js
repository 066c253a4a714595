#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4
// The collector's stand-alone entry point (`ragmeter-collector [--port N] …`, the same flags as
// `ragmeter collector`). It runs the bundle of the compiled collector, ../dist/bundle/main.js
// (built by `npm run build`: tsc, then collector/bundle/build.mjs), which holds the same code as
// ../dist/main.js with only the parts of the dependencies it reaches: measured idle, 92 → 74 MiB RSS
// (see collector/bundle/build.mjs). When the bundle is missing or older than the compiled files it
// was built from (e.g. after a bare `tsc -b`), it says so on stderr and runs ../dist/main.js.
// --max-semi-space-size=4 caps each of V8's two young-generation semi-spaces at 4 MiB (Node 20's
// default lets them grow to 16 MiB under load): measured with bench:peer, the peak RSS drops by
// about a quarter (≈ 145 → 105 MiB at 32 clients) at the same CPU per span. Started as
// `node collector/dist/main.js`, the collector runs with V8's defaults; `ragmeter collector` replaces
// its process with this bundle and these settings (collector/src/tuning.ts lists them; a unit test
// keeps this shebang equal to that list).
// MALLOC_ARENA_MAX=2 (glibc) keeps malloc to two arenas instead of one per thread (up to 8 per
// core): with bench:peer the peak RSS is 3–7 MiB lower at 1, 8 and 32 clients in every round
// (two runs), spans/s ratio still above 1. Other C libraries ignore it.
import { existsSync, readdirSync, statSync } from "node:fs";

const at = (p) => new URL(p, import.meta.url);
const mtime = (u) => statSync(u).mtimeMs;

/** Why the bundle cannot be used (missing, or older than a compiled file it holds), or undefined. */
function staleBundle() {
  const bundle = at("../dist/bundle/main.js");
  if (!existsSync(bundle)) return "collector/dist/bundle is missing";
  const built = mtime(bundle);
  for (const dir of ["../dist/", "../../otlp/dist/"]) {
    const d = at(dir);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d)) if (f.endsWith(".js") && mtime(new URL(f, d)) > built) return `collector/dist/bundle is older than ${dir.slice(3)}${f}`;
  }
  return undefined;
}

const why = staleBundle();
if (why === undefined) await import("../dist/bundle/main.js");
else {
  process.stderr.write(`ragmeter-collector: ${why} (run \`npm run build\`); running the unbundled collector/dist/main.js\n`);
  await import("../dist/main.js");
}
