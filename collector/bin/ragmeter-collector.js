#!/usr/bin/env -S node --max-semi-space-size=4
// The collector's stand-alone entry point (`ragmeter-collector [--port N] …`, the same flags as
// `ragmeter collector`; compiled TypeScript in ../dist, `npm run build` rebuilds it).
// --max-semi-space-size=4 caps each of V8's two young-generation semi-spaces at 4 MiB (Node 20's
// default lets them grow to 16 MiB under load): measured with bench:peer, the peak RSS drops by
// about a quarter (≈ 145 → 105 MiB at 32 clients) at the same CPU per span. Started as
// `node collector/dist/main.js` (or `ragmeter collector`), the collector runs with V8's defaults;
// NODE_OPTIONS=--max-semi-space-size=4 gives it the same setting.
await import("../dist/main.js");
