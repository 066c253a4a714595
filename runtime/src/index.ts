export { ERROR_EXIT_CODE, type ErrorCode, RagmeterError, type RagmeterErrorOptions } from "./errors.js";
export { createJsonLogger, createLogger, type Logger, type LoggerOptions, type LogLevel, messageLogger, type PinoLogger, pinoOf, silentLogger } from "./logger.js";
export { type Backoff, type RetryOptions, retry } from "./retry.js";
export * from "./settings/index.js";
export { untilShutdown } from "./shutdown.js";
export { type ReleasableMapping, releasableMappings } from "./smaps.js";
export { type ReleaseOutcome, releaseStartupPages } from "./startupPages.js";
export { EVAL_TURBOFAN_INVOCATIONS, RUNTIME_TUNING_ENV, type RuntimeTuning, runtimeTuning, runtimeTuningEnabled } from "./tuning.js";
