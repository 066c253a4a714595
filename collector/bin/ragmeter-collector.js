#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4
// The collector's stand-alone entry point (`ragmeter-collector [--port N] …`, the same flags as
// `ragmeter collector`; compiled TypeScript in ../dist, `npm run build` rebuilds it).
// --max-semi-space-size=4 caps each of V8's two young-generation semi-spaces at 4 MiB (Node 20's
// default lets them grow to 16 MiB under load): measured with bench:peer, the peak RSS drops by
// about a quarter (≈ 145 → 105 MiB at 32 clients) at the same CPU per span. Started as
// `node collector/dist/main.js` (or `ragmeter collector`), the collector runs with V8's defaults;
// NODE_OPTIONS=--max-semi-space-size=4 gives it the same setting.
// MALLOC_ARENA_MAX=2 (glibc) keeps malloc to two arenas instead of one per thread (up to 8 per
// core): with bench:peer the peak RSS is 3–7 MiB lower at 1, 8 and 32 clients in every round
// (two runs), spans/s ratio still above 1. Other C libraries ignore it.
await import("../dist/main.js");
