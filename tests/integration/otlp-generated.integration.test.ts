import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The committed generated code must be what `npm run -w @ragmeter/otlp generate` makes from the
// vendored .proto files today.
const committed = path.resolve("otlp/generated");
let out = "";

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

describe("otlp/generated", () => {
  it("is what otlp/scripts/generate.mjs generates from otlp/proto (run `npm run -w @ragmeter/otlp generate` when this fails)", async () => {
    out = await mkdtemp(path.join(tmpdir(), "ragmeter-otlp-gen-"));
    execFileSync(process.execPath, [path.resolve("otlp/scripts/generate.mjs"), out], { stdio: "pipe" });
    const names = (await readdir(committed)).sort();
    expect((await readdir(out)).sort()).toEqual(names);
    for (const name of names) {
      const [fresh, old] = await Promise.all([readFile(path.join(out, name), "utf8"), readFile(path.join(committed, name), "utf8")]);
      expect(fresh === old, `otlp/generated/${name} is stale`).toBe(true);
    }
  });
});
