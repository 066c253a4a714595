/**
 * The fields of a stored interaction that most store tests leave at their "nothing measured" values:
 * no generator model, no token counts, no abstention reading, no latency, status ok without a reason.
 * Spread into an interaction row beside the fields a test sets.
 */
export const UNMEASURED_INTERACTION = {
  generator_model: null,
  input_tokens: null,
  output_tokens: null,
  abstained: null,
  status: "ok",
  reason: "",
  latency_ms: null,
} as const;
