// Options of the cascade judge (createCascadeJudge, ./cascadeJudge.ts).

/** The uncertain band of tier 1's grounding risk: answers with low ≤ risk ≤ high go to the LLM as well. */
export interface RiskBand {
  readonly low: number;
  readonly high: number;
}

/** How the cascade reads an answer in the band that both tiers judged ok. */
export type CascadeRule = "stricter" | "llm";

/** Options of {@link createCascadeJudge}. */
export interface CascadeOptions {
  /** `RAGMETER_CASCADE_BAND`: the risk band sent to the LLM. */
  readonly band: RiskBand;
  /**
   * `RAGMETER_CASCADE_MAX_SHARE`: at most this share of the grounding answers the judge has seen go
   * to the LLM (an answer in the band goes while the answers sent so far are fewer than share × the
   * answers seen, this one counted); null = no share limit.
   */
  readonly maxShare: number | null;
  /** `RAGMETER_CASCADE_MAX_ANSWERS`: at most this many answers go to the LLM per judge (per run); null = no limit. */
  readonly maxAnswers: number | null;
  /**
   * `RAGMETER_CASCADE_RULE`: how an answer both tiers judged ok is read: `stricter` (the judgment with
   * the lower grounding, the LLM's on a tie) or `llm` (the LLM's alone).
   */
  readonly rule: CascadeRule;
  /** `RAGMETER_CASCADE_LLM_TASKS`: tasks judged by the LLM alone (e.g. relevance); the others are tier 1's. */
  readonly llmTasks: readonly string[];
}
