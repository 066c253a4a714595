#!/usr/bin/env node
// `npm run packages [-- --out DIR] [-- --no-build]`: the npm tarballs a team installs (issue 29).
//   ragmeter-<version>.tgz                   the CLI (bin `ragmeter`): scorer, collector, otlp,
//                                            runtime, golden and the Kafka module bundled by esbuild
//                                            (scripts/pack/bundle.mjs), third-party packages as
//                                            dependencies (scripts/pack/manifest.mjs), the sample
//                                            compiled into the demo's chunk and its data in sample/,
//                                            the store's schema migrations in migrations/
//   ragmeter-instrumentation-<version>.tgz   @ragmeter/instrumentation, packed from its workspace
// Written to DIR (default dist/npm); prints one JSON line: [{name, version, file, size, unpackedSize, entryCount}].
// The ragmeter package is staged in a temporary folder (never inside the repository, so npm sees no
// workspace around it) and packed there with `npm pack`.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bundleCli } from "./bundle.mjs";
import { ragmeterManifest, workspaces } from "./manifest.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const here = path.join(root, "scripts", "pack");

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** `npm pack --json` of the package in `cwd` (extra args e.g. `-w name`) into `out`; its summary. */
function npmPack(cwd, out, extra = []) {
  const json = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", out, ...extra], cwd));
  const p = json[0];
  return {
    name: p.name,
    version: p.version,
    file: path.join(out, p.filename),
    size: p.size,
    unpackedSize: p.unpackedSize,
    entryCount: p.entryCount,
    files: p.files.map((f) => f.path),
  };
}

/** The licence texts of the third-party packages bundled into the CLI. */
function thirdPartyLicenses(packages) {
  const parts = ["Third-party code bundled into the ragmeter package (everything else it runs is an npm dependency", "installed beside it, with its own licence file)."];
  for (const { name, dir } of packages) {
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const found = readdirSync(dir).find((f) => /^licen[cs]e(?:\.md|\.txt)?$/iu.test(f));
    const file = found === undefined ? undefined : path.join(dir, found);
    if (file === undefined) throw new Error(`${name}: no licence file to ship with its bundled code`);
    parts.push("", "=".repeat(80), `${name} ${manifest.version} (${manifest.license})`, "=".repeat(80), readFileSync(file, "utf8").trim());
  }
  return `${parts.join("\n")}\n`;
}

/**
 * Copies collector/dist/bundle (built by collector/bundle/build.mjs) to `to`; the third-party
 * packages bundled into it (from its metafile), whose licences ship with the package.
 */
function copyCollectorBundle(to) {
  const dist = path.join(workspaces(root).get("@ragmeter/collector").dir, "dist");
  const meta = path.join(dist, "bundle-meta.json");
  if (!existsSync(path.join(dist, "bundle", "main.js")) || !existsSync(meta)) throw new Error("collector/dist/bundle is missing (build with npm run build)");
  cpSync(path.join(dist, "bundle"), to, { recursive: true });
  const packages = new Map();
  for (const input of Object.keys(JSON.parse(readFileSync(meta, "utf8")).inputs)) {
    const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/u.exec(input);
    if (m) packages.set(m[1].replace(/\\/gu, "/"), path.join(root, input.slice(0, m.index + m[0].length)));
  }
  return [...packages.entries()].map(([name, dir]) => ({ name, dir }));
}

/** Stages and packs `ragmeter`; returns its summary. */
export async function packRagmeter(out) {
  const manifest = ragmeterManifest(root);
  const stage = mkdtempSync(path.join(tmpdir(), "ragmeter-pack-"));
  try {
    const external = { ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies };
    const { bundledPackages: cliPackages } = await bundleCli(root, path.join(stage, "dist"), external);
    // `ragmeter collector` replaces its process with the collector's own bundle (collector/src/tuning.ts
    // finds it at ./bundle/ beside the CLI's chunks): the build bench:peer measures, shipped as built
    const collectorBundle = copyCollectorBundle(path.join(stage, "dist", "bundle"));
    const bundledPackages = [...new Map([...cliPackages, ...collectorBundle].map((p) => [p.name, p])).values()].sort((a, b) => a.name.localeCompare(b.name));
    cpSync(path.join(here, "ragmeter", "index.d.ts"), path.join(stage, "dist", "index.d.ts"));
    // the store's schema migrations, read at run time from ../migrations/ of the chunk holding
    // store/src/migrationFiles.ts (every chunk is in dist/): the .sql files only
    const migrations = path.join(workspaces(root).get("@ragmeter/store").dir, "migrations");
    cpSync(migrations, path.join(stage, "migrations"), { recursive: true, filter: (f) => f === migrations || f.endsWith(".sql") });
    const sample = workspaces(root).get("@ragmeter/sample-rag").dir;
    cpSync(path.join(sample, "corpus"), path.join(stage, "sample", "corpus"), { recursive: true });
    cpSync(path.join(sample, "golden.jsonl"), path.join(stage, "sample", "golden.jsonl"));
    cpSync(path.join(here, "ragmeter", "README.md"), path.join(stage, "README.md"));
    cpSync(path.join(root, "LICENSE"), path.join(stage, "LICENSE"));
    writeFileSync(path.join(stage, "THIRD-PARTY-LICENSES.txt"), thirdPartyLicenses(bundledPackages));
    writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    return { ...npmPack(stage, out), bundledPackages: bundledPackages.map((p) => p.name) };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Packs @ragmeter/instrumentation from its workspace; returns its summary. */
export function packInstrumentation(out) {
  const { dir } = workspaces(root).get("@ragmeter/instrumentation");
  for (const f of ["LICENSE", "README.md", "dist/index.js", "dist/tracing.js"])
    if (!existsSync(path.join(dir, f))) throw new Error(`instrumentation/${f} is missing (build with npx tsc -b)`);
  return npmPack(root, out, ["--workspace", "@ragmeter/instrumentation"]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  const out = path.resolve(at >= 0 ? args[at + 1] : path.join(root, "dist", "npm"));
  mkdirSync(out, { recursive: true });
  try {
    if (!args.includes("--no-build")) {
      run(path.join(root, "node_modules", ".bin", "tsc"), ["-b"], root);
      run(process.execPath, [path.join(root, "collector", "bundle", "build.mjs")], root);
    }
    const packed = [await packRagmeter(out), packInstrumentation(out)];
    for (const p of packed)
      process.stderr.write(`${p.file}: ${(p.size / 1024).toFixed(0)} KiB packed, ${(p.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${p.entryCount} files\n`);
    process.stdout.write(`${JSON.stringify(packed.map(({ files: _files, ...p }) => p))}\n`);
  } catch (err) {
    process.stderr.write(`packages: ${err.message}\n`);
    process.exit(2);
  }
}
