import type { JudgedMetric } from "../metric.js";
import { GROUNDING } from "./judged.js";

/**
 * `grounding_risk`: how likely the answer holds an unsupported claim, in [0, 1], from its claims'
 * support probabilities (the no-LLM judge's learned model, or an LLM judge's verdict log-probabilities):
 * continuous, so it ranks answers that grounding (a share of few claims) ties. Read from the grounding
 * judgment (no call of its own); lower is better.
 */
export const GROUNDING_RISK: JudgedMetric = {
  name: "grounding_risk",
  kind: "judged",
  task: GROUNDING.task,
  needs: GROUNDING.needs,
  live: true,
  optional: false,
  lowerIsBetter: true,
  alerted: true,
  label: "ground. risk",
  headline: false,
  byTag: true,
  trend: true,
  color: "#d62728",
  request: GROUNDING.request,
  view: (g) =>
    g.status !== "ok"
      ? { status: g.status, value: null, reason: g.reason }
      : g.risk === undefined
        ? { status: "not_applicable", value: null, reason: "the judge gave no support probability for every claim (an endpoint without log-probabilities)" }
        : { status: "ok", value: g.risk, reason: "" },
};
