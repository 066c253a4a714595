#!/usr/bin/env node
// The ragmeter command line (compiled TypeScript in ../dist; `npm run build` rebuilds it).
const { runCli } = await import("../dist/cli/main.js");
process.exitCode = await runCli(process.argv);
