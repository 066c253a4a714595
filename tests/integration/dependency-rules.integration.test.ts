// The dependency rules (.dependency-cruiser.cjs) catch what they are written for: each fixture tree
// below breaks exactly one rule, and the cruise must name that rule (and pass the clean tree).
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Writes a fixture tree (path → source) beside the repository's rule and tsconfig files and cruises it with the CLI `npm test` runs. */
async function violations(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "ragmeter-rules-"));
  dirs.push(dir);
  for (const f of [".dependency-cruiser.cjs", "tsconfig.base.json", "tsconfig.depcruise.json"]) copyFileSync(path.join(root, f), path.join(dir, f));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const tops = [...new Set(Object.keys(files).map((f) => f.split("/")[0]!))];
  // exit code 1 on violations: the JSON report is on stdout either way
  const r = await promisify(execFile)(path.join(root, "node_modules/.bin/depcruise"), ["--config", ".dependency-cruiser.cjs", "--output-type", "json", ...tops], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 1 << 26,
  }).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? "" }));
  const out = JSON.parse(r.stdout) as { summary: { violations: { rule: { name: string } }[] } };
  return [...new Set(out.summary.violations.map((v) => v.rule.name))].sort();
}

const clean = {
  "core/src/domain/metrics.ts": "export const M = 1;\n",
  "core/src/scoring/score.ts": 'import { M } from "../domain/metrics.js";\nexport const S = M + 1;\n',
  "scorer/src/runs/eval.ts": "export const E = 1;\n",
  "scorer/src/cli/main.ts": 'import { E } from "../runs/eval.js";\nexport const C = E;\n',
  "tests/helpers/h.ts": "export const H = 1;\n",
  "tests/unit/a.unit.test.ts": 'import { H } from "../helpers/h.js";\nexport const T = H;\n',
};

// The cruises are independent processes: run them at once (each starts dependency-cruiser, seconds on
// an idle machine, far more on a shared one: hence the long timeout).
describe.concurrent("dependency rules", { timeout: 240_000 }, () => {
  it("pass a tree that follows them", async () => {
    expect(await violations(clean)).toEqual([]);
  });

  it("name an upward import between layers of core and of the CLI", async () => {
    expect(await violations({ ...clean, "core/src/domain/metrics.ts": 'import { S } from "../scoring/score.js";\nexport const M = S;\n' })).toContain("core-domain-is-the-bottom");
    expect(await violations({ ...clean, "scorer/src/runs/eval.ts": 'import { C } from "../cli/main.js";\nexport const E = () => C;\n' })).toContain("scorer-runs-below-cli");
  });

  it("name an import cycle", async () => {
    const found = await violations({
      ...clean,
      "store/src/a.ts": 'import { B } from "./b.js";\nexport const A = B;\n',
      "store/src/b.ts": 'import { A } from "./a.js";\nexport const B = () => A;\n',
    });
    expect(found).toEqual(["no-circular"]);
  });

  it("name a relative import into another workspace's files", async () => {
    const found = await violations({
      ...clean,
      "golden/src/x.ts": "export const X = 1;\n",
      "core/src/domain/metrics.ts": 'import { X } from "../../../golden/src/x.js";\nexport const M = X;\n',
    });
    expect(found).toEqual(["no-cross-workspace-internals"]);
  });

  it("name a test helper kept under a test tier", async () => {
    const found = await violations({
      ...clean,
      "tests/unit/helper.ts": "export const H = 1;\n",
      "tests/unit/b.unit.test.ts": 'import { H } from "./helper.js";\nexport const T = H;\n',
    });
    expect(found).toEqual(["no-test-helpers-in-tiers"]);
  });

  it("name an import that resolves to no file", async () => {
    expect(await violations({ ...clean, "tests/unit/c.unit.test.ts": 'import { H } from "./moved-away.js";\nexport const T = H;\n' })).toEqual(["no-unresolvable"]);
  });

  it("name a CLI module outside every layer", async () => {
    expect(await violations({ ...clean, "scorer/src/misc/x.ts": 'import { E } from "../runs/eval.js";\nexport const X = E;\n' })).toEqual(["scorer-no-stray-modules"]);
  });
});
