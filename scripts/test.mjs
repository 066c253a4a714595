#!/usr/bin/env node
// The test command (`npm test`): builds, starts what the tests need, runs unit tests in parallel and
// integration/e2e tests one file at a time, then prints one closing line "N passed, N failed".
// The repository's rules (scripts/rules.mjs: Biome lint+format, dependency-cruiser, tsc over the
// tests and tools) run after the build, before the tiers, and count as one test each.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { kafkaStatus, stopKafka } from "./kafka/kafka.mjs";
import { runRules } from "./rules.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const outDir = path.join(root, "test-output");
mkdirSync(outDir, { recursive: true });
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...opts });

// the same build as `npm run build`: tsc, then the stand-alone collector's bundle (collector/bundle/build.mjs)
if (run("npx", ["tsc", "-b"]).status !== 0 || run(process.execPath, [path.join(root, "collector", "bundle", "build.mjs")]).status !== 0) {
  console.error("build failed");
  process.exit(2);
}

// A broker that was already up (shared) is left running; one this run starts is stopped at the end.
const before = await kafkaStatus();
const brokerWasUp = before.running || before.answering;
const services = path.join(root, "scripts", "services.mjs");
if (existsSync(services) && run(process.execPath, [services, "start"]).status !== 0) {
  console.error("could not start the services the tests need (see above)");
  process.exit(2);
}

const tiers = [
  { name: "unit", args: ["tests/unit"] },
  { name: "integration", args: ["tests/integration", "tests/e2e", "--no-file-parallelism", "--maxWorkers=1"] },
];
const rules = runRules();
let passed = rules.passed;
let failed = rules.failed;
let skipped = 0;
let status = rules.failed === 0 ? 0 : 1;
for (const t of tiers) {
  const report = path.join(outDir, `vitest-${t.name}.json`);
  const r = run("npx", ["vitest", "run", ...t.args, "--passWithNoTests", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`]);
  if (r.status !== 0) status = 1;
  if (existsSync(report)) {
    const j = JSON.parse(readFileSync(report, "utf8"));
    passed += j.numPassedTests ?? 0;
    failed += (j.numFailedTests ?? 0) + (j.numFailedTestSuites && !j.numFailedTests ? j.numFailedTestSuites : 0);
    skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  } else if (r.status !== 0) failed += 1;
}
if (passed === 0 && failed === 0) status = 1;
if (!brokerWasUp) await stopKafka().catch((err) => console.error(`could not stop the broker this run started: ${err.message}`));
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(status);
