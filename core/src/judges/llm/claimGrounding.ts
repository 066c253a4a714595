// The LLM judge's grounding, claim by claim (issue 40; design §5): ragmeter splits the answer into
// claims itself (the no-LLM judge's splitter, ../heuristic/claims.ts), checks that they cover the
// answer's sentences, and asks the model for one verdict per claim against the passages.
import type { Status } from "../../domain/status.js";
import { claimSpans } from "../heuristic/claims.js";
import { CLAIM_VERDICT_PROMPT, claimVerdictUserMessage } from "../prompts.js";
import type { ClaimVerdict, JudgeChunk, Verdict } from "../types.js";
import { promptTokens, TOKENIZER_MARGIN } from "./bounds.js";
import { type VerdictItem, verdictsCheck, verdictsReadSchema, verdictsReplySchema } from "./replySchemas.js";
import { splitByTokens } from "./tokens.js";
import type { Failure, JudgeTransport, Tally } from "./transport.js";
import { verdictSupports } from "./verdictSupport.js";

/** Claims sent in one call at most: a short reply, and a small model keeps count. */
const CLAIMS_PER_CALL = 8;

const SENTENCES = new Intl.Segmenter(undefined, { granularity: "sentence" });
const HAS_WORD = /[\p{L}\p{N}]/u;

/**
 * The sentences of `answer` that no claim covers: a sentence with a letter or digit that overlaps no
 * claim span, unless the splitter finds no claim in it alone (a greeting, a header, "I don't know").
 * Empty when the claims cover the answer.
 */
export function uncoveredSentences(answer: string, spans: readonly { start: number; end: number }[]): string[] {
  const text = answer.normalize("NFC");
  const out: string[] = [];
  for (const s of SENTENCES.segment(text)) {
    const start = s.index;
    const end = s.index + s.segment.length;
    if (!HAS_WORD.test(s.segment)) continue;
    if (spans.some((c) => c.start < end && c.end > start)) continue;
    if (claimSpans(s.segment).length === 0) continue;
    out.push(s.segment.replace(/\s+/gu, " ").trim());
  }
  return out;
}

/**
 * Packs chunks (rank order) into parts whose call for `claims` fits the window (measured on the real
 * message, with the reply's bound); a chunk too long for a part of its own is split by tokens.
 * @returns null when the claims with an empty part already exceed the window.
 */
function contextParts(transport: JudgeTransport, question: string, claims: readonly string[], chunks: readonly JudgeChunk[]): JudgeChunk[][] | null {
  const window = transport.window();
  const reserve = transport.bounds.verdicts(
    claims.length,
    chunks.map((c) => c.id),
  );
  const size = (part: readonly JudgeChunk[]) => promptTokens(CLAIM_VERDICT_PROMPT, claimVerdictUserMessage(question, claims, part)) + reserve;
  if (size([]) > window) return null;
  if (size(chunks) <= window) return [[...chunks]];
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
 * SUPPORTED in any part wins, else CONTRADICTED in any part, else UNSUPPORTED; the cited passages of
 * the winning verdict; the support probability the highest of the parts' (absent when a part has none).
 */
function combine(per: readonly VerdictItem[]): { verdict: Verdict; chunk_ids: string[]; support?: number } {
  const verdict: Verdict = per.some((v) => v.verdict === "SUPPORTED") ? "SUPPORTED" : per.some((v) => v.verdict === "CONTRADICTED") ? "CONTRADICTED" : "UNSUPPORTED";
  const supports = per.map((v) => v.support);
  const support = supports.length > 0 && supports.every((s) => s !== undefined) ? Math.max(...(supports as number[])) : undefined;
  return {
    verdict,
    chunk_ids: verdict === "UNSUPPORTED" ? [] : [...new Set(per.filter((v) => v.verdict === verdict).flatMap((v) => v.chunk_ids))],
    ...(support !== undefined ? { support } : {}),
  };
}

/** What {@link claimGrounding} decides: a status, the claims with their verdicts, and a reason when there is one. */
export interface ClaimGroundingResult {
  readonly status: Status;
  readonly claims: ClaimVerdict[];
  readonly reason?: string;
}

/**
 * Grounding claim by claim: the splitter's claims (none → `no_claims`; sentences left uncovered →
 * `judge_error` naming them), in calls of at most {@link CLAIMS_PER_CALL} claims, each against the
 * passages or, when they do not fit the window, against each part of them (combined as
 * {@link combine}); no passages → every claim UNSUPPORTED without a call; even one claim with an empty
 * part over the window → `context_too_long`.
 */
export async function claimGrounding(transport: JudgeTransport, question: string, answer: string, chunks: readonly JudgeChunk[], tally: Tally): Promise<ClaimGroundingResult> {
  const spans = claimSpans(answer);
  if (spans.length === 0) return { status: "no_claims", claims: [], reason: "the answer makes no factual claim" };
  const uncovered = uncoveredSentences(answer, spans);
  if (uncovered.length > 0)
    return {
      status: "judge_error",
      claims: [],
      reason: `the claims do not cover the answer: ${uncovered.length} sentence(s) left out, the first: ${JSON.stringify(uncovered[0])}`,
    };
  const texts = spans.map((s) => s.text);
  if (chunks.length === 0) return { status: "ok", claims: texts.map((text, index) => ({ index, text, verdict: "UNSUPPORTED", chunk_ids: [] })) };
  const verdicts: VerdictItem[][] = texts.map(() => []);
  let split = 1;
  for (let from = 0; from < texts.length; from += CLAIMS_PER_CALL) {
    const batch = texts.slice(from, from + CLAIMS_PER_CALL);
    const outcome = await judgeBatch(transport, question, batch, chunks, tally);
    if ("failed" in outcome) return batchFailure(outcome.failed, from, batch.length, texts.length);
    split = Math.max(split, outcome.parts);
    placeVerdicts(outcome.results, verdicts, from);
  }
  const claims = texts.map((text, index): ClaimVerdict => ({ index, text, ...combine(verdicts[index] ?? []) }));
  return { status: "ok", claims, ...(split > 1 ? { reason: `context over the window: claims verified against ${split} parts` } : {}) };
}

/** The replies of one call per part of the passages. */
type PartReplies = Awaited<ReturnType<typeof callParts>>;

/**
 * One batch of claims against the passages, in as many parts as the window needs: the replies and
 * the number of parts, or the failure (the passages do not fit even one by one, or a call failed).
 * A context-size 400 shrinks the transport's window: the parts are packed again once.
 */
async function judgeBatch(
  transport: JudgeTransport,
  question: string,
  batch: readonly string[],
  chunks: readonly JudgeChunk[],
  tally: Tally,
): Promise<{ results: PartReplies; parts: number } | { failed: { context: boolean; reason: string } }> {
  const ids = chunks.map((c) => c.id);
  const bound = transport.bounds.verdicts(batch.length, ids);
  let parts: JudgeChunk[][] | null = null;
  let results: PartReplies = [];
  for (let pass = 0; pass < 2; pass++) {
    parts = contextParts(transport, question, batch, chunks);
    if (parts === null) return { failed: { context: true, reason: `${batch.length} claim(s) with one passage exceed the judge window of ${transport.window()} tokens` } };
    results = await callParts(transport, question, batch, parts, bound, new Set(ids), tally);
    if (!results.some((r) => !r.ok && r.context)) break;
  }
  const failed = results.find((r): r is Failure => !r.ok);
  if (failed) return { failed: { context: failed.context === true, reason: failed.reason } };
  return { results, parts: parts?.length ?? 1 };
}

/** The result of a failed batch: `context_too_long`, or `judge_error` naming the batch's claims when there are several batches. */
function batchFailure(failed: { context: boolean; reason: string }, from: number, size: number, total: number): ClaimGroundingResult {
  if (failed.context) return { status: "context_too_long", claims: [], reason: failed.reason };
  const which = total > CLAIMS_PER_CALL ? `claims ${from + 1}–${from + size} of ${total}: ` : "";
  return { status: "judge_error", claims: [], reason: `${which}${failed.reason}` };
}

/**
 * Adds each reply's verdicts to their claims' lists (the batch starts at claim `from`), with the
 * support probability of each verdict where the endpoint gave log-probabilities for all of them.
 */
function placeVerdicts(results: PartReplies, verdicts: VerdictItem[][], from: number): void {
  for (const r of results) {
    if (!r.ok || typeof r.value === "string") continue;
    const supports = r.logprobs === null ? [] : verdictSupports(r.content, r.logprobs);
    const placed = supports.length === r.value.length && supports.every((s) => s !== null);
    for (const [i, v] of r.value.entries()) verdicts[from + i]?.push(placed ? { ...v, support: supports[i] as number } : v);
  }
}

/** One call per part of the passages for one batch of claims. */
function callParts(transport: JudgeTransport, question: string, batch: readonly string[], parts: readonly JudgeChunk[][], bound: number, idSet: ReadonlySet<string>, tally: Tally) {
  return Promise.all(
    parts.map((part) =>
      transport.call(
        CLAIM_VERDICT_PROMPT,
        claimVerdictUserMessage(question, batch, part),
        "claim_verdicts",
        verdictsReplySchema(batch.length, [...new Set(part.map((c) => c.id))]),
        verdictsReadSchema,
        bound,
        tally,
        verdictsCheck(batch.length, idSet),
        { logprobs: true },
      ),
    ),
  );
}
