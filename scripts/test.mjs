#!/usr/bin/env node
// The test command (`npm test`): builds, starts what the tests need, runs the unit tier in parallel,
// the integration and e2e files in parallel on a small pool, then the few files that cannot share the
// machine one at a time, and prints one closing line "N passed, N failed[, N skipped]".
// The repository's rules (scripts/rules.mjs: Biome lint+format, dependency-cruiser, tsc over the
// tests and tools) run after the build, before the tiers, and count as one test each.
// How a test file stays safe to run beside the others: docs/architecture.md, "Tests in parallel".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
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

// Integration and e2e files that cannot run beside another file: after the pool, one at a time.
const SERIAL = [
  // starts and stops the one llama-server of the user's cache (scripts/local-model: one state
  // directory, one pid file), and the model takes both cores while it judges
  { file: "tests/integration/judges-local-model.integration.test.ts", why: "the user cache's one llama-server" },
  // Timing budgets of a few hundred ms, which a file beside them (another core's worth of work)
  // breaks on a 2-core machine. Seen failing in a parallel run at load 14-27; they fail alone too
  // when the machine is that loaded, so they run alone to keep that chance as low as before:
  // six requests answered by the client's thread while the main thread busy-waits 400 ms, cancelled
  // calls settled within 1 s
  { file: "tests/integration/target-request.integration.test.ts", why: "timing budgets of a few hundred ms" },
  // the child's spans exported between SIGTERM and the app's own exit 200 ms later
  { file: "tests/integration/instrumentation-tracing.integration.test.ts", why: "an export within 200 ms of SIGTERM" },
  // each trace's spans within serve's 300 ms quiet window, else it is scored twice (5 scored, not 3)
  { file: "tests/integration/serve.integration.test.ts", why: "a 300 ms quiet window" },
  // brokers of their own on fixed ports (19092, 19192-19195) with state in the user cache: their
  // start-up failed beside other files while other checkouts of this machine ran them too
  { file: "tests/integration/collector-restart.integration.test.ts", why: "a broker of its own, restarted" },
  { file: "tests/integration/kafka-secure.integration.test.ts", why: "a secured broker of its own" },
  // three scorer processes and the store's front, one SIGKILLed on a schedule: the machine's cores to themselves
  { file: "tests/integration/scorer-scaleout.integration.test.ts", why: "three scorer processes, one killed" },
];
// The pool: one file per core, at least two (a file mostly waits on the broker, the engine or a
// child process). RAGMETER_TEST_WORKERS sets it (1: every file one at a time, as before issue 36).
const workersVar = process.env.RAGMETER_TEST_WORKERS;
const workers = workersVar ? Number(workersVar) : Math.max(2, availableParallelism());
if (!Number.isInteger(workers) || workers < 1) {
  console.error(`RAGMETER_TEST_WORKERS must be a whole number ≥ 1, got ${workersVar}`);
  process.exit(2);
}
const tiers = [
  { name: "unit", args: ["--project", "unit"] },
  {
    name: "integration",
    args: ["--project", "integration", ...SERIAL.flatMap((s) => ["--exclude", s.file]), ...(workers === 1 ? ["--no-file-parallelism"] : []), `--maxWorkers=${workers}`],
  },
  { name: "integration-serial", args: ["--project", "integration", ...SERIAL.map((s) => s.file), "--no-file-parallelism", "--maxWorkers=1"] },
];
const rules = runRules();
let passed = rules.passed;
let failed = rules.failed;
let skipped = 0;
let status = rules.failed === 0 ? 0 : 1;
for (const t of tiers) {
  if (t.name === "integration")
    console.log(`integration and e2e files: ${workers} at a time; then one at a time: ${SERIAL.map((s) => `${path.basename(s.file)} (${s.why})`).join(", ")}`);
  const report = path.join(outDir, `vitest-${t.name}.json`);
  rmSync(report, { force: true }); // never count an earlier run's report
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
