import { setFlagsFromString } from "node:v8";

/**
 * Limits how far V8 lets the heap grow past what survived its last full collection (V8's flag
 * `--heap-growing-percent`, read at each full collection, so it holds for the rest of the process).
 * Used by the streaming scorer (`RAGMETER_SCORER_HEAP_GROWTH_PERCENT`) and by `eval`: both allocate
 * mostly short-lived rows and texts, and V8's own factor (up to 4×) made that headroom most of their
 * peak RSS (issues 12 and 15). There is no heap limit, so it cannot run out of memory. 0 keeps V8's own.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
