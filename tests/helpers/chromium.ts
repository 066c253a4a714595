// Tests that drive headless Chromium (`ragmeter report --png`, the report page) find it the way the
// product does (findChromium: RAGMETER_CHROMIUM, else chromium, chromium-browser or google-chrome on
// PATH). Without it they are skipped, with one line naming what is missing and how to install it;
// in CI (CI=true, as under .ci/run, which installs Chromium first) a missing browser fails the file.
import { BrowserMissingError, findChromium } from "../../scorer/src/cli/format/browser.js";

const INSTALL = "install it (Debian: apt-get install chromium) or set RAGMETER_CHROMIUM to its path";

/** True when the environment says it is CI (CI=true or CI=1). */
function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return ["true", "1"].includes((env["CI"] ?? "").toLowerCase());
}

/**
 * Why a Chromium test cannot run here (printed once, prefixed by `test`), or null when Chromium is found.
 * @throws Error in CI when Chromium is missing, so the test fails instead of being skipped.
 */
export function chromiumSkipReason(test: string, env: NodeJS.ProcessEnv = process.env): string | null {
  try {
    findChromium(env);
    return null;
  } catch (err) {
    if (!(err instanceof BrowserMissingError)) throw err;
    const missing = err.message.includes("apt-get install") ? err.message : `${err.message}: ${INSTALL}`;
    if (isCi(env)) throw new Error(`[${test}] ${missing}. CI=${env["CI"]}: in CI a test that needs Chromium fails instead of being skipped (.ci/run installs it)`);
    console.warn(`[${test}] SKIPPED: ${missing}`);
    return missing;
  }
}
