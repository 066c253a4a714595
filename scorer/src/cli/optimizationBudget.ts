import { setFlagsFromString } from "node:v8";

/**
 * V8's interrupt budget for `eval` (its flag `--interrupt-budget`, default 67,584): how much
 * bytecode a function runs before V8 considers optimizing it. At 8× the default only what stays hot
 * is optimized. 2,000 questions against the sample target (issue 12): 308–320 functions optimized by
 * TurboFan at the default, on threads that take the cores the local target needs, against 74; eval's
 * CPU 3.7 → 3.3–3.4 s and its wall time 3.94–4.10 → 3.81–3.90 s. At 20,000 questions 333 functions
 * are still optimized against 500 (CPU +6 %, the same wall time: the target is the bound).
 */
export const EVAL_INTERRUPT_BUDGET = 540_672;

/**
 * Sets V8's interrupt budget for the rest of the process (read whenever a function's budget is
 * renewed, so it takes effect at once for functions not yet optimized).
 */
export function setInterruptBudget(bytes: number): void {
  setFlagsFromString(`--interrupt-budget=${Math.floor(bytes)}`);
}
