#!/usr/bin/env node
// `npm run bench`: runs every benchmark in this folder (or the ones named) one after the other and
// prints their figures. Each benchmark is a standalone script: `node bench/<name>.mjs`.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const wanted = process.argv.slice(2);
const all = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "run.mjs")
  .map((f) => f.replace(/\.mjs$/u, ""))
  .sort();
let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n## bench ${name}`);
  const r = spawnSync(process.execPath, [path.join(here, `${name}.mjs`)], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
