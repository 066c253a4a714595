import { createHash } from "node:crypto";

/** Short hash (12 hex digits of SHA-256) of a prompt text: the prompt version stored on every score. */
export function promptVersion(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

/**
 * System prompt of the grounding judge (claim extraction + verdicts in one call). The reply is one
 * object per claim, reasoning before the verdict, so verdicts are one to one with claims by construction.
 */
export const GROUNDING_PROMPT = `You check whether an answer is grounded in retrieved context passages.
1. Split the ANSWER into atomic factual claims: short, self-contained statements of one fact each. Do not include greetings, refusals ("I could not find ..."), or questions. If the answer makes no factual claim, return an empty list.
2. For each claim, in the answer's order, write one short sentence of reasoning (at most 25 words), then exactly one verdict:
   - SUPPORTED: a passage states it.
   - CONTRADICTED: a passage states something incompatible with it (for example a different number).
   - UNSUPPORTED: no passage states it or contradicts it.
   and the ids of the passages the verdict rests on (only ids of the given passages; none for UNSUPPORTED).
Judge only against the passages, never against your own knowledge. Blank passages are no context.
Write each claim and its reasoning in the language of the ANSWER; copy the claim's facts, never write a placeholder.
Reply with JSON only: {"claims": [{"claim": "<the claim>", "reasoning": "<one sentence>", "verdict": "SUPPORTED|CONTRADICTED|UNSUPPORTED", "chunk_ids": ["<passage id>"]}]}.`;

/** System prompt of the relevance judge. */
export const RELEVANCE_PROMPT = `You rate whether an ANSWER addresses the QUESTION that was asked, regardless of whether it is true.
Score on this integer scale:
4 = fully addresses the question; 3 = mostly addresses it, minor gaps; 2 = partly addresses it; 1 = barely related, or declines to answer; 0 = unrelated or empty.
Reply with JSON only: {"score": <integer 0-4>, "reason": "<one sentence>"}.`;

/** User message of the grounding judge. */
export function groundingUserMessage(question: string, answer: string, chunks: readonly { id: string; text: string }[]): string {
  const passages = chunks.length === 0 ? "(no passages)" : chunks.map((c) => `<passage id="${c.id}">\n${c.text}\n</passage>`).join("\n");
  return `QUESTION:\n${question}\n\nPASSAGES:\n${passages}\n\nANSWER:\n${answer}`;
}

/** User message of the relevance judge. */
export function relevanceUserMessage(question: string, answer: string): string {
  return `QUESTION:\n${question}\n\nANSWER:\n${answer}`;
}

/**
 * System prompt of the claim-extraction step, used alone when the context is longer than the
 * judge's window (design §5: claims are extracted once, then verified against parts that fit).
 */
export const CLAIMS_PROMPT = `You split an answer into atomic factual claims: short, self-contained statements of one fact each. Do not include greetings, refusals ("I could not find ..."), or questions. If the answer makes no factual claim, return an empty list.
Write the claims in the language of the ANSWER; copy the facts, never write a placeholder.
Reply with JSON only: {"claims": ["<claim>"]}.`;

/** System prompt of the verification step against one part of a long context (same reply shape as the grounding judge). */
export const VERIFY_PROMPT = `You check given factual claims against retrieved context passages.
For each claim, in the given order, copy the claim, write one short sentence of reasoning (at most 25 words), then exactly one verdict:
- SUPPORTED: a passage states it.
- CONTRADICTED: a passage states something incompatible with it (for example a different number).
- UNSUPPORTED: no passage states it or contradicts it.
and the ids of the passages the verdict rests on (only ids of the given passages; none for UNSUPPORTED).
Judge only against the passages, never against your own knowledge. Blank passages are no context.
Write the reasoning in the language of the claims.
Reply with JSON only: {"claims": [{"claim": "<the claim>", "reasoning": "<one sentence>", "verdict": "SUPPORTED|CONTRADICTED|UNSUPPORTED", "chunk_ids": ["<passage id>"]}]} with one object per claim.`;

/** System prompt of the reference-based judge (`reference_facts`). */
export const REFERENCE_PROMPT = `You compare an ANSWER with a REFERENCE answer written by a person.
1. Split the REFERENCE into atomic facts: short, self-contained statements of one fact each.
2. For each fact, in order, say whether the ANSWER states it (same meaning, any wording or language): true or false.
Judge only by what the ANSWER says, never by your own knowledge.
Reply with JSON only: {"facts": [{"fact": "...", "stated": true}]}.`;

/** User message of the claim-extraction step. */
export function claimsUserMessage(question: string, answer: string): string {
  return `QUESTION:\n${question}\n\nANSWER:\n${answer}`;
}

/** User message of the verification step: the claims (numbered, in order) and one part of the passages. */
export function verifyUserMessage(question: string, claims: readonly string[], chunks: readonly { id: string; text: string }[]): string {
  const passages = chunks.length === 0 ? "(no passages)" : chunks.map((c) => `<passage id="${c.id}">\n${c.text}\n</passage>`).join("\n");
  return `QUESTION:\n${question}\n\nPASSAGES:\n${passages}\n\nCLAIMS:\n${claims.map((c, i) => `${i + 1}. ${c}`).join("\n")}`;
}

/** User message of the reference-based judge. */
export function referenceUserMessage(question: string, answer: string, reference: string): string {
  return `QUESTION:\n${question}\n\nREFERENCE:\n${reference}\n\nANSWER:\n${answer}`;
}
