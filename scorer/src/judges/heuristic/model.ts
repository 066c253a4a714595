import { z } from "zod";
import { FEATURE_NAMES, type Features } from "./features.js";
import committed from "./grounding-model.json" with { type: "json" };

// The learned part of the no-LLM grounding judge (design §5): a logistic regression over the
// claim features (features.ts), fitted on public human-labelled data by bench/judges/train.ts,
// which writes grounding-model.json next to this file. Weights, scaling, the threshold and the
// figures they were chosen by all live in that file.

const Finite = z.number().finite();

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

/** The committed grounding model (scorer/src/judges/heuristic/grounding-model.json). */
export function committedGroundingModel(): GroundingModel {
  return parseGroundingModel(committed, "scorer/src/judges/heuristic/grounding-model.json");
}

/** Linear score (log-odds of SUPPORTED) of a feature vector. */
function logit(model: GroundingModel, features: Features): number {
  let z = model.intercept;
  model.features.forEach((name, i) => {
    z += (model.weights[i] as number) * ((features[name] - (model.mean[i] as number)) / (model.scale[i] as number));
  });
  return z;
}

/** Probability that a claim is supported, before the number rule. */
export function supportProbability(model: GroundingModel, features: Features): number {
  return 1 / (1 + Math.exp(-logit(model, features)));
}
