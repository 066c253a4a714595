import { createHash } from "node:crypto";
import { STOP_WORDS } from "@ragmeter/golden";
import { JUDGE_TASKS } from "../../domain/judgments.js";
import type { TermSet, TextTools } from "../../domain/metric.js";
import { isAbstention } from "../../domain/metrics/abstention.js";
import { JUDGED_METRICS } from "../../domain/metricTable.js";
import {
  type ClaimVerdict,
  type GroundingInput,
  type GroundingJudgment,
  type Judge,
  type JudgeTask,
  judgeOf,
  type RelevanceInput,
  type RelevanceJudgment,
  type Verdict,
} from "../types.js";
import { CLAIM_RULES, type ClaimSpan, claimSpans } from "./claims.js";
import { type Alignment, answerContext, chunkSet, claimFeatures, FEATURE_RULES, NEGATION_COVERAGE, sharedPerSentence, type TokenizedChunk } from "./features.js";
import { committedGroundingModel, type GroundingModel, groundingRisk, supportProbability } from "./model.js";
import { CHUNK_CACHE, type ChunkCacheBound, type ChunkTokens, TOKEN_RULES, type Token, type Tokenized, Tokens } from "./tokens.js";

/** A claim is CONTRADICTED when a chunk covers at least this share of its content tokens and gives a different number. */
const CONTRADICT_COVERAGE = 0.5;
/** Relevance given to an abstention on an answerable question. */
const ABSTENTION_RELEVANCE = 1;
/** Distance (in word segments) within which a number counts as "next to" a claim's neighbouring word. */
const NUMBER_WINDOW = 2;

/** The answer's claims for the heuristic judge, as written (claims.ts: sentences and list items that state something). */
export function heuristicClaims(answer: string, tokens: Tokens = new Tokens()): string[] {
  return statingSpans(answer, tokens).map((c) => c.text);
}

/** The claim spans that state something comparable: a content word or a number ("Yes." alone does not). */
function statingSpans(answer: string, tokens: Tokens): ClaimSpan[] {
  return claimSpans(answer).filter((s) => {
    const t = tokens.text(s.core);
    return t.content.size > 0 || t.numbers.size > 0;
  });
}

function coverage(claim: Tokenized, chunk: { readonly content: TermSet }): number {
  if (claim.content.size === 0) return 1;
  let n = 0;
  for (const t of claim.content) if (chunk.content.has(t)) n++;
  return n / claim.content.size;
}

/**
 * True when the chunk gives a different number in the place of one of the claim's numbers: for a
 * claim number the chunk lacks, a content word next to it in the claim appears in the chunk with
 * another number within {@link NUMBER_WINDOW} segments ("port 5433" against "port 5432").
 */
function givesDifferentNumber(claim: Tokenized, chunk: ChunkTokens): boolean {
  const segs = claim.segments;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i] as Token;
    if (!s.isNumber || chunk.numbers.has(s.text)) continue;
    if (chunk.otherNumberNextTo(neighbourWords(segs, i), s.text, NUMBER_WINDOW)) return true;
  }
  return false;
}

/** The content words within {@link NUMBER_WINDOW} segments of segment i (not numbers, not stop words). */
function neighbourWords(segs: readonly Token[], i: number): Set<string> {
  const neighbours = new Set<string>();
  for (let j = Math.max(0, i - NUMBER_WINDOW); j <= Math.min(segs.length - 1, i + NUMBER_WINDOW); j++) {
    const n = segs[j] as Token;
    if (!n.isNumber && !n.stop) neighbours.add(n.text);
  }
  return neighbours;
}

/** The chunk that contradicts a claim (a different number in its place, or the opposite polarity of a sentence saying the rest), or null. */
function contradiction(claim: Tokenized, chunks: readonly TokenizedChunk[]): string | null {
  return numberContradiction(claim, chunks) ?? polarityContradiction(claim, chunks);
}

/** The chunk that covers the claim and gives a different number in the place of one of its numbers, or null. */
function numberContradiction(claim: Tokenized, chunks: readonly TokenizedChunk[]): string | null {
  if (claim.numbers.size === 0) return null;
  for (const c of chunks) if (coverage(claim, c.t) >= CONTRADICT_COVERAGE && givesDifferentNumber(claim, c.t)) return c.id;
  return null;
}

/** The chunk with a sentence saying the claim (two content words or more) with the opposite polarity, or null. */
function polarityContradiction(claim: Tokenized, chunks: readonly TokenizedChunk[]): string | null {
  if (claim.content.size < 2) return null;
  for (const c of chunks) {
    for (const [i, n] of sharedPerSentence(claim, c)) if (c.t.sentenceNegated(i) !== claim.negated && n / claim.content.size >= NEGATION_COVERAGE) return c.id;
  }
  return null;
}

/** Chunks tokenized once per answer (blank chunks are no context). */
function tokenizeChunks(chunks: readonly { id: string; text: string }[], tokens: Tokens): TokenizedChunk[] {
  return chunks.filter((c) => c.text.trim().length > 0).map((c) => ({ id: c.id, t: tokens.chunk(c.text) }));
}

/** A claim's verdict with its probability of being supported (after the number rule). */
interface Judged {
  readonly verdict: Verdict;
  readonly chunk_ids: string[];
  readonly support: number;
}

/** One claim made ready for the model: its span and tokens, and its features or the cross-script verdict. */
export interface AlignedClaim {
  readonly span: ClaimSpan;
  readonly claim: Tokenized;
  /** Chunks in the claim's script (the others are compared by numbers only). */
  readonly chunks: readonly TokenizedChunk[];
  /** Features against those chunks; null when the cross-script rule decided (`crossScript`). */
  readonly alignment: Alignment | null;
  readonly crossScript: Judged | null;
}

/**
 * The claims of an answer and what the model reads of each (the judge's work before the model;
 * bench/judges/train.ts fits the model on exactly this). Against chunks of another script only
 * numbers can be compared: a claim whose numbers such a chunk gives, all of them, is SUPPORTED by it.
 */
export function alignClaims(input: GroundingInput, tokens: Tokens): AlignedClaim[] {
  const spans = statingSpans(input.answer, tokens);
  if (spans.length === 0) return [];
  const chunks = tokenizeChunks(input.chunks, tokens);
  const all = chunkSet(chunks);
  const claims = spans.map((s) => tokens.text(s.core));
  const answer = answerContext(claims, all, tokens.text(input.question));
  return spans.map((span, i) => {
    const claim = claims[i] as Tokenized;
    const other = claim.script === "none" ? [] : chunks.filter((c) => c.t.script !== claim.script);
    const across = other.find((c) => claim.numbers.size > 0 && [...claim.numbers].every((n) => c.t.numbers.has(n)));
    const same = other.length === 0 ? all : chunkSet(chunks.filter((c) => !other.includes(c)));
    if (across !== undefined) return { span, claim, chunks: same.chunks, alignment: null, crossScript: { verdict: "SUPPORTED", chunk_ids: [across.id], support: 1 } };
    return { span, claim, chunks: same.chunks, alignment: claimFeatures(span.core, claim, same, answer, tokens), crossScript: null };
  });
}

/** Share of a claim's content words found in the question and in no chunk at which it is never SUPPORTED (the question is no support). */
const QUESTION_ONLY_RULE = 0.5;

/**
 * True when a rule rules SUPPORTED out: a number of the claim in no chunk, none of its words in any
 * chunk, half or more of them only in the question, or the chunk sentences that say the rest of it
 * all say it with the other polarity.
 */
export function ruledOut(a: Alignment): boolean {
  return a.numbersMissing.length > 0 || a.nothingInChunks || a.negationFlip !== null || a.fromQuestion >= QUESTION_ONLY_RULE;
}

/** Probability that an aligned claim is supported: the model's, times the rule penalty when {@link ruledOut}. */
function claimSupport(a: Alignment, model: GroundingModel): number {
  return supportProbability(model, a.features) * (ruledOut(a) ? model.rule_penalty : 1);
}

/**
 * Verdict of one aligned claim (design §5): p ≥ the model's threshold, with every number of the
 * claim and some of its words in a chunk and no polarity flip, is SUPPORTED, resting on the chunks
 * that cover the claim; otherwise CONTRADICTED by a chunk that gives another number in the place of
 * the claim's or says the same with the opposite polarity, else UNSUPPORTED.
 */
function judgeAligned(a: AlignedClaim, model: GroundingModel): Judged {
  if (a.crossScript !== null || a.alignment === null) return a.crossScript ?? { verdict: "UNSUPPORTED", chunk_ids: [], support: 0 };
  const p = claimSupport(a.alignment, model);
  if (!ruledOut(a.alignment) && p >= model.threshold) return { verdict: "SUPPORTED", chunk_ids: [...a.alignment.chunkIds], support: p };
  const against = a.alignment.negationFlip ?? contradiction(a.claim, a.chunks);
  return against === null ? { verdict: "UNSUPPORTED", chunk_ids: [], support: p } : { verdict: "CONTRADICTED", chunk_ids: [against], support: p };
}

/** The claims of an answer judged against the chunks (the grounding judge's work, without timing). */
function judgeClaims(input: GroundingInput, tokens: Tokens, model: GroundingModel): ClaimVerdict[] {
  return alignClaims(input, tokens).map((a, index) => ({ index, text: a.span.text, ...judgeAligned(a, model) }));
}

/** Verdict of one claim standing alone (no question, an answer of one claim) against the chunks. */
export function heuristicVerdict(
  claimText: string,
  chunks: readonly { id: string; text: string }[],
  model: GroundingModel = committedGroundingModel(),
): { verdict: Verdict; chunk_ids: string[] } {
  const tokens = new Tokens();
  const [c] = judgeClaims({ question: "", answer: claimText, chunks }, tokens, model);
  return c === undefined ? { verdict: "UNSUPPORTED", chunk_ids: [] } : { verdict: c.verdict, chunk_ids: [...c.chunk_ids] };
}

/** Share of the question's tokens in the answer at which the answer is direct (relevance 4). */
const DIRECT_SHARE = 0.5;
/** Share at which the answer addresses the question's focus (relevance 3). */
const FOCUS_SHARE = 0.2;
/** Relevance of an answer that shares some but fewer than {@link FOCUS_SHARE} of the question's tokens. */
const WEAK_RELEVANCE = 1;
/** Relevance of a direct answer: a number to a how-many/how-long question, or the focus share reached. */
const DIRECT_RELEVANCE = 3;

/** Questions that ask for a quantity (English, Russian, Chinese): a number in the answer answers them. */
const QUANTITY_QUESTION =
  /\bhow (?:many|much|long|fast|soon|often|old|big|large|far)\b|\bwhat (?:is the )?(?:price|cost|fee|size|limit|port|age)\b|\bwhich port\b|сколько|как долго|как быстро|в какой срок|какой (?:срок|порт|размер|лимит|возраст)|с какого возраста|多少|多长|多久|几/iu;

/**
 * Relevance by the heuristic of design §5 (rules v2, issue 13): an empty answer 0; an abstention on
 * an answerable question {@link ABSTENTION_RELEVANCE}; otherwise from the share s of the question's
 * content tokens (stems, numbers) in the answer — s ≥ {@link DIRECT_SHARE} 4, s ≥ {@link FOCUS_SHARE}
 * 3, s > 0 {@link WEAK_RELEVANCE}, 0 nothing — and a number given to a quantity question
 * ("how many", "сколько", "多少") is a direct answer, at least {@link DIRECT_RELEVANCE}.
 * Right or wrong does not matter: grounding measures that.
 */
export function heuristicRelevance(input: RelevanceInput, tokens: Tokens = new Tokens()): { value: number; reason: string } {
  if (input.answer.trim().length === 0) return { value: 0, reason: "empty answer" };
  if (input.answerable === true && isAbstention(input.answer) && heuristicClaims(input.answer, tokens).length === 0) {
    return { value: ABSTENTION_RELEVANCE, reason: "abstention on an answerable question" };
  }
  const q = tokens.relevanceText(input.question);
  const a = tokens.relevanceText(input.answer);
  const qTokens = new Set([...q.content, ...q.numbers]);
  if (qTokens.size === 0) return { value: 0, reason: "question has no content tokens" };
  let n = 0;
  for (const t of qTokens) if (a.content.has(t) || a.numbers.has(t)) n++;
  const byShare = relevanceByShare(n / qTokens.size);
  const why = `${n} of ${qTokens.size} question tokens in the answer`;
  if (byShare < DIRECT_RELEVANCE && n > 0 && a.numbers.size > 0 && QUANTITY_QUESTION.test(input.question)) {
    return { value: DIRECT_RELEVANCE, reason: `${why}; a number answers a quantity question` };
  }
  return { value: byShare, reason: why };
}

/** Relevance by the share of the question's tokens in the answer (see {@link heuristicRelevance}). */
function relevanceByShare(share: number): number {
  if (share >= DIRECT_SHARE) return 4;
  if (share >= FOCUS_SHARE) return 3;
  return share > 0 ? WEAK_RELEVANCE : 0;
}

/** The grounding model's part of the prompt version: every number of the model file. */
function modelKey(m: GroundingModel): string {
  return JSON.stringify([m.features, m.mean, m.scale, m.weights, m.intercept, m.threshold, m.rule_penalty, m.risk]);
}

const RULES = `heuristic v3; tokens=snowball stems en/ru, cjk bigrams, number words en/ru/zh and digits with scale words as numbers, discourse words not content for grounding; claims=claims.ts (sentences, list items; no headers, preambles, pleasantries, questions, abstentions, meta); grounding=learned model (grounding-model.json) + number rule; across scripts numbers only; contradict>=${CONTRADICT_COVERAGE}+different number within ${NUMBER_WINDOW}, negation>=${NEGATION_COVERAGE} both ways on the negated word; question-only>=${QUESTION_ONLY_RULE} never SUPPORTED; relevance share>=${DIRECT_SHARE}:4 >=${FOCUS_SHARE}:3 >0:${WEAK_RELEVANCE}, quantity question+number>=${DIRECT_RELEVANCE}, abstention=${ABSTENTION_RELEVANCE}; quantity=${QUANTITY_QUESTION.source}; stopwords=${[...STOP_WORDS].sort().join(",")}`;
/** Prompt version of the heuristic judges: a hash of the rules (the claim and token rules' patterns and word lists included) and of the grounding model's numbers. */
export function heuristicPromptVersion(model: GroundingModel): string {
  return createHash("sha256").update(RULES).update(CLAIM_RULES).update(TOKEN_RULES).update(FEATURE_RULES).update(modelKey(model)).digest("hex").slice(0, 12);
}

/**
 * The heuristic judges (no LLM endpoint; design §5), labelled `heuristic`. Deterministic; the
 * prompt version is a hash of the rules, thresholds and the grounding model's weights, so it
 * changes when the weights do (and with it the cache key and calibration notices). Each judge keeps
 * its own token caches (no process-wide one): its chunks' tokens by chunk hash within `chunkCache`,
 * reused by the later traces that retrieve the same chunks (issue 31); judgments do not depend on it.
 */
export function createHeuristicJudge(model: GroundingModel = committedGroundingModel(), chunkCache: ChunkCacheBound = CHUNK_CACHE): Judge {
  const tokens = new Tokens(chunkCache);
  const version = heuristicPromptVersion(model);
  const grounding = async (input: GroundingInput): Promise<GroundingJudgment> => {
    const t0 = performance.now();
    const claims: ClaimVerdict[] = judgeClaims(input, tokens, model);
    const cost = { input_tokens: 0, output_tokens: 0, latency_ms: performance.now() - t0 };
    if (claims.length === 0) return { status: "no_claims", value: null, claims, reason: "the answer makes no factual claim", ...cost };
    const supported = claims.filter((c) => c.verdict === "SUPPORTED").length;
    const risk = groundingRisk(
      model,
      claims.map((c) => c.support ?? 0),
    );
    return { status: "ok", value: supported / claims.length, claims, risk, ...cost };
  };
  const relevance = async (input: RelevanceInput): Promise<RelevanceJudgment> => {
    const t0 = performance.now();
    const r = heuristicRelevance(input, tokens);
    return { status: "ok", value: r.value, reason: r.reason, input_tokens: 0, output_tokens: 0, latency_ms: performance.now() - t0 };
  };
  const tools: TextTools = {
    terms: (text) => {
      const t = tokens.relevanceText(text);
      return new Set([...t.content, ...t.numbers]);
    },
    passageTerms: (text) => tokens.chunkTerms(text),
  };
  return judgeOf(
    { kind: "heuristic", model: "heuristic", metered: false },
    {
      [JUDGE_TASKS.grounding]: { version, run: (r) => grounding(r as GroundingInput) },
      [JUDGE_TASKS.relevance]: { version, run: (r) => relevance(r as RelevanceInput) },
      ...formTasks(version, tools),
    },
  );
}

/** The tasks of the table's no-LLM forms; each one's version hashes the judge's version and the form's rules in words. */
function formTasks(version: string, tools: TextTools): Record<string, { version: string; run: JudgeTask }> {
  const out: Record<string, { version: string; run: JudgeTask }> = {};
  for (const def of JUDGED_METRICS) {
    const form = def.forms?.heuristic;
    if (form === undefined) continue;
    out[def.task] = {
      version: createHash("sha256")
        .update(version)
        .update(def.forms?.heuristicRules ?? def.task)
        .digest("hex")
        .slice(0, 12),
      run: async (request) => {
        const t0 = performance.now();
        const j = form(request, tools);
        return { ...j, input_tokens: 0, output_tokens: 0, latency_ms: performance.now() - t0 };
      },
    };
  }
  return out;
}
