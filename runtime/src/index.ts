export { type ReleasableMapping, releasableMappings } from "./smaps.js";
export { type ReleaseOutcome, releaseStartupPages } from "./startupPages.js";
