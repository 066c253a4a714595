// Dependency rules of the repository (run by `npm test` through scripts/rules.mjs).
// Workspaces of the scorer's side, top to bottom (design §8):
//   scorer (the CLI: cli → runs) → stream → store → core
// and inside core: scoring → {judges, extract} → domain. A rule's name is printed with every violation.
const WORKSPACES = "(otlp|kafka|runtime|tuning|collector|instrumentation|golden|core|store|stream|scorer|dashboards|examples/sample-rag)";
const S = "^scorer/src/";
const C = "^core/src/";

/** A layer folder of `root` (core or the CLI) may not import the listed layers. */
const layer = (name, root, from, forbidden, comment) => ({
  name,
  comment,
  severity: "error",
  from: { path: `${root}${from}/` },
  to: { path: `${root}(${forbidden.join("|")})/` },
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
    // it alone; instrumentation (published on its own) standing alone; dashboards on core's metric
    // table alone; the collector on runtime, otlp and kafka; the sample on golden and instrumentation;
    // core on runtime, golden and otlp; store on core's domain; stream on core and store; the scorer
    // (the CLI) on top. Tests, bench and scripts may import any.
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
      comment: "Only the entry points (the collector, the CLI) import tuning, so otlp, kafka, golden, core, store and stream pull no native FFI.",
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
      comment: "dashboards import only core's metric table (@ragmeter/core/metrics): panels, SQL and alerts are generated from it.",
      severity: "error",
      from: { path: "^dashboards/" },
      to: { path: `^${WORKSPACES}/`, pathNot: "^(dashboards/|core/(src|dist)/domain/metricTable\\.)" },
    },
    {
      name: "core-on-shared-workspaces-only",
      comment: "core (metrics, extraction, judges, scoring) imports only runtime, golden and otlp: no store, no stream, no CLI.",
      severity: "error",
      from: { path: "^core/" },
      to: { path: `^${WORKSPACES}/`, pathNot: "^(core|runtime|golden|otlp)/" },
    },
    {
      name: "core-without-store-driver-http-server-or-cli-parser",
      comment: "core runs anywhere a metric is computed: it loads no ClickHouse client, no HTTP server, no CLI parser or progress bar.",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "(^|/)node_modules/(@clickhouse/client|chdb|fastify|commander|cli-progress)(/|$)" },
    },
    {
      name: "store-on-core-domain-only",
      comment: "store holds all SQL and depends on core's domain types alone (and runtime, golden): never on extraction, judges, scoring, the stream or the CLI.",
      severity: "error",
      from: { path: "^store/" },
      to: { path: `^(${WORKSPACES.slice(1, -1)})/`, pathNot: "^(store|runtime|golden)/|^core/(src|dist)/domain/" },
    },
    {
      name: "stream-below-the-cli",
      comment: "stream (consume, settle, store, score) imports core, store and the shared workspaces, never the CLI; only the CLI imports stream.",
      severity: "error",
      from: { path: "^stream/" },
      to: { path: `^${WORKSPACES}/`, pathNot: "^(stream|core|store|collector|kafka|otlp|runtime)/" },
    },
    {
      name: "only-the-cli-imports-stream",
      comment: "The stream service is started by the CLI (`scorer`, `serve`) alone.",
      severity: "error",
      from: { path: `^${WORKSPACES}/`, pathNot: "^(stream|scorer)/" },
      to: { path: "^stream/" },
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
      comment: "The sample application is what ragmeter measures, not a part of it: it imports no part of the scorer (core, store, stream, the CLI) nor the collector.",
      severity: "error",
      from: { path: "^examples/" },
      to: { path: "^(core|store|stream|scorer|collector)/" },
    },
    {
      name: "nothing-shipped-imports-the-scorer",
      comment: "The scorer (the CLI) is the top: no other workspace imports it.",
      severity: "error",
      from: { path: `^${WORKSPACES}/`, pathNot: "^scorer/" },
      to: { path: "^scorer/" },
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
        "SQL only in the store workspace (design §8): the ClickHouse clients (@clickhouse/client, chdb) are imported there alone. scripts/rules.mjs checks SQL string literals too.",
      severity: "error",
      from: { path: `^${WORKSPACES}/`, pathNot: "^store/src/" },
      to: { path: "(^|/)node_modules/(@clickhouse/client|chdb)(/|$)", dependencyTypesNot: ["type-only"] },
    },
    layer("core-domain-is-the-bottom", C, "domain", ["extract", "judges", "scoring"], "domain holds types, statuses and the metric table: it imports no other layer."),
    layer("core-extract-below-scoring", C, "extract", ["judges", "scoring"], "extract turns spans into interactions; it knows nothing of judging or scoring."),
    layer(
      "core-judges-below-scoring",
      C,
      "judges",
      ["extract", "scoring"],
      "judges produce verdicts; they never read spans or score interactions (the judge cache reaches the store through an interface).",
    ),
    layer("scorer-runs-below-cli", S, "runs", ["cli"], "runs (eval, replay, compare, calibrate, report data) never reach up into the CLI."),
    {
      name: "core-no-stray-modules",
      comment: "Every core module belongs to a layer folder.",
      severity: "error",
      from: { path: C, pathNot: `${C}(domain|extract|judges|scoring)/` },
      to: { dependencyTypes: ["local"] },
    },
    {
      name: "scorer-no-stray-modules",
      comment: "Every CLI module belongs to a layer folder (besides the package entry).",
      severity: "error",
      from: { path: S, pathNot: `${S}(runs|cli)/|${S}index\\.ts$` },
      to: { dependencyTypes: ["local"] },
    },
  ],
  options: {
    // Packages and the workspaces' built output are leaves (a workspace imported by name resolves to
    // its dist/): kept in the graph so the rules on packages and on the direction between workspaces
    // see them, never followed.
    doNotFollow: { path: "(^|/)(node_modules|dist)/" },
    exclude: { path: `(^|/)test-output/|^${WORKSPACES}/node_modules/` },
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
