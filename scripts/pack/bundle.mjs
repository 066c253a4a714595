// Bundles the compiled CLI (scorer/dist after `tsc -b`) and the workspaces it reaches into one
// folder of ES modules for the published `ragmeter` package (scripts/pack/pack.mjs). Third-party
// packages the manifest lists (scripts/pack/manifest.mjs) stay imports, resolved from node_modules
// at run time; only ragmeter's own workspaces, and what only the sample imports (minisearch), are
// bundled. Code splitting keeps issue 12's lazy loading: a command loads its own chunk, `demo` alone
// loads the sample.
//
// Entries, next to each other in `outdir` because the code finds them by a URL relative to itself:
//   ragmeter.js      scorer/bin/ragmeter.js (the bin, its shebang kept)
//   targetWorker.js  eval's target client thread (scorer/src/runs/targetClient.ts: ./targetWorker.js)
//   worker.js        a collector cluster worker (collector/src/cluster.ts: ./worker.js)
//   judgeWorker.js   the live scorer's judge thread (core/src/judges/thread/threadJudge.ts: ./judgeWorker.js)
// The sample's corpus and golden set are read from `../sample/` (examples/sample-rag/src/paths.ts
// reads `../corpus/` and `../golden.jsonl` of its dist/ folder; rewritten here).
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { build } from "esbuild";
import { bundledWorkspaces, workspaces } from "./manifest.mjs";

const packageOf = (specifier) => {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
};
const isBuiltin = (specifier) => specifier.startsWith("node:") || builtinModules.includes(packageOf(specifier));

/**
 * Writes the bundle into `outdir`.
 * @param {string} root the repository
 * @param {string} outdir the package's dist/ folder (emptied by the caller)
 * @param {Record<string, string>} external the packages left as imports (the manifest's dependencies, optional and peer)
 * @returns {Promise<{bundledPackages: {name: string, dir: string}[], metafile: import("esbuild").Metafile}>} third-party packages bundled in (their licences go to the package)
 */
export async function bundleCli(root, outdir, external) {
  const all = workspaces(root);
  const { cli, sample } = bundledWorkspaces(root);
  const own = new Set([...cli, ...sample]);
  const samplePaths = path.join(all.get("@ragmeter/sample-rag").dir, "dist", "paths.js");

  /** @type {import("esbuild").Plugin} */
  const packaging = {
    name: "ragmeter-packaging",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (a) => {
        if (isBuiltin(a.path)) return { path: a.path, external: true };
        const pkg = packageOf(a.path);
        if (pkg in external) return { path: a.path, external: true };
        if (pkg.startsWith("@ragmeter/") && !own.has(pkg)) return { errors: [{ text: `${pkg} is imported but is no workspace the CLI depends on (declare it)` }] };
        return undefined; // a workspace, or a package only the sample uses: bundled
      });
      b.onLoad({ filter: /[\\/]paths\.js$/ }, (a) => {
        if (a.path !== samplePaths) return undefined;
        const text = readFileSync(a.path, "utf8");
        const out = text.replace('"../corpus/"', '"../sample/corpus/"').replace('"../golden.jsonl"', '"../sample/golden.jsonl"');
        if (out.split("../sample/").length !== 3) return { errors: [{ text: `${a.path}: the sample's data paths changed; update scripts/pack/bundle.mjs` }] };
        return { contents: out, loader: "js" };
      });
    },
  };

  const scorer = all.get("@ragmeter/scorer").dir;
  const collector = all.get("@ragmeter/collector").dir;
  const result = await build({
    entryPoints: {
      ragmeter: path.join(scorer, "bin", "ragmeter.js"),
      targetWorker: path.join(scorer, "dist", "runs", "targetWorker.js"),
      worker: path.join(collector, "dist", "worker.js"),
      judgeWorker: path.join(all.get("@ragmeter/core").dir, "dist", "judges", "thread", "judgeWorker.js"),
    },
    outdir,
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node22",
    // whitespace and syntax only: class names (an error's name) and stack frames read as in the sources
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    chunkNames: "chunk-[hash]",
    logLevel: "warning",
    plugins: [packaging],
    metafile: true,
  });

  const bundledPackages = new Map();
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/u.exec(input);
    if (m) bundledPackages.set(m[1].replace(/\\/gu, "/"), path.join(root, input.slice(0, m.index + m[0].length)));
  }
  // every import left in the bundle is a built-in module or a package the manifest declares
  for (const [file, out] of Object.entries(result.metafile.outputs)) {
    for (const imp of out.imports) {
      if (!imp.external || isBuiltin(imp.path)) continue;
      if (!(packageOf(imp.path) in external)) throw new Error(`${file} imports ${imp.path}, which the ragmeter manifest does not declare`);
    }
  }
  return { bundledPackages: [...bundledPackages.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, dir]) => ({ name, dir })), metafile: result.metafile };
}
