import { JUDGE_TASKS } from "../judgments.js";
import type { JudgedMetric } from "../metric.js";

/**
 * Grounding: the share of the answer's claims a judge finds SUPPORTED by the retrieved chunks
 * (design §5); its claims are stored in `claims`.
 */
export const GROUNDING: JudgedMetric = {
  name: JUDGE_TASKS.grounding,
  kind: "judged",
  task: JUDGE_TASKS.grounding,
  needs: ["question", "answer", "chunks"],
  live: true,
  optional: false,
  headline: true,
  byTag: true,
  trend: true,
  color: "#2ca02c",
  alerted: true,
  claims: true,
  evaluationLabel: (value, verdicts) => (verdicts.includes("CONTRADICTED") ? "contradicted" : value === 1 ? "supported" : "unsupported"),
  request: (i) => ({ question: i.question, answer: i.answer, chunks: i.chunks }),
};

/** Relevance: whether the answer addresses the question, 0–4. */
export const RELEVANCE: JudgedMetric = {
  name: JUDGE_TASKS.relevance,
  kind: "judged",
  task: JUDGE_TASKS.relevance,
  needs: ["question", "answer"],
  live: true,
  optional: false,
  max: 4,
  headline: true,
  byTag: true,
  trend: true,
  color: "#ff7f0e",
  alerted: true,
  request: (i) => ({ question: i.question, answer: i.answer, answerable: i.answerable }),
};

/** Reference facts: the share of the reference answer's facts the answer states (a reference-based judge: LLM only). */
export const REFERENCE_FACTS: JudgedMetric = {
  name: JUDGE_TASKS.referenceFacts,
  kind: "judged",
  task: JUDGE_TASKS.referenceFacts,
  needs: ["reference", "question", "answer"],
  live: false,
  optional: true,
  label: "ref. facts",
  headline: false,
  byTag: false,
  trend: false,
  request: (i) => ({ question: i.question, answer: i.answer, reference: i.expect?.reference_answer ?? "" }),
};
