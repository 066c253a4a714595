// Dependency rules of the repository (run by `npm test` through scripts/rules.mjs).
// Layers of the scorer, top to bottom (design §8):
//   cli → runs → {stream, scoring, store} → {judges, extract} → domain
// with store depending on domain types alone. A rule's name is printed with every violation.
const WORKSPACES = "(otlp|kafka|runtime|collector|instrumentation|golden|scorer|dashboards|examples/sample-rag)";
const S = "^scorer/src/";

/** A scorer layer may not import the listed layers. */
const layer = (name, from, forbidden, comment) => ({
  name,
  comment,
  severity: "error",
  from: { path: `${S}${from}/` },
  to: { path: `${S}(${forbidden.join("|")})/` },
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import cycle anywhere: a cycle means two modules are one module in two files.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-unresolvable",
      comment: "Every import resolves (a moved file leaves no dangling import behind).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: "no-cross-workspace-internals",
      comment: "A workspace reaches another only through its package name and exports, never by a relative path into its files.",
      severity: "error",
      from: { path: `^${WORKSPACES}/` },
      to: { path: `^${WORKSPACES}/`, pathNot: "^$1/", dependencyTypes: ["local"] },
    },
    {
      name: "no-test-helpers-in-tiers",
      comment: "Shared test code lives in tests/helpers; tests/unit, tests/integration and tests/e2e hold only *.test.ts files.",
      severity: "error",
      from: {},
      to: { path: "^tests/(unit|integration|e2e)/", pathNot: "\\.test\\.ts$" },
    },
    {
      name: "no-production-imports-of-tests",
      comment: "Shipped code never imports test code.",
      severity: "error",
      from: { path: `^${WORKSPACES}/` },
      to: { path: "^tests/" },
    },
    layer(
      "scorer-domain-is-the-bottom",
      "domain",
      ["extract", "judges", "scoring", "store", "stream", "runs", "cli"],
      "domain holds types, statuses and the metric table: it imports no other layer.",
    ),
    layer(
      "scorer-extract-below-scoring",
      "extract",
      ["judges", "scoring", "store", "stream", "runs", "cli"],
      "extract turns spans into interactions; it knows nothing of judging, storing or running.",
    ),
    layer(
      "scorer-judges-below-scoring",
      "judges",
      ["extract", "scoring", "stream", "runs", "cli"],
      "judges produce verdicts; they neither store rows nor run evaluations (the judge cache reaches the store through an interface).",
    ),
    layer("scorer-store-on-domain-only", "store", ["extract", "judges", "scoring", "stream", "runs", "cli"], "store holds all SQL and depends on domain types alone."),
    layer("scorer-scoring-below-stream", "scoring", ["store", "stream", "runs", "cli"], "scoring is interaction in, scores out: no storage, no streaming, no runs."),
    layer("scorer-stream-below-runs", "stream", ["runs", "cli"], "stream consumes, settles and scores traces; runs and the CLI sit above it."),
    layer("scorer-runs-below-cli", "runs", ["cli"], "runs (eval, replay, compare, calibrate, report data) never reach up into the CLI."),
    {
      name: "scorer-no-stray-modules",
      comment: "Every scorer module belongs to a layer folder (besides the package entry).",
      severity: "error",
      from: { path: S, pathNot: `${S}(domain|extract|judges|scoring|store|stream|runs|cli)/|${S}index\\.ts$` },
      to: { dependencyTypes: ["local"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules|test-output)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.depcruise.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".mts", ".js", ".mjs", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
