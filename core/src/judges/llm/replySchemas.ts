// The replies the LLM judge asks for (sent as `response_format`) and how each is read and checked.
import { z } from "zod";
import type { Verdict } from "../types.js";
import { MAX_CITED } from "./bounds.js";

const verdictEnum = z.enum(["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"]);

/** One claim of a grounding reply: the claim, a short reasoning, then the verdict and the passages it rests on. */
const claimItemSchema = z.object({
  claim: z.string(),
  reasoning: z.string(),
  verdict: verdictEnum,
  chunk_ids: z.array(z.string()),
});

/** Reply schema of the grounding judge (sent as `response_format`): one object per claim, so verdicts are one to one with claims. */
const groundingReplySchema = z.object({ claims: z.array(claimItemSchema) });

/** The older two-list shape (`claims` strings + `verdicts`), still read when a model answers with it; one-to-one is checked. */
const legacyGroundingSchema = z.object({
  claims: z.array(z.string()),
  verdicts: z.array(z.object({ verdict: verdictEnum, chunk_ids: z.array(z.string()) })),
});

type ClaimItem = z.infer<typeof claimItemSchema>;

/** What a grounding or verification reply is read as: one item per claim, or the problem of a legacy reply. */
const groundingReadSchema = z.union([
  groundingReplySchema.transform((v): ClaimItem[] | string => v.claims),
  legacyGroundingSchema.transform((v): ClaimItem[] | string =>
    v.verdicts.length !== v.claims.length
      ? `${v.verdicts.length} verdicts for ${v.claims.length} claims`
      : v.claims.map((claim, i) => ({ claim, reasoning: "", ...(v.verdicts[i] as { verdict: Verdict; chunk_ids: string[] }) })),
  ),
  z.object({ verdicts: legacyGroundingSchema.shape.verdicts }).transform((v): ClaimItem[] | string => v.verdicts.map((x) => ({ claim: "", reasoning: "", ...x }))),
]);

/** One verdict of a claim-verdicts reply: the verdict first, then the passages it rests on (at most {@link MAX_CITED}). */
const verdictItem = (ids: readonly string[]) =>
  z.object({ verdict: verdictEnum, chunk_ids: z.array(ids.length > 0 ? z.enum(ids as [string, ...string[]]) : z.string()).max(MAX_CITED) });

/**
 * Reply schema of the claim verdicts (sent as `response_format`): exactly `n` verdicts, chunk ids
 * only among the passages `ids`, so a server that constrains replies to the schema cannot answer otherwise.
 */
export function verdictsReplySchema(n: number, ids: readonly string[]) {
  return z.object({ verdicts: z.array(verdictItem(ids)).length(n) });
}

/** A verdict as read: the verdict and its passages. */
export type VerdictItem = { verdict: Verdict; chunk_ids: string[]; support?: number };

/**
 * How a claim-verdicts reply is read: `{"verdicts": [...]}` (the schema), or the older grounding
 * shapes (one object per claim, or `claims` + `verdicts` lists) a model may still answer with.
 */
export const verdictsReadSchema = z.union([
  z.object({ verdicts: z.array(z.object({ verdict: verdictEnum, chunk_ids: z.array(z.string()) })) }).transform((v): VerdictItem[] | string => v.verdicts),
  groundingReadSchema.transform((v): VerdictItem[] | string => (typeof v === "string" ? v : v.map((c) => ({ verdict: c.verdict, chunk_ids: c.chunk_ids })))),
]);

/** The check of a claim-verdicts reply: one verdict per claim sent, chunk ids only among the passages `ids`. */
export function verdictsCheck(n: number, ids: ReadonlySet<string>): (v: VerdictItem[] | string) => string | null {
  return (v) => {
    if (typeof v === "string") return v;
    if (v.length !== n) return `${v.length} verdicts for ${n} claims`;
    for (const [i, c] of v.entries()) {
      const bad = c.chunk_ids.find((id) => !ids.has(id));
      if (bad !== undefined) return `claim ${i + 1} cites chunk ${JSON.stringify(bad)}, not among the passages`;
    }
    return null;
  };
}

/** Reply schema of the relevance judge: an integer 0–4 in `score` (7 is an error, not a 4). */
export const relevanceReplySchema = z.object({
  score: z.number().int().min(0).max(4),
  reason: z.string(),
});

/** Reply schema of the reference-based judge. */
export const referenceReplySchema = z.object({
  facts: z.array(z.object({ fact: z.string(), stated: z.boolean() })),
});
