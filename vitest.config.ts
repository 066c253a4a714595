import { defineConfig } from "vitest/config";

// Two projects, chosen by a test file's folder (`npx vitest run tests/unit/x.unit.test.ts` runs it in
// its own project's settings). scripts/test.mjs runs the unit tier, then the integration and e2e
// files in parallel (a pool of max(2, cores); the files of its SERIAL list one at a time after them).
export default defineConfig({
  test: {
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        // Unit files share their worker's modules (no isolation): each file's imports are evaluated
        // once per worker, not once per file (the tier ran in 95 s with isolation, 30 s without, on this
        // loaded 2-core box). A unit test that changes process-wide state (process.env, timers, the
        // OpenTelemetry globals) restores it in its own afterEach/afterAll.
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], isolate: false },
      },
      {
        extends: true,
        // Each file in a process of its own: the embedded engine holds one data directory per process.
        test: { name: "integration", include: ["tests/integration/**/*.test.ts", "tests/e2e/**/*.test.ts"] },
      },
    ],
  },
});
