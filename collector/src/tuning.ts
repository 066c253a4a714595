/**
 * How the collector process runs on its own: the bundle (collector/bundle/build.mjs) with the Node
 * flags and environment that `npm run bench:peer` measures. `collector/bin/ragmeter-collector.js`
 * carries them in its shebang; `ragmeter collector` replaces its own process with the same (below),
 * so the command the README gives runs what the benchmark measures (issue 31).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runtimeTuningEnabled } from "@ragmeter/tuning";

/**
 * V8 flags of the collector process. `--max-semi-space-size=4` caps each young-generation
 * semi-space at 4 MiB: a quarter less peak RSS at the same CPU per span (bench/README.md).
 */
export const COLLECTOR_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=4"];

/** Environment of the collector process: glibc's malloc with two arenas, not one per thread (3–7 MiB less peak RSS). */
export const COLLECTOR_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };

/**
 * The bundle's entry beside this module: collector/dist/bundle/main.js in the repository, and
 * dist/bundle/main.js in the npm package, where this module is part of a chunk in dist/
 * (scripts/pack/pack.mjs copies the bundle there).
 * @returns its path, or why it cannot be used (missing, or older than a compiled file it holds)
 */
function collectorBundle(): { path: string } | { why: string } {
  const here = new URL("./", import.meta.url);
  const bundle = new URL("./bundle/main.js", here);
  if (!existsSync(bundle)) return { why: "the collector's bundle (collector/dist/bundle) is missing" };
  const built = statSync(bundle).mtimeMs;
  // In the repository (where the build leaves bundle-meta.json beside it; the package's files all
  // carry install-time dates): a file compiled after the bundle was built (a bare `tsc -b`) is not in it.
  const repository = existsSync(new URL("./bundle-meta.json", here));
  for (const dir of repository ? [here, new URL("../../otlp/dist/", here)] : []) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir))
      if (f.endsWith(".js") && statSync(new URL(f, dir)).mtimeMs > built) return { why: `the collector's bundle is older than ${fileURLToPath(new URL(f, dir))}` };
  }
  return { path: fileURLToPath(bundle) };
}

/** What {@link execCollectorBundle} needs from the process (injected in tests). */
export interface ExecHost {
  execPath: string;
  /** `process.execve` (Node ≥ 22.15 on POSIX); undefined where it does not exist. */
  execve?: ((file: string, args?: readonly string[], env?: Record<string, string | undefined>) => never) | undefined;
  /** Where the bundle is (default {@link collectorBundle}). */
  collectorBundle?: () => { path: string } | { why: string };
}

/**
 * Replaces this process with `node <flags> <bundle> <args>` under the collector's environment (the
 * same pid, so signals, exit code and process supervisors see no difference). The environment's own
 * MALLOC_ARENA_MAX wins over the default; NODE_OPTIONS passes through. With RAGMETER_RUNTIME_TUNING
 * off the bundle runs with Node's and glibc's defaults (no flag, no MALLOC_ARENA_MAX).
 * @returns why it did not (no bundle, or no execve): the caller runs the collector in this process
 */
export function execCollectorBundle(args: readonly string[], env: Record<string, string | undefined>, host: ExecHost = process): string {
  const b = (host.collectorBundle ?? collectorBundle)();
  if ("why" in b) return b.why;
  if (typeof host.execve !== "function") return "this Node has no process.execve (Node ≥ 22.15 on Linux or macOS)";
  const tuned = runtimeTuningEnabled(env);
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...(tuned ? COLLECTOR_PROCESS_ENV : {}), ...env })) if (v !== undefined) merged[k] = v;
  return host.execve(host.execPath, [host.execPath, ...(tuned ? COLLECTOR_NODE_FLAGS : []), b.path, ...args], merged);
}
