import { z } from "zod";
import { FEATURE_NAMES, type Features } from "./features.js";
import committed from "./grounding-model.json" with { type: "json" };

// The learned part of the no-LLM grounding judge (design §5): a logistic regression over the
// claim features (features.ts), fitted on public human-labelled data by bench/judges/train.ts,
// which writes grounding-model.json next to this file. Weights, scaling, the threshold and the
// figures they were chosen by all live in that file.

const Finite = z.number().finite();

/** Ways to read an answer's grounding risk from its claims' support probabilities (see the model file's `risk`). */
export const RISK_AGGREGATES = ["min", "noisy_or", "two_weakest"] as const;
export type RiskAggregate = (typeof RISK_AGGREGATES)[number];

/**
 * Grounding risk of an answer from its claims' support probabilities: how likely it holds an
 * unsupported claim, in [0, 1] (0 for no claim). Continuous, so answers with equal grounding still rank.
 */
export function riskOf(aggregate: RiskAggregate, supports: readonly number[]): number {
  if (supports.length === 0) return 0;
  if (aggregate === "noisy_or") return 1 - supports.reduce((a, p) => a * p, 1);
  let p1 = 1;
  let p2 = 1;
  for (const p of supports) {
    if (p < p1) {
      p2 = p1;
      p1 = p;
    } else if (p < p2) p2 = p;
  }
  return aggregate === "min" ? 1 - p1 : 1 - p1 * p2;
}

/** The model file (grounding-model.json). */
const GroundingModelSchema = z
  .object({
    format: z.literal(1),
    /** Feature names, in the order of `mean`, `scale` and `weights`. */
    features: z.array(z.enum(FEATURE_NAMES)).min(1),
    /** Standardisation: x' = (x − mean) / scale. */
    mean: z.array(Finite),
    scale: z.array(Finite.positive()),
    weights: z.array(Finite),
    intercept: Finite,
    /** L2 penalty the weights were fitted with (λ on the standardised features; intercept unpenalised). */
    l2: Finite.nonnegative(),
    /** A claim is SUPPORTED when its probability of being supported is at least this (and every number is in a chunk). */
    threshold: Finite.min(0).max(1),
    /** A claim with a number no chunk gives, or none of its words in any chunk, has its probability multiplied by this (and is never SUPPORTED). */
    rule_penalty: Finite.min(0).max(1),
    /**
     * How the answer's grounding risk is read from its claims' support probabilities p (sorted
     * ascending, p₁ the weakest): `min` 1 − p₁; `noisy_or` 1 − Π pᵢ, the chance that some claim is
     * unsupported if claims were independent; `two_weakest` 1 − p₁·p₂, the same over the two weakest
     * claims (p₂ = 1 for one claim), so a long answer is not flagged for its length alone. train.ts chooses it by cross-validated AUROC; `threshold` flags an
     * answer whose risk is at least it (best cross-validated F1 at the natural rate).
     */
    risk: z.object({ aggregate: z.enum(RISK_AGGREGATES), threshold: Finite.min(0).max(1) }),
    /** sha256 of the training rows (features and labels, 6 decimals): the freshness test recomputes it. */
    training_sha256: z.string().regex(/^[0-9a-f]{64}$/u),
    /** What it was trained on and what it measured there (bench/judges/train.ts writes it). */
    trained_on: z.record(z.string(), z.unknown()),
    figures: z.record(z.string(), z.unknown()),
  })
  .refine((m) => m.mean.length === m.features.length && m.scale.length === m.features.length && m.weights.length === m.features.length, {
    message: "mean, scale and weights must have one entry per feature",
  });
export type GroundingModel = z.infer<typeof GroundingModelSchema>;

/** The model file, validated; `source` names where it came from in the error. */
export function parseGroundingModel(raw: unknown, source: string): GroundingModel {
  const r = GroundingModelSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(`ragmeter: ${source}: grounding model ${i?.path.join(".") || "(root)"}: ${i?.message ?? "invalid"}`);
  }
  return r.data;
}

/** The committed grounding model (core/src/judges/heuristic/grounding-model.json). */
export function committedGroundingModel(): GroundingModel {
  return parseGroundingModel(committed, "core/src/judges/heuristic/grounding-model.json");
}

/** Linear score (log-odds of SUPPORTED) of a feature vector. */
function logit(model: GroundingModel, features: Features): number {
  let z = model.intercept;
  model.features.forEach((name, i) => {
    z += (model.weights[i] as number) * ((features[name] - (model.mean[i] as number)) / (model.scale[i] as number));
  });
  return z;
}

/** Grounding risk of an answer under the model's aggregate (see {@link riskOf}). */
export function groundingRisk(model: GroundingModel, supports: readonly number[]): number {
  return riskOf(model.risk.aggregate, supports);
}

/** Probability that a claim is supported, before the number rule. */
export function supportProbability(model: GroundingModel, features: Features): number {
  return 1 / (1 + Math.exp(-logit(model, features)));
}
