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
