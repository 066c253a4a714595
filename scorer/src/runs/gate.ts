import { qualityDelta } from "@ragmeter/core/domain/metricTable";
import { RagmeterError } from "@ragmeter/runtime";
import type { PairedDelta } from "./paired.js";

/** One gate rule: fail when `metric`'s paired delta is below `threshold` and its interval excludes 0. */
export interface GateRule {
  readonly metric: string;
  /** Largest allowed drop, a number ≤ 0 (e.g. -0.03). */
  readonly threshold: number;
}

/** A `--fail-on` value that cannot be parsed (exit code 2). */
export class GateSyntaxError extends RagmeterError {
  override readonly name = "GateSyntaxError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "usage", cause: options?.cause });
  }
}

const RULE = /^\s*([A-Za-z_][A-Za-z0-9_@]*)\s*<\s*(-?\d+(?:\.\d+)?)\s*$/u;

/**
 * Parses the gate grammar of design §5: comma-separated `metric<number` rules, e.g.
 * `grounding<-0.03,recall@5<-0.05`.
 * @param known metric names accepted.
 * @throws GateSyntaxError naming the rule that is malformed or names an unknown metric.
 */
export function parseGate(spec: string, known: readonly string[]): GateRule[] {
  const rules: GateRule[] = [];
  for (const part of spec.split(",")) {
    if (part.trim().length === 0) continue;
    const m = RULE.exec(part);
    if (!m) throw new GateSyntaxError(`--fail-on: "${part.trim()}" is not of the form metric<number (e.g. grounding<-0.03)`);
    const metric = m[1] as string;
    if (!known.includes(metric)) throw new GateSyntaxError(`--fail-on: unknown metric "${metric}" (known: ${known.join(", ")})`);
    rules.push({ metric, threshold: Number(m[2]) });
  }
  if (rules.length === 0) throw new GateSyntaxError("--fail-on: no rule given");
  return rules;
}

/** Outcome of one gate rule. */
export interface GateResult {
  readonly rule: GateRule;
  readonly failed: boolean;
  readonly why: string;
}

/**
 * Evaluates gate rules against paired deltas: a rule fails when the delta is below its threshold
 * and the bootstrap interval lies entirely below 0 (the drop is larger than allowed and real), and
 * when no question was scored ok in both runs (nothing shows the metric held).
 */
export function evaluateGate(rules: readonly GateRule[], deltas: readonly PairedDelta[]): GateResult[] {
  return rules.map((rule) => {
    const d = deltas.find((x) => x.metric === rule.metric);
    // No paired question means the metric cannot be shown to hold: a gate must not pass on no data.
    if (!d || d.delta === null || d.n === 0) return { rule, failed: true, why: `${rule.metric}: no question scored ok in both runs — cannot show it held` };
    // a metric where lower is better (a risk) regresses upwards: read its delta and interval turned
    const delta = qualityDelta(d.metric, d.delta);
    const worstEnd = d.interval === null ? null : Math.max(qualityDelta(d.metric, d.interval.lower), qualityDelta(d.metric, d.interval.upper));
    const excludesZero = worstEnd !== null && worstEnd < 0;
    const below = delta < rule.threshold;
    const ci = d.interval ? `[${d.interval.lower.toFixed(3)}, ${d.interval.upper.toFixed(3)}]` : "(no interval)";
    const failed = below && excludesZero;
    return { rule, failed, why: `${rule.metric}: delta ${d.delta.toFixed(3)} ${below ? "<" : "≥"} ${rule.threshold}, 95% CI ${ci}${below && !excludesZero ? " includes 0" : ""}` };
  });
}
