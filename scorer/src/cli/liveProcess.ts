/**
 * How `serve` and `scorer` run: with V8's young generation capped, a flag only the process's start
 * can set (V8 reads it when the heap is made; setting it later changes nothing). The bin replaces its
 * own process with the same command under the flag (the same pid, so signals, exit codes and process
 * supervisors see no difference), as `ragmeter collector` does for its bundle.
 */
import { runtimeTuningEnabled } from "@ragmeter/tuning";

/**
 * V8 flags of `serve` and `scorer`: `--max-semi-space-size=8` caps each young-generation semi-space
 * at 8 MiB. bench:phoenix at 16 clients: peak RSS 742–746 → 618–633 MiB at the same traces/s and CPU
 * per span (bench/README.md); set at run time instead, 749–750 (no effect).
 */
export const LIVE_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=8"];

/** The commands that run as live processes. */
const LIVE_COMMANDS: ReadonlySet<string> = new Set(["serve", "scorer"]);

/** What {@link execLiveProcess} needs from the process (injected in tests). */
export interface LiveExecHost {
  readonly execPath: string;
  readonly execArgv: readonly string[];
  /** `process.execve` (Node ≥ 22.15 on POSIX); undefined where it does not exist. */
  readonly execve?: ((file: string, args?: readonly string[], env?: Record<string, string | undefined>) => never) | undefined;
}

/**
 * For `serve` and `scorer` with RAGMETER_RUNTIME_TUNING on, replaces this process with `node
 * <LIVE_NODE_FLAGS> <its own flags> <argv>`; returns (the command runs in this process) when it is
 * another command, tuning is off, the process or NODE_OPTIONS already sets a semi-space size, or
 * this Node has no `execve`.
 * @param argv the process's argv (node, the bin, the command and its arguments)
 * @returns why it did not replace the process
 */
export function execLiveProcess(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, host: LiveExecHost): string {
  const command = argv.slice(2).find((a) => !a.startsWith("-"));
  if (command === undefined || !LIVE_COMMANDS.has(command)) return "not serve or scorer";
  if (!runtimeTuningEnabled(env)) return "RAGMETER_RUNTIME_TUNING is off";
  const set = (flags: readonly string[]): boolean => flags.some((f) => f.startsWith("--max-semi-space-size"));
  if (set(host.execArgv) || set((env["NODE_OPTIONS"] ?? "").split(/\s+/u))) return "a semi-space size is already set";
  if (typeof host.execve !== "function") return "this Node has no process.execve (Node ≥ 22.15 on Linux or macOS)";
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  return host.execve(host.execPath, [host.execPath, ...LIVE_NODE_FLAGS, ...host.execArgv, ...argv.slice(1)], clean);
}
