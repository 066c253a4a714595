import { describe, expect, it } from "vitest";
import { cli } from "../helpers/cli.js";

const HINT = "(run `ragmeter --help`, or `ragmeter <command> --help`, for usage)";

describe("usage errors", () => {
  it("are one ragmeter: line naming the problem plus a --help hint, exit 2", async () => {
    for (const [args, line] of [
      // the target is one of --target, --target-config, --target-module (checked after parsing); the
      // pipeline version is a required option
      [["eval", "--golden", "g.jsonl"], "ragmeter: required option '--pipeline-version <v>' not specified"],
      [["compare"], "ragmeter: missing required argument 'run_a'"],
      [["bogus"], "ragmeter: unknown command 'bogus'"],
      [
        ["eval", "--golden", "g.jsonl", "--target", "http://127.0.0.1:1/ask", "--pipeline-version", "v", "--k", "0"],
        "ragmeter: option '--k <list>' argument '0' is invalid. expected comma-separated integers ≥ 1, e.g. 1,3,5,10",
      ],
    ] as const) {
      const r = await cli([...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toBe(`${line}\n${HINT}\n`);
    }
  });
});

describe("--help", () => {
  it("shows --k's default as typed and what --max-error-rate counts", async () => {
    for (const cmd of ["eval", "replay", "scorer", "serve"]) {
      const r = await cli([cmd, "--help"]);
      const help = r.out.replace(/\s+/gu, " ");
      expect(help, cmd).toContain("--k <list> k values of recall@k, comma-separated (default: 1,3,5,10)");
      expect(help, cmd).not.toContain("[1,3,5,10]");
    }
    const ev = (await cli(["eval", "--help"])).out.replace(/\s+/gu, " ");
    expect(ev).toContain("exit 1 when the share of questions that could not be measured (target_error, trace_timeout, judge_error on every judged metric) exceeds r (0–1)");
  });
  it("lists forget and live with their flags", async () => {
    const top = (await cli(["--help"])).out;
    expect(top).toMatch(/^ {2}forget \[options\]/mu);
    expect(top).toMatch(/^ {2}live \[options\]/mu);
    const forget = (await cli(["forget", "--help"])).out;
    for (const flag of ["--trace-id <id...>", "--service <name>", "--before <date>", "--dry-run", "--reason <text>", "--json", "--home <dir>"]) expect(forget).toContain(flag);
  });
});
