import { describe, expect, it } from "vitest";
import { execLiveProcess, LIVE_NODE_FLAGS, type LiveExecHost } from "../../scorer/src/cli/liveProcess.js";

/** A process whose execve records its call instead of replacing anything. */
function host(execArgv: readonly string[] = [], execve = true): LiveExecHost & { calls: { file: string; args: readonly string[]; env: Record<string, string | undefined> }[] } {
  const calls: { file: string; args: readonly string[]; env: Record<string, string | undefined> }[] = [];
  return {
    calls,
    execPath: "/usr/bin/node",
    execArgv,
    execve: execve
      ? (((file: string, args: readonly string[] = [], env: Record<string, string | undefined> = {}) => {
          calls.push({ file, args, env });
          return "replaced";
        }) as unknown as LiveExecHost["execve"])
      : undefined,
  };
}
const argv = (...rest: string[]): string[] => ["/usr/bin/node", "/pkg/bin/ragmeter.js", ...rest];

describe("serve and scorer replace their process with themselves under their V8 flags", () => {
  it("serve and scorer: node, the flags, the process's own flags, then the same bin and arguments, under the same environment", () => {
    expect(LIVE_NODE_FLAGS).toEqual(["--max-semi-space-size=8"]);
    const h = host(["--cpu-prof"]);
    execLiveProcess(argv("serve", "--port", "0"), { HOME: "/h", UNSET: undefined }, h);
    expect(h.calls).toEqual([
      { file: "/usr/bin/node", args: ["/usr/bin/node", "--max-semi-space-size=8", "--cpu-prof", "/pkg/bin/ragmeter.js", "serve", "--port", "0"], env: { HOME: "/h" } },
    ]);
    const s = host();
    execLiveProcess(argv("--no-color", "scorer"), {}, s);
    expect(s.calls[0]?.args).toEqual(["/usr/bin/node", "--max-semi-space-size=8", "/pkg/bin/ragmeter.js", "--no-color", "scorer"]);
  });

  it("runs in this process: other commands, tuning off, a semi-space size already set, no execve", () => {
    const cases: [string[], Record<string, string>, LiveExecHost & { calls: unknown[] }, RegExp][] = [
      [argv("eval", "--target", "x"), {}, host(), /not serve or scorer/u],
      [argv(), {}, host(), /not serve or scorer/u],
      [argv("serve"), { RAGMETER_RUNTIME_TUNING: "off" }, host(), /RAGMETER_RUNTIME_TUNING is off/u],
      // the replaced process itself: its flag is set, so it goes on (no loop)
      [argv("serve"), {}, host(["--max-semi-space-size=8"]), /already set/u],
      [argv("serve"), { NODE_OPTIONS: "--enable-source-maps --max-semi-space-size=16" }, host(), /already set/u],
      [argv("serve"), {}, host([], false), /no process\.execve/u],
    ];
    for (const [args, env, h, why] of cases) {
      expect(execLiveProcess(args, env, h)).toMatch(why);
      expect(h.calls).toEqual([]);
    }
  });
});
