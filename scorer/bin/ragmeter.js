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
// `serve` and `scorer` replace this process with themselves under their V8 flags (../dist/cli/liveProcess.js).
const { execLiveProcess } = await import("../dist/cli/liveProcess.js");
execLiveProcess(process.argv, process.env, process);
const { runCli } = await import("../dist/cli/main.js");
process.exitCode = await runCli(process.argv);
