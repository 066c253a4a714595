// Dependency rules of the repository (run by `npm test` through scripts/rules.mjs).
// Layers of the scorer, top to bottom (design §8):
//   cli → runs → {stream, scoring, store} → {judges, extract} → domain
// with store depending on domain types alone. A rule's name is printed with every violation.
const WORKSPACES = "(otlp|kafka|runtime|tuning|collector|instrumentation|golden|scorer|dashboards|examples/sample-rag)";
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
    // Direction between the workspaces (design §8): runtime at the bottom; otlp, kafka and golden on
    // it alone; instrumentation (published on its own) standing alone, dashboards on the scorer's metric table alone; the collector
    // on runtime, otlp and kafka; the sample on golden and instrumentation; the scorer (the CLI) on
    // top. Tests, bench and scripts may import any.
    {
      name: "runtime-is-the-bottom",
      comment: "runtime is the lowest shared workspace: it imports no other.",
      severity: "error",
      from: { path: "^runtime/" },
      to: { path: `^${WORKSPACES}/`, pathNot: "^runtime/" },
    },
    {
      name: "tuning-on-runtime-only",
      comment: "tuning (the process tuning and its native FFI, koffi) imports runtime alone.",
      severity: "error",
      from: { path: "^tuning/" },
      to: { path: `^${WORKSPACES}/`, pathNot: "^(tuning|runtime)/" },
    },
    {
      name: "tuning-only-in-entry-points",
      comment: "Only the entry points (the collector, the scorer's CLI and stream) import tuning, so otlp, kafka, golden and the libraries pull no native FFI.",
      severity: "error",
      from: { path: `^${WORKSPACES}/`, pathNot: "^(tuning|collector|scorer)/" },
      to: { path: "^tuning/" },
    },
    {
      name: "shared-workspaces-on-runtime-only",
      comment: "otlp, kafka and golden import runtime alone (no workspace above them).",
      severity: "error",
      from: { path: "^(otlp|kafka|golden)/" },
      to: { path: `^${WORKSPACES}/`, pathNot: "^($1|runtime)/" },
    },
    {
      name: "standalone-workspaces-import-none",
      comment: "instrumentation (published as its own package) imports no workspace.",
      severity: "error",
      from: { path: "^(instrumentation)/" },
      to: { path: `^${WORKSPACES}/`, pathNot: "^$1/" },
    },
    {
      name: "dashboards-on-the-metric-table-only",
      comment: "dashboards import only the scorer's metric table (@ragmeter/scorer/metrics): panels, SQL and alerts are generated from it.",
      severity: "error",
      from: { path: "^dashboards/" },
      to: { path: `^${WORKSPACES}/`, pathNot: "^(dashboards/|scorer/(src|dist)/domain/metricTable\\.)" },
    },
    {
      name: "collector-on-shared-workspaces-only",
      comment: "The collector runs alone (its own bundle): it imports only runtime, tuning, otlp and kafka, never the scorer, the sample or golden.",
      severity: "error",
      from: { path: "^collector/" },
      to: { path: `^${WORKSPACES}/`, pathNot: "^(collector|runtime|tuning|otlp|kafka)/" },
    },
    {
      name: "sample-not-on-scorer-or-collector",
      comment: "The sample application is what ragmeter measures, not a part of it: it imports neither the scorer nor the collector.",
      severity: "error",
      from: { path: "^examples/" },
      to: { path: "^(scorer|collector)/" },
    },
    {
      name: "nothing-shipped-imports-the-scorer",
      comment: "The scorer is the top: no other workspace imports it, but for its metric table (@ragmeter/scorer/metrics), which the dashboards are generated from.",
      severity: "error",
      from: { path: `^${WORKSPACES}/`, pathNot: "^scorer/" },
      to: { path: "^scorer/", pathNot: "^scorer/(src|dist)/domain/metricTable\\." },
    },
    {
      name: "sample-only-in-demo",
      comment: "The scorer reaches the sample application only from cli/demoCommand.ts, which the CLI loads lazily for `demo`: no other command loads it at run time.",
      severity: "error",
      from: { path: S, pathNot: `${S}cli/demoCommand.ts$` },
      to: { path: "^examples/" },
    },
    {
      name: "demo-loaded-lazily",
      comment: "cli/demoCommand.ts (and with it the sample) is only imported dynamically (import()), so the other commands never load the sample.",
      severity: "error",
      from: {},
      to: { path: `${S}cli/demoCommand.ts$`, dynamic: false },
    },
    {
      name: "browser-driver-only-in-browser-module",
      comment:
        "playwright-core is an optional peer: only cli/format/browser.ts names it (by `import type` and by import() for report --png; scripts/rules.mjs checks it has no static value import).",
      severity: "error",
      from: { path: `^${WORKSPACES}/`, pathNot: `${S}cli/format/browser\\.ts$` },
      to: { path: "playwright-core" },
    },
    {
      name: "sql-only-in-store",
      comment:
        "SQL only in scorer/src/store (design §8): the ClickHouse clients (@clickhouse/client, chdb) are imported there alone. scripts/rules.mjs checks SQL string literals too.",
      severity: "error",
      from: { path: `^${WORKSPACES}/`, pathNot: `${S}store/` },
      to: { path: "(^|/)node_modules/(@clickhouse/client|chdb)(/|$)", dependencyTypesNot: ["type-only"] },
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
    // Packages and the workspaces' built output are leaves (a workspace imported by name resolves to
    // its dist/): kept in the graph so the rules on packages and on the direction between workspaces
    // see them, never followed.
    doNotFollow: { path: "(^|/)(node_modules|dist)/" },
    exclude: { path: "(^|/)test-output/|^(otlp|kafka|runtime|collector|instrumentation|golden|scorer|dashboards|examples/sample-rag)/node_modules/" },
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
