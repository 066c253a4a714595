import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SAMPLE_GOLDEN_FILE } from "../../examples/sample-rag/src/index.js";
import { cli } from "../helpers/cli.js";

describe("golden check and --corpus", () => {
  it("is one usage error naming the flag (exit 2), not every document reported missing", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ragmeter-corpus-"));
    const missing = path.join(dir, "no-such-corpus");
    const file = path.join(dir, "not-a-folder.md");
    await writeFile(file, "# a document, not a folder\n");
    for (const [corpus, reason] of [
      [missing, "no such folder"],
      [file, "not a folder"],
    ] as const) {
      const check = await cli(["golden", "check", SAMPLE_GOLDEN_FILE, "--corpus", corpus]);
      expect(check.code).toBe(2);
      expect(check.out).toBe("");
      expect(check.err).toBe(`ragmeter: --corpus ${corpus}: ${reason}\n`);
      // eval refuses it before loading the set or reaching the target (port 1: nothing listens)
      const ev = await cli(["eval", "--golden", SAMPLE_GOLDEN_FILE, "--target", "http://127.0.0.1:1/ask", "--pipeline-version", "v", "--corpus", corpus, "--home", dir]);
      expect(ev.code).toBe(2);
      expect(ev.err).toBe(`ragmeter: --corpus ${corpus}: ${reason}\n`);
    }
  });
  it("golden check says when there is no substring to check instead of 'all 0 found'", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ragmeter-corpus-"));
    const golden = path.join(dir, "doc-only.jsonl");
    await writeFile(golden, `${JSON.stringify({ id: "a", question: "q?", expected_source: "a.md" })}\n`);
    const r = await cli(["golden", "check", golden, "--corpus", dir]);
    expect(r.code).toBe(0);
    expect(r.out.trim().split("\n").at(-1)).toBe("substrings: none to check (no item has expected_source + expected_substring)");
    // one item: singular
    expect(r.out.split("\n")[0]).toMatch(/^golden set .* · jsonl · 1 item · sha256 [0-9a-f]{12}$/u);
  });
  it("golden check of a set with no items is empty_golden_set, exit 2 (as eval)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ragmeter-corpus-"));
    const golden = path.join(dir, "empty.jsonl");
    await writeFile(golden, "\n// nothing yet\n");
    const r = await cli(["golden", "check", golden]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(`ragmeter: ${golden}: empty_golden_set — the golden set has no items\n`);
  });
});
