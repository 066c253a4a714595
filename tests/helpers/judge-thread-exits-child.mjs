// A judge thread that exits at once (for tests/integration/judge-thread.integration.test.ts).
process.exit(3);
