// The LLM judge's grounding of a context longer than its window (design §5).
import type { Status } from "../../domain/status.js";
import { CLAIMS_PROMPT, claimsUserMessage, VERIFY_PROMPT, verifyUserMessage } from "../prompts.js";
import type { ClaimVerdict, GroundingInput, JudgeChunk, Verdict } from "../types.js";
import { promptTokens, TOKENIZER_MARGIN } from "./bounds.js";
import { isPlaceholder } from "./checks.js";
import { type ClaimItem, claimsCheck, claimsReplySchema, groundingReadSchema, verifyReplySchema } from "./replySchemas.js";
import { splitByTokens } from "./tokens.js";
import type { Failure, JudgeTransport, Tally } from "./transport.js";

/**
 * Packs chunks (rank order) into parts whose verification message fits the window (measured on
 * the real message, with the reply's bound); a chunk too long for a part of its own is split by tokens.
 * @returns null when the claims with an empty part already exceed the window.
 */
function contextParts(transport: JudgeTransport, question: string, claims: readonly string[], chunks: readonly JudgeChunk[]): JudgeChunk[][] | null {
  const window = transport.window();
  const bounds = transport.bounds;
  const reserve = bounds.verify(claims);
  const size = (part: readonly JudgeChunk[]) => promptTokens(VERIFY_PROMPT, verifyUserMessage(question, claims, part)) + reserve;
  if (size([]) > window) return null;
  const out: JudgeChunk[][] = [];
  let cur: JudgeChunk[] = [];
  for (const c of chunks) {
    let pieces: JudgeChunk[] = [c];
    if (size([c]) > window) {
      // the room in o200k tokens, less the margin; 4 more: a piece cut at a token boundary can re-encode slightly longer
      const room = Math.floor((window - size([{ id: c.id, text: "" }])) / (1 + TOKENIZER_MARGIN)) - 4;
      if (room < 1) return null;
      pieces = splitByTokens(c.text, room).map((text) => ({ id: c.id, text }));
    }
    for (const p of pieces) {
      if (cur.length > 0 && size([...cur, p]) > window) {
        out.push(cur);
        cur = [];
      }
      cur.push(p);
    }
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/**
 * Grounding of a context over the window: claims extracted from the answer, then verified against each
 * part of the passages ({@link contextParts}); SUPPORTED in any part wins, else CONTRADICTED in any
 * part, else UNSUPPORTED. `context_too_long` when even the claims with one passage cannot fit.
 */
export async function longGrounding(
  transport: JudgeTransport,
  input: GroundingInput,
  chunks: readonly JudgeChunk[],
  ids: ReadonlySet<string>,
  tally: Tally,
): Promise<{ status: Status; claims: ClaimVerdict[]; reason?: string }> {
  const { bounds, call, fits } = transport;
  const user = claimsUserMessage(input.question, input.answer);
  const tooLong = (what: string) => ({ status: "context_too_long" as const, claims: [], reason: `${what} exceed the judge window of ${transport.window()} tokens` });
  if (!fits(CLAIMS_PROMPT, user, bounds.claims(input.answer))) return tooLong("question and answer alone");
  const extracted = await call(CLAIMS_PROMPT, user, "claims", claimsReplySchema, claimsReplySchema, bounds.claims(input.answer), tally, (v) => {
    const i = v.claims.findIndex((c) => isPlaceholder(c));
    return i < 0 ? null : `placeholder claim ${i + 1}: ${JSON.stringify(v.claims[i])}`;
  });
  if (!extracted.ok) return extracted.context ? tooLong("question and answer alone") : { status: "judge_error", claims: [], reason: extracted.reason };
  const claims = extracted.value.claims;
  if (claims.length === 0) return { status: "no_claims", claims: [], reason: "the answer makes no factual claim" };
  const split = contextParts(transport, input.question, claims, chunks);
  if (split === null) return tooLong("the claims with one passage");
  const results = await Promise.all(
    split.map((part) =>
      call(
        VERIFY_PROMPT,
        verifyUserMessage(input.question, claims, part),
        "verify",
        verifyReplySchema,
        groundingReadSchema,
        bounds.verify(claims),
        tally,
        claimsCheck(ids, claims),
      ),
    ),
  );
  const failed = results.find((r): r is Failure => !r.ok);
  if (failed)
    return failed.context ? tooLong("the claims with one part of the passages") : { status: "judge_error", claims: [], reason: `verification of a context part: ${failed.reason}` };
  const verdicts = results.map((r) => (r.ok && typeof r.value !== "string" ? r.value : []));
  const combined = claims.map((text, index): ClaimVerdict => {
    const per = verdicts.map((v) => v[index] as ClaimItem);
    const verdict: Verdict = per.some((v) => v.verdict === "SUPPORTED") ? "SUPPORTED" : per.some((v) => v.verdict === "CONTRADICTED") ? "CONTRADICTED" : "UNSUPPORTED";
    const cited = [...new Set(per.filter((v) => v.verdict === verdict).flatMap((v) => v.chunk_ids))];
    return { index, text, verdict, chunk_ids: verdict === "UNSUPPORTED" ? [] : cited };
  });
  return { status: "ok", claims: combined, reason: `context over the window: claims verified against ${split.length} parts` };
}
