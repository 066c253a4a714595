// The replies the LLM judge asks for (sent as `response_format`) and how each is read and checked.
import { z } from "zod";
import type { Verdict } from "../types.js";
import { verdictProblem } from "./checks.js";

const verdictEnum = z.enum(["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"]);

/** One claim of a grounding reply: the claim, a short reasoning, then the verdict and the passages it rests on. */
const claimItemSchema = z.object({
  claim: z.string(),
  reasoning: z.string(),
  verdict: verdictEnum,
  chunk_ids: z.array(z.string()),
});

/** Reply schema of the grounding judge (sent as `response_format`): one object per claim, so verdicts are one to one with claims. */
export const groundingReplySchema = z.object({ claims: z.array(claimItemSchema) });

/** The older two-list shape (`claims` strings + `verdicts`), still read when a model answers with it; one-to-one is checked. */
const legacyGroundingSchema = z.object({
  claims: z.array(z.string()),
  verdicts: z.array(z.object({ verdict: verdictEnum, chunk_ids: z.array(z.string()) })),
});

export type ClaimItem = z.infer<typeof claimItemSchema>;

/** What a grounding or verification reply is read as: one item per claim, or the problem of a legacy reply. */
export const groundingReadSchema = z.union([
  groundingReplySchema.transform((v): ClaimItem[] | string => v.claims),
  legacyGroundingSchema.transform((v): ClaimItem[] | string =>
    v.verdicts.length !== v.claims.length
      ? `${v.verdicts.length} verdicts for ${v.claims.length} claims`
      : v.claims.map((claim, i) => ({ claim, reasoning: "", ...(v.verdicts[i] as { verdict: Verdict; chunk_ids: string[] }) })),
  ),
  z.object({ verdicts: legacyGroundingSchema.shape.verdicts }).transform((v): ClaimItem[] | string => v.verdicts.map((x) => ({ claim: "", reasoning: "", ...x }))),
]);

/** Reply schema of the claim-extraction step (long contexts). */
export const claimsReplySchema = z.object({ claims: z.array(z.string()) });

/** Reply schema of the verification step (long contexts): one object per given claim (as the grounding reply). */
export const verifyReplySchema = z.object({ claims: z.array(claimItemSchema) });

/** Reply schema of the relevance judge: an integer 0–4 in `score` (7 is an error, not a 4). */
export const relevanceReplySchema = z.object({
  score: z.number().int().min(0).max(4),
  reason: z.string(),
});

/** Reply schema of the reference-based judge. */
export const referenceReplySchema = z.object({
  facts: z.array(z.object({ fact: z.string(), stated: z.boolean() })),
});

/**
 * The check of a grounding or verification reply: one verdict per given claim (when the claims were
 * given), and the verdicts' problems verdictProblem finds (./checks.ts) against the passages `ids`.
 */
export function claimsCheck(ids: ReadonlySet<string>, given?: readonly string[]): (v: ClaimItem[] | string) => string | null {
  return (v) => {
    if (typeof v === "string") return v;
    if (given !== undefined && v.length !== given.length) return `${v.length} verdicts for ${given.length} claims`;
    return verdictProblem(
      v.map((c, i) => (given !== undefined && c.claim.trim() === "" ? { ...c, claim: given[i] ?? "" } : c)),
      ids,
    );
  };
}
