export { ERROR_EXIT_CODE, type ErrorCode, RagmeterError, type RagmeterErrorOptions } from "./errors.js";
export { type Backoff, type RetryOptions, retry } from "./retry.js";
export { type ReleasableMapping, releasableMappings } from "./smaps.js";
export { type ReleaseOutcome, releaseStartupPages } from "./startupPages.js";
