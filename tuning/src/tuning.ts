/**
 * Runtime tuning: everything ragmeter's processes change about their own runtime, in one place and
 * behind one setting, `RAGMETER_RUNTIME_TUNING` (design §10; declared in the settings catalog,
 * ./settings/catalog.ts, like every setting), read once where the process starts:
 *
 * - V8's heap growth past the live set (`--heap-growing-percent`), for the streaming scorer and `eval`;
 * - V8's TurboFan threshold (`--invocation-count-for-turbofan`), for `eval` beside a local target;
 * - the embedded engine's allocator (`JE_MALLOC_CONF` for the jemalloc inside chdb, when unset);
 * - returning the pages only the start touched to the kernel (madvise through koffi, ./startupPages.ts),
 *   besides its own finer switch `RAGMETER_RELEASE_STARTUP_PAGES`.
 *
 * On by default: these are the settings the memory and speed figures of bench/README.md were measured
 * with (bench:scorer, bench:eval, bench:peer), none can fail a run (no heap limit; a released page is
 * read back from the page cache), and `off` gives Node's and the engine's own behaviour, to compare
 * against or to rule the tuning out. The figures are in bench/README.md, not here.
 */
import { setFlagsFromString } from "node:v8";
import { HEAP_GROWTH_PERCENT, resolveSettings, SETTINGS } from "@ragmeter/runtime";
import { type ReleaseOutcome, releaseStartupPages } from "./startupPages.js";

/** The one setting (environment variable). */
export const RUNTIME_TUNING_ENV = SETTINGS.RAGMETER_RUNTIME_TUNING.name;
/** TurboFan invocation count during `eval`, 8× V8's default of Node 24. */
export const EVAL_TURBOFAN_INVOCATIONS = 24_000;
/** jemalloc settings of the embedded engine: freed pages go back to the system at once. */
const EMBEDDED_ALLOCATOR_CONF = "dirty_decay_ms:0,muzzy_decay_ms:0";

/**
 * Whether runtime tuning is on: `RAGMETER_RUNTIME_TUNING` read through its setting in the catalog
 * (unset or empty: on; the catalog's booleans: on/off, true/false, 1/0, yes/no, in any case), for a
 * caller that has not parsed its settings yet (`eval`, `scorer`, `serve`, `ragmeter collector`'s exec).
 * @throws SettingsError (a RagmeterError, code config) naming the variable on any other value.
 */
export function runtimeTuningEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  return resolveSettings([SETTINGS.RAGMETER_RUNTIME_TUNING], env).values[RUNTIME_TUNING_ENV] === true;
}

/** What a process may change about its runtime; every method does nothing when tuning is off. */
export interface RuntimeTuning {
  readonly enabled: boolean;
  /** Sets V8's `--heap-growing-percent` (read at each full collection; process-wide). 0 keeps V8's own. */
  limitHeapGrowth(percent?: number): void;
  /** Sets V8's `--invocation-count-for-turbofan` for the rest of the process (only what stays hot is optimized). */
  raiseOptimizationThreshold(count?: number): void;
  /**
   * Sets `JE_MALLOC_CONF` in `env` when unset, before the embedded engine loads (jemalloc reads it
   * then, so only the first store opened in a process counts; a value the user set wins).
   */
  tuneEmbeddedAllocator(env?: Record<string, string | undefined>): void;
  /** Returns the pages only the start touched to the kernel ({@link releaseStartupPages}); `unavailable` when tuning is off. */
  releaseStartupPages(): Promise<ReleaseOutcome>;
}

/** The runtime tuning of a process, on or off (see {@link runtimeTuningEnabled}). */
export function runtimeTuning(enabled: boolean): RuntimeTuning {
  return {
    enabled,
    limitHeapGrowth(percent = HEAP_GROWTH_PERCENT) {
      if (enabled && percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.floor(percent)}`);
    },
    raiseOptimizationThreshold(count = EVAL_TURBOFAN_INVOCATIONS) {
      if (enabled) setFlagsFromString(`--invocation-count-for-turbofan=${Math.floor(count)}`);
    },
    tuneEmbeddedAllocator(env = process.env) {
      if (enabled && env["JE_MALLOC_CONF"] === undefined) env["JE_MALLOC_CONF"] = EMBEDDED_ALLOCATOR_CONF;
    },
    releaseStartupPages() {
      return enabled ? releaseStartupPages() : Promise.resolve({ status: "unavailable", reason: `${RUNTIME_TUNING_ENV} is off` });
    },
  };
}
