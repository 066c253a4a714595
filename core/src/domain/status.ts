/**
 * The one list of score statuses (design §5). Every status but `ok` has a null value; such items are
 * counted and listed, never averaged in as 0.
 */
const STATUSES = [
  "ok",
  "no_claims",
  "judge_error",
  "context_too_long",
  "context_incomplete",
  "content_missing",
  "uncertain_reading",
  "target_error",
  "trace_timeout",
  "not_sampled",
  "budget_exhausted",
  "not_applicable",
  "empty_golden_set",
] as const;

/** A score status. */
export type Status = (typeof STATUSES)[number];

/** A metric value with its status: `value` is a number exactly when `status` is `ok`. */
export type Scored =
  | { readonly status: "ok"; readonly value: number; readonly reason?: string }
  | { readonly status: Exclude<Status, "ok">; readonly value: null; readonly reason?: string };

/** A successful score. */
export function ok(value: number): Scored {
  return { status: "ok", value };
}

/** A score without a value. */
export function none(status: Exclude<Status, "ok">, reason?: string): Scored {
  return reason === undefined ? { status, value: null } : { status, value: null, reason };
}
