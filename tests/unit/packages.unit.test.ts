import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { targetReplySchema } from "../../scorer/src/runs/target.js";
import type { TargetModuleOptions as CliTargetModuleOptions, TargetModuleAsk } from "../../scorer/src/runs/targetModule.js";
import { bundledWorkspaces, ragmeterManifest, workspaces } from "../../scripts/pack/manifest.mjs";
import type { Ask, TargetContext, TargetModuleOptions, TargetModuleReply } from "../../scripts/pack/ragmeter/index.js";

// The published packages' manifests (issue 29; design §8 "Packages"): `ragmeter` as
// scripts/pack/manifest.mjs computes it from the workspaces, and @ragmeter/instrumentation as its
// workspace declares it. tests/integration/packages.integration.test.ts packs and installs them.

const root = path.resolve(import.meta.dirname, "../..");
const rootManifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const manifest = ragmeterManifest(root);
const instrumentation = JSON.parse(readFileSync(path.join(root, "instrumentation", "package.json"), "utf8"));

describe("the ragmeter package", () => {
  it("bundles the CLI's workspaces and none of them is a dependency; the sample and its own dependencies are not the CLI's", () => {
    const { cli, sample } = bundledWorkspaces(root);
    expect(cli).toContain("@ragmeter/scorer");
    expect(cli).toContain("@ragmeter/collector");
    expect(cli).toContain("@ragmeter/golden");
    // the Kafka module, once it is a workspace the collector or scorer depends on, is bundled too
    if (workspaces(root).has("@ragmeter/kafka") && JSON.stringify(workspaces(root).get("@ragmeter/collector").manifest).includes("@ragmeter/kafka"))
      expect(cli).toContain("@ragmeter/kafka");
    expect(sample).toEqual(["@ragmeter/instrumentation", "@ragmeter/sample-rag"]);
    const all = { ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies };
    expect(Object.keys(all).filter((d) => d.startsWith("@ragmeter/"))).toEqual([]);
    expect(all).not.toHaveProperty("minisearch");
  });

  it("docs/install.md names every workspace bundled into the CLI (the list went stale when core, store and stream were split out)", () => {
    const { cli } = bundledWorkspaces(root);
    const install = readFileSync(path.join(root, "docs", "install.md"), "utf8").replace(/\s+/gu, " ");
    const listed = /every workspace it reaches through its dependencies \(([^)]*)\)/u.exec(install)?.[1] ?? "";
    const named = (ws: string) => (ws === "@ragmeter/kafka" ? "the Kafka module" : ws.replace("@ragmeter/", ""));
    const missing = cli.filter((ws: string) => ws !== "@ragmeter/scorer" && !listed.split(", ").includes(named(ws)));
    expect(missing).toEqual([]);
  });

  it("chdb is optional, playwright-core an optional peer (report --png), everything else a dependency", () => {
    expect(manifest.optionalDependencies).toEqual({ chdb: expect.any(String) });
    expect(manifest.peerDependencies).toEqual({ "playwright-core": expect.any(String) });
    expect(manifest.peerDependenciesMeta).toEqual({ "playwright-core": { optional: true } });
    expect(manifest.dependencies).not.toHaveProperty("playwright-core");
    expect(manifest.dependencies).not.toHaveProperty("chdb");
    expect(manifest.dependencies).toHaveProperty("commander");
  });

  it("carries the root's version, licence and engines, a bin, files, exports and types", () => {
    expect(manifest).toMatchObject({
      name: "ragmeter",
      version: rootManifest.version,
      license: "Apache-2.0",
      engines: rootManifest.engines,
      bin: { ragmeter: "dist/ragmeter.js" },
      types: "./dist/index.d.ts",
      exports: { ".": { types: "./dist/index.d.ts" }, "./package.json": "./package.json" },
    });
    expect(manifest.files).toEqual(["dist", "migrations", "sample", "THIRD-PARTY-LICENSES.txt"]);
    expect(existsSync(path.join(root, "scripts", "pack", "ragmeter", "README.md"))).toBe(true);
    expect(existsSync(path.join(root, "scripts", "pack", "ragmeter", "index.d.ts"))).toBe(true);
  });

  it("its types are the CLI's target-module contract", () => {
    expectTypeOf<TargetModuleOptions>().toEqualTypeOf<CliTargetModuleOptions>();
    expectTypeOf<Parameters<Ask>>().toEqualTypeOf<Parameters<TargetModuleAsk>>();
    // the reply's fields are those the CLI validates (scorer/src/runs/target.ts)
    const replyKeys: (keyof TargetModuleReply)[] = ["answer", "contexts", "model", "pipeline_version"];
    const contextKeys: (keyof TargetContext)[] = ["id", "document_id", "text", "score"];
    expect(Object.keys(targetReplySchema.shape).sort()).toEqual([...replyKeys].sort());
    expect(Object.keys(targetReplySchema.shape.contexts.element.shape).sort()).toEqual([...contextKeys].sort());
    const reply: TargetModuleReply = {
      answer: "a",
      contexts: [
        { id: 1, text: "t" },
        { id: "c", document_id: "d", text: "u", score: null },
      ],
      model: "m",
    };
    expect(targetReplySchema.safeParse(reply).success).toBe(true);
  });
});

describe("the @ragmeter/instrumentation package", () => {
  it("has no hard dependency: @opentelemetry/api is a peer, the SDK packages startTracing() loads optional peers", () => {
    expect(instrumentation.dependencies).toBeUndefined();
    expect(instrumentation.optionalDependencies).toBeUndefined();
    const sdk = ["@opentelemetry/exporter-trace-otlp-proto", "@opentelemetry/resources", "@opentelemetry/sdk-node", "@opentelemetry/sdk-trace-base"];
    expect(Object.keys(instrumentation.peerDependencies).sort()).toEqual(["@opentelemetry/api", ...sdk].sort());
    expect(instrumentation.peerDependenciesMeta).toEqual(Object.fromEntries(sdk.map((d) => [d, { optional: true }])));
    // the workspace's own tests and the repository's services use them: installed there as dev dependencies
    for (const d of sdk) expect(instrumentation.devDependencies).toHaveProperty(d);
  });

  it("is public, with the root's version, a licence file equal to the root's, a README, exports and types", () => {
    expect(instrumentation.private).toBeUndefined();
    expect(instrumentation).toMatchObject({ version: rootManifest.version, license: "Apache-2.0" });
    expect(instrumentation.files).toEqual(expect.arrayContaining(["dist", "README.md", "LICENSE"]));
    expect(readFileSync(path.join(root, "instrumentation", "LICENSE"), "utf8")).toBe(readFileSync(path.join(root, "LICENSE"), "utf8"));
    expect(readFileSync(path.join(root, "LICENSE"), "utf8")).toMatch(/^\s+Apache License\s+Version 2\.0, January 2004/u);
    expect(existsSync(path.join(root, "instrumentation", "README.md"))).toBe(true);
    for (const entry of [".", "./tracing"]) expect(Object.keys(instrumentation.exports[entry])).toEqual(["types", "default"]);
  });
});
