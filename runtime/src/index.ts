export { ERROR_EXIT_CODE, type ErrorCode, isRetriable, RagmeterError, type RagmeterErrorOptions } from "./errors.js";
export { BACKOFF, type Backoff, type RetryOptions, retry } from "./retry.js";
export { type ReleasableMapping, releasableMappings } from "./smaps.js";
export { type ReleaseOutcome, releaseStartupPages } from "./startupPages.js";
