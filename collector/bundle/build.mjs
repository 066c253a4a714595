#!/usr/bin/env node
// Bundles the compiled collector (collector/dist/main.js and worker.js, after `tsc -b`) with its
// dependencies into collector/dist/bundle/, the code the stand-alone entry point
// (collector/bin/ragmeter-collector.js) runs. `npm run build` (and `prepare`, `npm test`, the
// benchmarks) run it after tsc. The bundle exists for memory: V8 keeps the source text of every
// module loaded and the objects its top level builds, and a bundle loads only what is reachable.
// Idle RSS of the stand-alone collector (MALLOC_ARENA_MAX=2 node --max-semi-space-size=4, after
// start, no traffic; two runs each, 2-core box):
//   unbundled collector/dist/main.js                                         92 MiB
//   plain bundle                                                             89 MiB
//   + @platformatic/kafka modules side-effect free (only Producer and Admin
//     with what they import), mnemonist → its LRUCache only, ajv → unused    80 MiB
//   + minified (source text kept by V8 is about a third)                      74–76 MiB
//   + node:http instead of fastify (collector/src/server.ts)                  see bench/README.md
// What is swapped (see each stand-in for why it is safe): `mnemonist` → ./mnemonist-lru.cjs,
// `ajv/dist/2020.js` (imported by @platformatic/kafka only) → ./ajv-unused.mjs; and
// `@platformatic/wasm-utils` → its own `bundled` entry (the WebAssembly module inlined); and, for CPU
// (issue 38), the CRC-32C that @platformatic/kafka's records.js computes over each record batch →
// ./crc32c-kafka.mjs, the same checksum over the batch's buffers in place, without joining them.
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "..", "dist");
for (const f of ["main.js", "worker.js"]) {
  if (!existsSync(join(dist, f))) {
    process.stderr.write(`collector bundle: collector/dist/${f} is missing: run \`tsc -b\` first\n`);
    process.exit(2);
  }
}

const platformatic = `${sep}@platformatic${sep}kafka${sep}`;

/** @type {import("esbuild").Plugin} */
const lean = {
  name: "ragmeter-collector-lean",
  setup(b) {
    b.onResolve({ filter: /^mnemonist$/ }, () => ({ path: join(here, "mnemonist-lru.cjs") }));
    b.onResolve({ filter: /^ajv\/dist\/2020\.js$/ }, (a) => (a.importer.includes(platformatic) ? { path: join(here, "ajv-unused.mjs") } : undefined));
    // @platformatic/wasm-utils (CRC32C, compression codecs of @platformatic/kafka 2.x) reads its
    // native.wasm next to its own module at load; in the bundle that path is gone, so its variant
    // with the module inlined is bundled instead (the same exports).
    // The client's CRC-32C of a record batch joins the batch's buffers first (a copy per produce
    // call): crc32c-kafka.mjs reads them in place (issue 38). Its import of the client's own module:
    b.onResolve({ filter: /^\.\/crc32c\.js$/ }, (a) =>
      a.importer.includes(platformatic) && a.importer.endsWith(`${sep}protocol${sep}records.js`) ? { path: join(here, "crc32c-kafka.mjs") } : undefined,
    );
    b.onResolve({ filter: /^@platformatic\/wasm-utils$/ }, (a) =>
      b.resolve("@platformatic/wasm-utils/bundled", { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, pluginData: { lean: true } }),
    );
    // @platformatic/kafka's index re-exports every client and API; its modules have no side effects
    // that the Producer and Admin need (checked: only constant tables and compiled validators), so
    // marking them side-effect free lets esbuild drop what the collector does not import.
    b.onResolve({ filter: /.*/ }, async (a) => {
      if (a.pluginData?.lean || !a.importer.includes(platformatic)) return undefined;
      const r = await b.resolve(a.path, { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, pluginData: { lean: true } });
      if (r.errors.length > 0) return { errors: r.errors };
      return r.path.includes(platformatic) ? { ...r, sideEffects: false } : r;
    });
  },
};

rmSync(join(dist, "bundle"), { recursive: true, force: true });
const result = await build({
  entryPoints: { main: join(dist, "main.js"), worker: join(dist, "worker.js") },
  outdir: join(dist, "bundle"),
  bundle: true,
  splitting: true, // server.js stays a separate chunk, loaded by main only when it runs the collector itself
  platform: "node",
  format: "esm",
  target: "node20",
  // Whitespace and syntax only: identifiers keep their names, so class names (an error's
  // `new.target.name`) and stack traces read as in collector/dist. Measured idle, the same RSS as a
  // bundle with renamed identifiers (74 MiB, within the 2 MiB noise).
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
  // CommonJS dependencies (pino, commander) call require() for Node's built-in modules.
  banner: { js: 'import { createRequire as __ragmeterRequire } from "node:module"; const require = __ragmeterRequire(import.meta.url);' },
  // koffi loads its prebuilt native binary by path at run time: resolved from node_modules, not bundled.
  external: ["koffi"],
  plugins: [lean],
  metafile: true,
});

// What the bundle holds, per input (esbuild's metafile: `bytesInOutput` of each module per chunk).
writeFileSync(join(dist, "bundle-meta.json"), JSON.stringify(result.metafile));

// The collector serves HTTP with node:http (collector/src/server.ts); a web framework pulled back in
// (e.g. through an import of the scorer) would cost 10–15 MiB of RSS: fail the build instead.
const framework = Object.keys(result.metafile.inputs).filter((p) => /node_modules[\\/](fastify|@fastify|find-my-way|avvio|light-my-request)[\\/]/.test(p));
if (framework.length > 0) {
  process.stderr.write(`collector bundle: must not contain a web framework, found ${framework.length} module(s), e.g. ${framework[0]}\n`);
  process.exit(1);
}
