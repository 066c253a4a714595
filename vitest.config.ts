import { defineConfig } from "vitest/config";

// Unit tests run in parallel; integration and e2e tests (shared broker, embedded engine per
// process) are run one file at a time by scripts/test.mjs.
export default defineConfig({
  test: {
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    include: ["tests/**/*.test.ts"],
  },
});
