import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NEEDED_NODE, nodeAtLeast, oldNodeLine } from "../../scorer/bin/need-node.js";

const root = path.resolve(import.meta.dirname, "../..");
const manifest = (rel: string) =>
  JSON.parse(readFileSync(path.join(root, rel), "utf8")) as { engines?: { node?: string }; scripts?: Record<string, string>; workspaces?: string[] };

describe("the Node check before anything loads (issue 37)", () => {
  it("needs the version every package.json's engines name", () => {
    const rootManifest = manifest("package.json");
    const files = ["package.json", ...(rootManifest.workspaces ?? []).map((w) => path.join(w, "package.json"))];
    for (const f of files) expect(manifest(f).engines?.node, f).toBe(`>=${(NEEDED_NODE as string).split(".").slice(0, 2).join(".")}`);
  });

  it("compares major.minor.patch numerically, not as text", () => {
    expect(nodeAtLeast("20.20.2", "22.22.0")).toBe(false);
    expect(nodeAtLeast("22.21.9", "22.22.0")).toBe(false);
    expect(nodeAtLeast("22.22.0", "22.22.0")).toBe(true);
    expect(nodeAtLeast("22.100.0", "22.22.0")).toBe(true);
    expect(nodeAtLeast("24.0.0", "22.22.0")).toBe(true);
    expect(nodeAtLeast("9.0.0", "22.22.0")).toBe(false);
  });

  it("is one line naming the Node found, the Node needed and the fix; nothing on a new enough Node", () => {
    const line = oldNodeLine("20.20.2", "22.22.0", "/usr/bin/node", true) as string;
    expect(line).toBe(
      "ragmeter needs Node.js 22.22 or later (24 LTS recommended) and found 20.20.2 at /usr/bin/node: run `. scripts/node-env.sh` in this shell (it installs Node 24 LTS into ~/.cache/ragmeter without root), then the command again",
    );
    expect(oldNodeLine("20.20.2", "22.22.0", "/opt/node", false)).toBe(
      "ragmeter needs Node.js 22.22 or later (24 LTS recommended) and found 20.20.2 at /opt/node: install Node.js 24 LTS (for example `nvm install 24`) and run the command again",
    );
    expect(oldNodeLine("24.19.0", "22.22.0", "/x", true)).toBeUndefined();
  });

  it("runs first in npm ci (preinstall) and in every npm script that does not start the CLI's bin, which checks itself", () => {
    const scripts = manifest("package.json").scripts ?? {};
    expect(scripts["preinstall"]).toBe("node scorer/bin/need-node.js");
    // Biome is a native binary whose wrapper runs on any Node: linting and formatting work on an older one
    const anyNode = new Set(["lint", "format"]);
    for (const [name, command] of Object.entries(scripts)) {
      if (command.startsWith("node scorer/bin/ragmeter.js ") || anyNode.has(name)) continue;
      expect(command, name).toMatch(/^node scorer\/bin\/need-node\.js(?: && |$)/u);
    }
    const bin = readFileSync(path.join(root, "scorer/bin/ragmeter.js"), "utf8");
    expect(bin.indexOf("requireNode()")).toBeGreaterThan(0);
    expect(bin.indexOf("requireNode()")).toBeLessThan(bin.indexOf("../dist/cli/main.js"));
  });
});
