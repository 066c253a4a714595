import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every package a workspace's `src` imports is declared in that workspace's package.json: a value
// import in dependencies, optionalDependencies or peerDependencies (what an install of the
// workspace alone brings); an `import type` may also be a devDependency (erased at run time).
// Independent of the build: it reads the sources as text.

const root = path.resolve(import.meta.dirname, "../..");

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  workspaces?: string[];
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(?:[cm]?ts|[cm]?js|tsx)$/u.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

interface Import {
  specifier: string;
  typeOnly: boolean;
}

/** Import and re-export specifiers of one module, static and dynamic, with whether each is type-only. */
function importsOf(text: string): Import[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//gu, "").replace(/^\s*\/\/.*$/gmu, "");
  const out: Import[] = [];
  const staticRe = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gmu;
  for (const m of code.matchAll(staticRe)) out.push({ specifier: m[3] as string, typeOnly: m[2] !== undefined });
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/gu)) out.push({ specifier: m[1] as string, typeOnly: false });
  return out;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for relative paths and builtins. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
  return builtinModules.includes(name) ? undefined : name;
}

const workspaces = (readManifest(root).workspaces ?? []).map((w) => path.join(root, w));

describe("workspace dependencies", () => {
  it("the scanner reads static, type-only, re-export and dynamic imports", () => {
    const src = `import a from "zod";\nimport type { B } from "@x/y/sub";\nexport { c } from "./c.js";\nconst d = await import("@platformatic/kafka");\n// import e from "commented";\nimport "side-effect";\nimport fs from "node:fs";\nimport path from "path";`;
    expect(importsOf(src).map((i) => [packageOf(i.specifier), i.typeOnly])).toEqual([
      ["zod", false],
      ["@x/y", true],
      [undefined, false],
      ["side-effect", false],
      [undefined, false],
      [undefined, false],
      ["@platformatic/kafka", false],
    ]);
  });

  it.each(workspaces.map((w) => [path.relative(root, w), w]))("%s declares every package its src imports", (rel, dir) => {
    const m = readManifest(dir);
    const runtime = new Set(Object.keys({ ...m.dependencies, ...m.optionalDependencies, ...m.peerDependencies }));
    const dev = new Set(Object.keys(m.devDependencies ?? {}));
    const missing = new Set<string>();
    for (const file of sourceFiles(path.join(dir, "src"))) {
      for (const imp of importsOf(readFileSync(file, "utf8"))) {
        const pkg = packageOf(imp.specifier);
        if (pkg === undefined || pkg === m.name || runtime.has(pkg) || (imp.typeOnly && dev.has(pkg))) continue;
        const where = dev.has(pkg) ? "dependencies (it is only a devDependency)" : "dependencies";
        missing.add(`${rel}/package.json: "${pkg}" missing from ${where}, imported by ${path.relative(root, file)}`);
      }
    }
    expect([...missing], `undeclared imports in ${rel}`).toEqual([]);
  });
});
