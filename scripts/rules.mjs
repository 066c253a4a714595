#!/usr/bin/env node
// The repository's rules, run by `npm test` before the test tiers and on their own by `npm run rules`:
//   lint+format  Biome over the whole tree (biome.jsonc): formatting, lint
//   dependencies dependency-cruiser (.dependency-cruiser.cjs): no cycles, layers import one way,
//                no workspace internals from another workspace, test helpers only in tests/helpers,
//                the direction between workspaces, the sample and the browser driver loaded lazily,
//                the ClickHouse clients only in store/src
//   boundaries   SQL statements only in store/src, playwright-core never imported statically
//                (scripts/rules/boundaries.mjs)
//   unused       knip (knip.jsonc, every workspace): no unused file, export, exported type or
//                dependency, no import of a package the importing workspace does not declare; the
//                exceptions are named in knip.jsonc with their reason
//   types        tsc over tests/, bench/ and scripts/ (tsconfig.tests.json, no emit): `tsc -b` builds only
//                the workspaces and vitest strips types without checking them, so nothing else would
//                catch a type error in a test or a tool (needs the build: tests import workspaces by
//                name through their declarations in dist/)
// Prints one line per rule set and exits 1 when any failed; each violation names its rule.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { boundaryViolations } from "./rules/boundaries.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
/** Folders the dependency rules read (those present). */
const SOURCES = ["otlp", "kafka", "runtime", "collector", "instrumentation", "golden", "core", "store", "stream", "scorer", "dashboards", "examples", "tests", "bench", "scripts"];
const checks = [
  { name: "lint+format (biome)", cmd: bin("biome"), args: ["ci", "--reporter=summary", "."] },
  {
    name: "dependencies (dependency-cruiser)",
    cmd: bin("depcruise"),
    args: ["--config", ".dependency-cruiser.cjs", "--output-type", "err", ...SOURCES.filter((d) => existsSync(path.join(root, d)))],
  },
  { name: "boundaries (SQL in store, lazy browser driver)", run: () => boundaryViolations(root) },
  { name: "unused files, exports and dependencies (knip)", cmd: bin("knip"), args: ["--no-progress", "--reporter", "compact", "--no-config-hints"] },
  { name: "types (tsc, tests and tools)", cmd: bin("tsc"), args: ["-p", "tsconfig.tests.json", "--noEmit", "--pretty", "false"] },
];

/** Runs each rule set; returns `{passed, failed}` counts. */
export function runRules() {
  let passed = 0;
  let failed = 0;
  for (const c of checks) {
    let ok;
    let out;
    if (c.run) {
      const violations = c.run();
      ok = violations.length === 0;
      out = violations.join("\n");
    } else {
      const r = spawnSync(c.cmd, c.args, { cwd: root, encoding: "utf8" });
      ok = r.status === 0;
      out = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
    }
    if (ok) {
      passed += 1;
      console.log(`rules: ${c.name} passed`);
    } else {
      failed += 1;
      console.log(out);
      console.log(`rules: ${c.name} FAILED (fix the violations above; each names its rule)`);
    }
  }
  return { passed, failed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { failed } = runRules();
  process.exit(failed === 0 ? 0 : 1);
}
