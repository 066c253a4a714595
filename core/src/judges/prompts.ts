import { createHash } from "node:crypto";

/** Short hash (12 hex digits of SHA-256) of a prompt text: the prompt version stored on every score. */
export function promptVersion(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}

/**
 * System prompt of the grounding judge (issue 40): ragmeter splits the answer into claims itself (the
 * no-LLM judge's splitter) and asks for one verdict per given claim against the passages, verdict
 * first, no reasoning: a short reply a small model can give.
 */
export const CLAIM_VERDICT_PROMPT = `You check numbered CLAIMS, taken from an answer, against retrieved context PASSAGES.
For each claim, in the given order, give exactly one verdict:
- SUPPORTED: a passage states it (same meaning, any wording).
- CONTRADICTED: a passage states something incompatible with it (for example a different number, name or date).
- UNSUPPORTED: no passage states it, even if it may be true.
and the ids of the passages the verdict rests on (none for UNSUPPORTED).
Judge only against the passages, never against your own knowledge. The QUESTION only helps to read the claims.
Reply with JSON only, one object per claim, no explanation: {"verdicts": [{"verdict": "SUPPORTED|CONTRADICTED|UNSUPPORTED", "chunk_ids": ["<passage id>"]}]}.`;

/** User message of the claim verdicts: the passages first (a server's prompt cache keeps them across calls), the question, the numbered claims. */
export function claimVerdictUserMessage(question: string, claims: readonly string[], chunks: readonly { id: string; text: string }[]): string {
  const passages = chunks.length === 0 ? "(no passages)" : chunks.map((c) => `<passage id="${c.id}">\n${c.text}\n</passage>`).join("\n");
  return `PASSAGES:\n${passages}\n\nQUESTION:\n${question}\n\nCLAIMS (${claims.length}):\n${claims.map((c, i) => `${i + 1}. ${c}`).join("\n")}`;
}

/** System prompt of the relevance judge. */
export const RELEVANCE_PROMPT = `You rate whether an ANSWER addresses the QUESTION that was asked, regardless of whether it is true.
Score on this integer scale:
4 = fully addresses the question; 3 = mostly addresses it, minor gaps; 2 = partly addresses it; 1 = barely related, or declines to answer; 0 = unrelated or empty.
Reply with JSON only: {"score": <integer 0-4>, "reason": "<one sentence>"}.`;

/** User message of the relevance judge. */
export function relevanceUserMessage(question: string, answer: string): string {
  return `QUESTION:\n${question}\n\nANSWER:\n${answer}`;
}

/** System prompt of the reference-based judge. */
export const REFERENCE_PROMPT = `You compare an ANSWER with a REFERENCE answer written by a person.
1. Split the REFERENCE into atomic facts: short, self-contained statements of one fact each.
2. For each fact, in order, say whether the ANSWER states it (same meaning, any wording or language): true or false.
Judge only by what the ANSWER says, never by your own knowledge.
Reply with JSON only: {"facts": [{"fact": "...", "stated": true}]}.`;

/** User message of the reference-based judge. */
export function referenceUserMessage(question: string, answer: string, reference: string): string {
  return `QUESTION:\n${question}\n\nREFERENCE:\n${reference}\n\nANSWER:\n${answer}`;
}
