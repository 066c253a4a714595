import { setFlagsFromString } from "node:v8";

/**
 * How many times a function runs before V8 optimizes it with TurboFan during `eval`, 8× V8's
 * default (`--invocation-count-for-turbofan`, 3,000 on Node 24's V8): only what stays hot is
 * optimized, instead of hundreds of functions compiled on threads that take the cores the local
 * target needs. It replaces Node 20's `--interrupt-budget` at 8× its default (67,584), which V8 13
 * no longer has; figures in bench/README.md ("eval").
 */
export const EVAL_TURBOFAN_INVOCATIONS = 24_000;

/**
 * Sets V8's TurboFan invocation count for the rest of the process (read when a function's budget is
 * renewed, so it takes effect at once for functions not yet optimized).
 */
export function setTurbofanInvocations(count: number): void {
  setFlagsFromString(`--invocation-count-for-turbofan=${Math.floor(count)}`);
}
