import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { beforeArg } from "../../scorer/src/cli/forgetCommand.js";
import { cli } from "../helpers/cli.js";

const HINT = "(run `ragmeter --help`, or `ragmeter <command> --help`, for usage)";
const ID = "0af7651916cd43dd8448eb211c80319c";

describe("ragmeter forget: argument errors", () => {
  it("are one ragmeter: line naming the flag, exit 2, before any store is opened", async () => {
    const home = path.join(await mkdtemp(path.join(tmpdir(), "ragmeter-forget-args-")), "home");
    for (const [args, line, hint] of [
      [[], "ragmeter: forget: choose the traces: --trace-id ID… or --service NAME --before DATE", false],
      [["--dry-run"], "ragmeter: forget: choose the traces: --trace-id ID… or --service NAME --before DATE", false],
      [["--service", "svc"], "ragmeter: forget: --service needs --before DATE", false],
      [["--before", "2026-01-31"], "ragmeter: forget: --before needs --service NAME", false],
      [["--service", " ", "--before", "2026-01-31"], "ragmeter: forget: --service must not be empty", false],
      [["--trace-id", ID, "--service", "svc", "--before", "2026-01-31"], "ragmeter: forget: --trace-id cannot be combined with --service/--before", false],
      [["--trace-id", "xyz"], "ragmeter: option '--trace-id <id...>' argument 'xyz' is invalid. expected a trace id of 32 hex digits", true],
      [["--trace-id", ID, "0".repeat(32)], `ragmeter: option '--trace-id <id...>' argument '${"0".repeat(32)}' is invalid. expected a trace id of 32 hex digits`, true],
      [["--trace-id"], "ragmeter: option '--trace-id <id...>' argument missing", true],
      [
        ["--service", "svc", "--before", "yesterday"],
        "ragmeter: option '--before <date>' argument 'yesterday' is invalid. expected a date, e.g. 2026-01-31 (UTC) or 2026-01-31T12:00:00Z",
        true,
      ],
      [
        ["--service", "svc", "--before", "2026-01-31T12:00:00"],
        "ragmeter: option '--before <date>' argument '2026-01-31T12:00:00' is invalid. expected a date, e.g. 2026-01-31 (UTC) or 2026-01-31T12:00:00Z",
        true,
      ],
      [
        ["--service", "svc", "--before", "2026-02-30"],
        "ragmeter: option '--before <date>' argument '2026-02-30' is invalid. expected a date, e.g. 2026-01-31 (UTC) or 2026-01-31T12:00:00Z",
        true,
      ],
    ] as const) {
      const r = await cli(["forget", "--home", home, ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toBe(hint ? `${line}\n${HINT}\n` : `${line}\n`);
      expect(r.out).toBe("");
    }
    expect(existsSync(home)).toBe(false);
  });

  it("--before reads a date as midnight UTC and a time with its offset", () => {
    expect(beforeArg("2026-01-31").toISOString()).toBe("2026-01-31T00:00:00.000Z");
    expect(beforeArg("2026-01-31T12:30:00+02:00").toISOString()).toBe("2026-01-31T10:30:00.000Z");
    expect(beforeArg("2026-01-31T12:30Z").toISOString()).toBe("2026-01-31T12:30:00.000Z");
  });

  it("a bad RAGMETER_RETENTION_DAYS is a configuration error naming the variable", async () => {
    const home = path.join(await mkdtemp(path.join(tmpdir(), "ragmeter-forget-env-")), "home");
    const why = "must be a whole number of days from 1 to 36500 (e.g. 30), or unset to keep content forever";
    for (const [name, v] of [
      ["RAGMETER_RETENTION_DAYS", "30d"],
      ["RAGMETER_RETENTION_DAYS_LOGS", "abc"],
      ["RAGMETER_RETENTION_DAYS_SPANS", "0"],
      ["RAGMETER_RETENTION_DAYS", "36501"],
      ["RAGMETER_RETENTION_DAYS_INTERACTIONS", "1.5"],
    ] as const) {
      const r = await cli(["runs", "--home", home], { [name]: v });
      expect(r.code).toBe(2);
      expect(r.err).toBe(`ragmeter: environment variable ${name}: ${why}\n`);
    }
  });
});
