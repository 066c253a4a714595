import { JUDGE_TASKS } from "../../domain/judgments.js";
import { JudgeConfigError } from "../errors.js";
import { promptVersion } from "../prompts.js";
import { type Judge, type JudgeRequest, type JudgeTask, type Judgment, judgeOf } from "../types.js";
import { CascadeBudget } from "./budget.js";
import type { CascadeOptions, RiskBand } from "./options.js";

const GROUNDING = JUDGE_TASKS.grounding;

export type { CascadeOptions, CascadeRule, RiskBand } from "./options.js";

/**
 * The grounding risk of an answer the LLM decided, on tier 1's scale: inside the band, ordered by the
 * LLM's lowest claim support (low + (high − low) × (1 − lowest support)), so answers the LLM finds
 * supported rank at the band's bottom and those it doubts at its top; tier 1's risk when a claim has
 * no support probability (an endpoint without log-probabilities).
 */
export function bandRisk(band: RiskBand, llm: Judgment, tier1Risk: number): number {
  const supports = (llm.claims ?? []).map((c) => c.support);
  if (supports.length === 0 || supports.some((s) => s === undefined)) return tier1Risk;
  const lowest = Math.min(...(supports as number[]));
  return band.low + (band.high - band.low) * (1 - lowest);
}

/** What the cascade makes of an answer both tiers judged ok: the judgment it keeps, whose it is, and the answer's risk. */
export interface BothTiers {
  readonly judgment: Judgment;
  readonly tier: "llm" | "heuristic";
  readonly risk: number;
}

/**
 * The cascade's reading of an answer in the band that both tiers judged ok: the stricter one. The
 * answer keeps the judgment (value, claims, reason) of the tier that found less of it supported, the
 * LLM's on a tie, so an answer either tier doubts is doubted: the LLM adds the doubts tier 1 missed
 * and does not clear those tier 1 found (on the RAGTruth development answers it finds fewer
 * unsupported answers than tier 1, more precisely: docs/judges.md). The risk is the mean of tier 1's
 * and the LLM's placement in the band ({@link bandRisk}), so it stays inside the band and both
 * tiers' doubts order the answers there.
 */
export function stricterOf(band: RiskBand, tier1: Judgment & { risk: number }, llm: Judgment): BothTiers {
  const risk = (tier1.risk + bandRisk(band, llm, tier1.risk)) / 2;
  const tier1Stricter = tier1.value !== null && llm.value !== null && tier1.value < llm.value;
  if (!tier1Stricter) return { judgment: llm, tier: "llm", risk };
  const reason = `the LLM found ${((llm.value ?? 0) * 100).toFixed(0)}% of its claims supported; tier 1's stricter reading stands`;
  return { judgment: { ...tier1, reason: tier1.reason === undefined ? reason : `${tier1.reason}; ${reason}` }, tier: "heuristic", risk };
}

/** True when the tier-1 judgment is one the LLM may take over: ok, with a risk inside the band. */
function inBand(band: RiskBand, j: Judgment): j is Judgment & { risk: number } {
  return j.status === "ok" && j.risk !== undefined && j.risk >= band.low && j.risk <= band.high;
}

/** Checks the options against the two tiers. @throws JudgeConfigError naming the setting. */
function checkOptions(tier1: Judge, llm: Judge, options: CascadeOptions): void {
  const { low, high } = options.band;
  if (!(Number.isFinite(low) && Number.isFinite(high) && low >= 0 && high <= 1 && low <= high)) {
    throw new JudgeConfigError(`RAGMETER_CASCADE_BAND: ${low},${high} is not a band 0 ≤ low ≤ high ≤ 1`);
  }
  if (tier1.promptVersion[GROUNDING] === undefined || llm.promptVersion[GROUNDING] === undefined) {
    throw new JudgeConfigError("cascade judge: both tiers must judge grounding");
  }
  for (const task of options.llmTasks) {
    if (llm.promptVersion[task] === undefined) throw new JudgeConfigError(`RAGMETER_CASCADE_LLM_TASKS: the ${llm.kind} judge has no "${task}" task`);
  }
}

/**
 * The cascade judge (issue 40, design §5), kind `cascade`: tier 1 (the no-LLM judge) judges every
 * grounding answer; an answer whose tier-1 grounding risk lies in the uncertain band
 * (`options.band`, bounds included) goes to the LLM judge as well, within the budget of one run
 * ({@link CascadeBudget}: a share of the answers seen and/or a number of answers), and the stricter
 * of the two judgments is the answer's ({@link stricterOf}; `options.rule` "llm": the LLM's, its risk
 * placed in the band by {@link bandRisk}), the LLM's calls counted. When the LLM's
 * judgment is not ok (judge_error, context_too_long, …) tier 1's stands, with the LLM's reason and
 * what its calls cost. Every judgment says which tier decided (`tier`). Other tasks are tier 1's,
 * except `options.llmTasks`, which are the LLM's alone. Metered (it calls a model); its model is
 * the LLM's (prices, self-preference), its prompt versions hash both tiers' and the options.
 * @throws JudgeConfigError for a band outside [0, 1] or a task the LLM judge does not have.
 */
export function createCascadeJudge(tier1: Judge, llm: Judge, options: CascadeOptions): Judge {
  checkOptions(tier1, llm, options);
  const { band } = options;
  const budget = new CascadeBudget(options);
  const grounding: JudgeTask = async (request: JudgeRequest) => {
    const h = await tier1.judge(GROUNDING, request);
    budget.seen();
    if (!inBand(band, h)) return { ...h, tier: "heuristic" };
    const why = budget.take();
    if (why !== null) return { ...h, tier: "heuristic", reason: `risk ${h.risk.toFixed(3)} in the band, not sent: ${why}` };
    const l = await llm.judge(GROUNDING, request);
    const latency_ms = h.latency_ms + l.latency_ms;
    const cost = { input_tokens: l.input_tokens, output_tokens: l.output_tokens, calls: l.calls ?? 0 };
    if (l.status === "ok") {
      const both = options.rule === "stricter" ? stricterOf(band, h, l) : { judgment: l, tier: "llm" as const, risk: bandRisk(band, l, h.risk) };
      return { ...both.judgment, ...cost, risk: both.risk, tier: both.tier, latency_ms };
    }
    return { ...h, ...cost, latency_ms, tier: "heuristic", reason: `the LLM tier gave ${l.status}${l.reason === undefined ? "" : ` (${l.reason})`}; tier 1 decided` };
  };
  const version = (task: string, ...parts: readonly unknown[]): string => promptVersion(JSON.stringify(["cascade v1", task, ...parts]));
  const tasks: Record<string, { version: string; run: JudgeTask }> = {};
  for (const task of Object.keys(tier1.promptVersion)) {
    if (task === GROUNDING || options.llmTasks.includes(task)) continue;
    tasks[task] = { version: version(task, "heuristic", tier1.promptVersion[task]), run: async (r) => ({ ...(await tier1.judge(task, r)), tier: "heuristic" }) };
  }
  for (const task of options.llmTasks) {
    if (task === GROUNDING) continue;
    tasks[task] = { version: version(task, "llm", llm.promptVersion[task]), run: async (r) => ({ ...(await llm.judge(task, r)), tier: "llm" }) };
  }
  tasks[GROUNDING] = {
    version: version(
      GROUNDING,
      ...(options.rule === "stricter" ? ["stricter of both tiers"] : []),
      tier1.promptVersion[GROUNDING],
      llm.promptVersion[GROUNDING],
      band,
      options.maxShare,
      options.maxAnswers,
    ),
    run: grounding,
  };
  return judgeOf({ kind: "cascade", model: llm.model, metered: true }, tasks);
}
