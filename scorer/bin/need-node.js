// The Node.js ragmeter needs, checked before anything else loads (issue 37): on an older Node the
// CLI, `npm ci` (the root's preinstall) and every `npm run` script stop with one line naming the Node
// found, the Node needed and the command that fixes it, instead of a stack trace from deep inside a
// dependency. Plain syntax and built-ins only, so that any Node 14.18 or later parses and runs it.
//   node scorer/bin/need-node.js     exits 1 with that line on an older Node, 0 otherwise
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The lowest Node.js version ragmeter runs on; equal to `engines.node` of every package.json (a unit test says so). */
export const NEEDED_NODE = "22.22.0";

/** Whether version `found` ("20.20.2") is at least `needed` ("22.22.0"), compared as major.minor.patch. */
export function nodeAtLeast(found, needed) {
  const a = found.split(".").map(Number);
  const b = needed.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const x = a[i] || 0;
    const y = b[i] || 0;
    if (x !== y) return x > y;
  }
  return true;
}

/**
 * The one line to print when `found` is older than `needed`, else undefined. `clone`: whether this runs
 * from a clone of the repository (scripts/node-env.sh exists there, which installs Node 24 without root).
 */
export function oldNodeLine(found, needed, execPath, clone) {
  if (nodeAtLeast(found, needed)) return undefined;
  const major = needed.split(".").slice(0, 2).join(".");
  const fix = clone
    ? "run `. scripts/node-env.sh` in this shell (it installs Node 24 LTS into ~/.cache/ragmeter without root), then the command again"
    : "install Node.js 24 LTS (for example `nvm install 24`) and run the command again";
  return `ragmeter needs Node.js ${major} or later (24 LTS recommended) and found ${found} at ${execPath}: ${fix}`;
}

/** Exits the process with the line above when this Node is too old. */
export function requireNode() {
  const clone = existsSync(fileURLToPath(new URL("../../scripts/node-env.sh", import.meta.url)));
  const line = oldNodeLine(process.versions.node, NEEDED_NODE, process.execPath, clone);
  if (line === undefined) return;
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) requireNode();
