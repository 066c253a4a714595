import type { z } from "zod";
import { jsonCandidates } from "./parse.js";

/** A reply read: the value, or why it cannot be used. */
export type ReadReply<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The issue to report: for a union (two reply shapes), the first issue of the shape with the fewest. */
function closestIssue(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue | undefined {
  const first = issues[0];
  if (first?.code !== "invalid_union" || first.errors.length === 0) return first;
  const best = [...first.errors].sort((a, b) => a.length - b.length)[0];
  return best?.[0] ?? first;
}

/** One JSON value read as a reply: its value, or why it is not a valid reply. */
function problemOf<T>(json: unknown, read: z.ZodType<T>, check: ((v: T) => string | null) | undefined): { value: T } | { problem: string } {
  const parsed = read.safeParse(json);
  if (!parsed.success) {
    const i = closestIssue(parsed.error.issues);
    return { problem: `reply field "${i?.path.join(".") ?? ""}": ${i?.message ?? "invalid"}` };
  }
  const problem = check?.(parsed.data) ?? null;
  return problem === null ? { value: parsed.data } : { problem };
}

/**
 * Reads a judge reply (design §5): of its JSON values ({@link jsonCandidates}, in reply order), the
 * last one that validates against `read` and passes `check` (a model's final block follows its draft).
 * @returns the value; or the problem of the reply's last value, saying how many there were when several.
 */
export function readReply<T>(content: string, read: z.ZodType<T>, check?: (v: T) => string | null): ReadReply<T> {
  const candidates = jsonCandidates(content);
  let last: string | null = null;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const r = problemOf(candidates[i], read, check);
    if ("value" in r) return { ok: true, value: r.value };
    last ??= r.problem;
  }
  if (last === null) return { ok: false, reason: "reply is not JSON" };
  return { ok: false, reason: candidates.length === 1 ? last : `none of ${candidates.length} JSON blocks is valid; the last: ${last}` };
}
