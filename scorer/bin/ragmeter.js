#!/usr/bin/env node
// The ragmeter command line (compiled TypeScript in ../dist; `npm run build` rebuilds it).
// An older Node stops here with one line (./need-node.js) before any dependency loads.
const { requireNode } = await import("./need-node.js");
requireNode();
// A closed pipe (`ragmeter runs | head -1`) is the reader's choice, not an error.
process.stdout.on("error", (err) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});
const { runCli } = await import("../dist/cli/main.js");
process.exitCode = await runCli(process.argv);
