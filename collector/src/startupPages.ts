/**
 * The collector process's own pages: just before it listens, the pages of code and read-only data only its
 * start touched go back to the kernel (@ragmeter/runtime), unless RAGMETER_RELEASE_STARTUP_PAGES is false
 * or RAGMETER_RUNTIME_TUNING off.
 */

import type { PinoLogger } from "@ragmeter/runtime";
import { runtimeTuning } from "@ragmeter/tuning";
import type { CollectorConfig } from "./config.js";

/** Releases this process's startup pages when the configuration says so, and logs what happened. */
export async function releaseStartupPagesOnce(config: Pick<CollectorConfig, "releaseStartupPages" | "runtimeTuning">, logger: PinoLogger): Promise<void> {
  if (!config.releaseStartupPages) return;
  const r = await runtimeTuning(config.runtimeTuning).releaseStartupPages();
  if (r.status === "released") logger.info({ released_mib: r.releasedMiB, mappings: r.mappings, failed: r.failed }, "startup pages released");
  else logger.info({ reason: r.reason }, "startup pages not released");
}
