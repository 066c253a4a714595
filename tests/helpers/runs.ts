import type { Judge } from "../../core/src/judges/types.js";
import type { GoldenSet } from "../../golden/src/index.js";
import { runEval } from "../../scorer/src/runs/eval.js";
import { runSpec } from "../../scorer/src/runs/spec.js";
import type { EvalOutcome } from "../../scorer/src/runs/summary.js";
import type { Target } from "../../scorer/src/runs/target.js";
import type { Store } from "../../store/src/client.js";

/** A direct eval of `golden` against `target` (pipeline version "p", recall@1 unless `ks`), every result kept. */
export function evalGolden(golden: GoldenSet, target: Target, judge: Judge, store: Store, o: { concurrency: number; ks?: number[] }): Promise<EvalOutcome> {
  const spec = runSpec({ source: { kind: "golden", set: golden }, target: target.description, pipelineVersion: "p", ks: o.ks ?? [1] });
  return runEval({ spec, target, concurrency: o.concurrency, judge, store });
}
