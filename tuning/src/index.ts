export { type ReleasableMapping, releasableMappings } from "./smaps.js";
export { type ReleaseOutcome, releaseStartupPages } from "./startupPages.js";
export { EVAL_TURBOFAN_INVOCATIONS, RUNTIME_TUNING_ENV, type RuntimeTuning, runtimeTuning, runtimeTuningEnabled } from "./tuning.js";
