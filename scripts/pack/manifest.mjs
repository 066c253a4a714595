// The package.json of the published `ragmeter` package, computed from the workspaces' own
// manifests (design §8, "Packages"), so that a dependency added to a workspace reaches the package
// without a second list to keep in step.
//
// The CLI's workspaces (the scorer and every @ragmeter/* package it reaches) are bundled into the
// package by scripts/pack/bundle.mjs; their third-party dependencies stay ordinary npm dependencies
// of `ragmeter`, except those of the sample (examples/sample-rag): the sample is compiled into the
// chunk `demo` loads and its data shipped as files, so nothing it needs is a dependency of the CLI
// (what only it imports, minisearch, is bundled into that chunk).
import { readFileSync } from "node:fs";
import path from "node:path";

/** The workspace whose bin is `ragmeter` (the CLI). */
export const CLI_WORKSPACE = "scorer";
/** Workspaces compiled into the demo's chunk, whose dependencies are not the CLI's. */
export const SAMPLE_WORKSPACES = ["@ragmeter/sample-rag"];

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/** name → {dir, manifest} of every workspace of the repository at `root`. */
export function workspaces(root) {
  const out = new Map();
  for (const w of readJson(path.join(root, "package.json")).workspaces ?? []) {
    const dir = path.join(root, w);
    const manifest = readJson(path.join(dir, "package.json"));
    out.set(manifest.name, { dir, rel: w, manifest });
  }
  return out;
}

const isWorkspace = (all, name) => all.has(name);

/**
 * The workspaces the CLI bundles: the CLI's and every workspace reached through `dependencies`,
 * `optionalDependencies` or `peerDependencies`, in a stable order.
 * @returns {{cli: string[], sample: string[]}} names; `sample` are those reached only through the sample
 */
export function bundledWorkspaces(root) {
  const all = workspaces(root);
  const cliName = [...all.values()].find((w) => w.rel === CLI_WORKSPACE)?.manifest.name;
  if (cliName === undefined) throw new Error(`no workspace ${CLI_WORKSPACE} in package.json`);
  const reach = (start, stop) => {
    const seen = new Set();
    const walk = (name) => {
      if (seen.has(name) || stop.has(name)) return;
      seen.add(name);
      const m = all.get(name).manifest;
      for (const dep of Object.keys({ ...m.dependencies, ...m.optionalDependencies, ...m.peerDependencies })) if (isWorkspace(all, dep)) walk(dep);
    };
    for (const s of start) walk(s);
    return seen;
  };
  const cli = reach([cliName], new Set(SAMPLE_WORKSPACES));
  const withSample = reach([cliName], new Set());
  return { cli: [...cli].sort(), sample: [...withSample].filter((n) => !cli.has(n)).sort() };
}

/** Adds `deps` into `into`, failing when two workspaces ask for different ranges of one package. */
function merge(into, deps, from, kind) {
  for (const [name, range] of Object.entries(deps ?? {})) {
    const had = into.get(name);
    if (had !== undefined && had.range !== range) throw new Error(`${kind} "${name}": ${had.from} asks for ${had.range}, ${from} for ${range}; make them agree before packing`);
    if (had === undefined) into.set(name, { range, from });
  }
}

const sorted = (m) => Object.fromEntries([...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.range]));

/**
 * The manifest of the `ragmeter` package: name, version, description, licence and engines of the
 * root package.json; the bin; `files`; the dependencies of the bundled workspaces (workspaces
 * themselves excluded, bundled), their optional dependencies (chdb) and their peers as optional
 * peers (playwright-core, loaded only by `report --png`).
 */
export function ragmeterManifest(root) {
  const rootManifest = readJson(path.join(root, "package.json"));
  const all = workspaces(root);
  const { cli } = bundledWorkspaces(root);
  const deps = new Map();
  const optional = new Map();
  const peers = new Map();
  const peersMeta = {};
  for (const name of cli) {
    const m = all.get(name).manifest;
    const third = (o) => Object.fromEntries(Object.entries(o ?? {}).filter(([d]) => !isWorkspace(all, d)));
    merge(deps, third(m.dependencies), name, "dependency");
    merge(optional, third(m.optionalDependencies), name, "optional dependency");
    merge(peers, third(m.peerDependencies), name, "peer dependency");
    for (const [d, meta] of Object.entries(m.peerDependenciesMeta ?? {})) peersMeta[d] = meta;
  }
  for (const name of optional.keys()) deps.delete(name);
  for (const name of peers.keys()) {
    deps.delete(name);
    if (peersMeta[name]?.optional !== true) throw new Error(`peer dependency "${name}" of the CLI is not optional: the CLI must install and run without it`);
  }
  return {
    name: "ragmeter",
    version: rootManifest.version,
    description: rootManifest.description,
    keywords: ["rag", "retrieval-augmented-generation", "evaluation", "llm", "opentelemetry", "recall", "grounding", "cli"],
    license: rootManifest.license,
    type: "module",
    engines: rootManifest.engines,
    bin: { ragmeter: "dist/ragmeter.js" },
    // the CLI has no JavaScript API: its one export is the types of the --target-module contract
    exports: { ".": { types: "./dist/index.d.ts" }, "./package.json": "./package.json" },
    types: "./dist/index.d.ts",
    files: ["dist", "migrations", "sample", "THIRD-PARTY-LICENSES.txt"],
    dependencies: sorted(deps),
    ...(optional.size > 0 ? { optionalDependencies: sorted(optional) } : {}),
    ...(peers.size > 0 ? { peerDependencies: sorted(peers), peerDependenciesMeta: Object.fromEntries([...peers.keys()].sort().map((d) => [d, { optional: true }])) } : {}),
  };
}
