import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// The integration and e2e files that take minutes, longest first (measured on this 2-core box:
// python-services 12 min at load 27, quickstart 4-10 min, packages 9, golden-targets 5,
// conventions 2.5). Vitest starts the files its last run found longest first; a fresh clone (CI)
// has no last run and starts the largest files first, which put quickstart at the end of the pool:
// the tier then waited minutes for that one file alone.
const LONGEST = [
  "tests/integration/python-services.",
  "tests/e2e/quickstart.",
  "tests/integration/packages.",
  "tests/integration/golden-targets.",
  "tests/integration/conventions.",
];

/** Vitest's order, except that the files of LONGEST start first, in that order. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification): number => {
      const i = LONGEST.findIndex((p) => f.moduleId.includes(`/${p}`));
      return i < 0 ? LONGEST.length : i;
    };
    return (await super.sort(files))
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map((x) => x.f);
  }
}

// Two projects, chosen by a test file's folder (`npx vitest run tests/unit/x.unit.test.ts` runs it in
// its own project's settings). scripts/test.mjs runs the unit tier, then the integration and e2e
// files in parallel (a pool of max(2, cores); the files of its SERIAL list one at a time after them).
// Tests import the scorer's workspaces by their source (../../core/src/…); the workspaces import each
// other by name (@ragmeter/core/…, resolved to dist/ by Node). Aliasing the names to the sources keeps
// one copy of each module in a test process (a class is one class, for instanceof and #private).
const root = import.meta.dirname;
const alias = [
  { find: /^@ragmeter\/core\/metrics$/u, replacement: `${root}/core/src/domain/metricTable.ts` },
  { find: /^@ragmeter\/(core|store|stream)\/(.+)$/u, replacement: `${root}/$1/src/$2.ts` },
];

export default defineConfig({
  resolve: { alias },
  test: {
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    sequence: { sequencer: LongestFirst },
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
