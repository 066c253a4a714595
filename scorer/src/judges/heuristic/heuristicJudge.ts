import { createHash } from "node:crypto";
import { STOP_WORDS, sentences, type WordSegment, wordSegments } from "@ragmeter/golden";
import { isAbstention } from "../../domain/metrics/abstention.js";
import type { ClaimVerdict, GroundingInput, GroundingJudgment, Judge, RelevanceInput, RelevanceJudgment, Verdict } from "../types.js";

/** A claim is SUPPORTED when one chunk covers at least this share of its content tokens (and every number). */
export const SUPPORT_COVERAGE = 0.7;
/** A claim is CONTRADICTED when a chunk covers at least this share and gives a different number. */
export const CONTRADICT_COVERAGE = 0.5;
/** Relevance given to an abstention on an answerable question. */
export const ABSTENTION_RELEVANCE = 1;
/** Distance (in word segments) within which a number counts as "next to" a claim's neighbouring word. */
export const NUMBER_WINDOW = 2;

interface Tokenized {
  readonly segments: readonly WordSegment[];
  readonly content: ReadonlySet<string>;
  readonly numbers: ReadonlySet<string>;
}

function tokenize(text: string): Tokenized {
  const segments = wordSegments(text);
  const content = new Set<string>();
  const numbers = new Set<string>();
  for (const s of segments) {
    if (s.isNumber) numbers.add(s.text);
    else if (!STOP_WORDS.has(s.text)) content.add(s.text);
  }
  return { segments, content, numbers };
}

/**
 * The answer's claims for the heuristic judge: its sentences (`Intl.Segmenter` plus CJK `。！？`),
 * minus sentences that decline to answer and sentences with neither content words nor numbers.
 */
export function heuristicClaims(answer: string): string[] {
  return sentences(answer).filter((s) => {
    if (isAbstention(s)) return false;
    const t = tokenize(s);
    return t.content.size > 0 || t.numbers.size > 0;
  });
}

function coverage(claim: Tokenized, chunk: Tokenized): number {
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
function givesDifferentNumber(claim: Tokenized, chunk: Tokenized): boolean {
  const segs = claim.segments;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i] as WordSegment;
    if (!s.isNumber || chunk.numbers.has(s.text)) continue;
    const neighbours = new Set<string>();
    for (let j = Math.max(0, i - NUMBER_WINDOW); j <= Math.min(segs.length - 1, i + NUMBER_WINDOW); j++) {
      const n = segs[j] as WordSegment;
      if (!n.isNumber && !STOP_WORDS.has(n.text)) neighbours.add(n.text);
    }
    const cs = chunk.segments;
    for (let k = 0; k < cs.length; k++) {
      if (!neighbours.has((cs[k] as WordSegment).text)) continue;
      for (let m = Math.max(0, k - NUMBER_WINDOW); m <= Math.min(cs.length - 1, k + NUMBER_WINDOW); m++) {
        const c = cs[m] as WordSegment;
        if (c.isNumber && c.text !== s.text) return true;
      }
    }
  }
  return false;
}

/** Verdict of one claim against the chunks, by the rules of design §5. */
export function heuristicVerdict(claimText: string, chunks: readonly { id: string; text: string }[]): { verdict: Verdict; chunk_ids: string[] } {
  return verdictAgainst(tokenize(claimText), tokenizeChunks(chunks));
}

/** Chunks tokenized once per answer (blank chunks are no context). */
function tokenizeChunks(chunks: readonly { id: string; text: string }[], cache?: ChunkCache): { id: string; t: Tokenized }[] {
  return chunks.filter((c) => c.text.trim().length > 0).map((c) => ({ id: c.id, t: cache ? cache.get(c.text) : tokenize(c.text) }));
}

/**
 * Tokenized chunk texts of one judge, bounded (least recently inserted out first). Retrieved chunks
 * recur across questions — the same corpus answers them all — so streams tokenize each once.
 */
class ChunkCache {
  readonly #map = new Map<string, Tokenized>();
  constructor(readonly capacity: number) {}
  get(text: string): Tokenized {
    let t = this.#map.get(text);
    if (t === undefined) {
      t = tokenize(text);
      if (this.#map.size >= this.capacity) {
        const oldest = this.#map.keys().next();
        if (!oldest.done) this.#map.delete(oldest.value);
      }
      this.#map.set(text, t);
    }
    return t;
  }
}

/** Chunk texts whose tokens a heuristic judge keeps (about 1–2 KiB each with their tokens). */
export const CHUNK_CACHE_ENTRIES = 20_000;

function verdictAgainst(claim: Tokenized, tokenized: readonly { id: string; t: Tokenized }[]): { verdict: Verdict; chunk_ids: string[] } {
  for (const c of tokenized) {
    const allNumbers = [...claim.numbers].every((n) => c.t.numbers.has(n));
    if (allNumbers && coverage(claim, c.t) >= SUPPORT_COVERAGE) return { verdict: "SUPPORTED", chunk_ids: [c.id] };
  }
  if (claim.numbers.size > 0) {
    for (const c of tokenized) {
      if (coverage(claim, c.t) >= CONTRADICT_COVERAGE && givesDifferentNumber(claim, c.t)) {
        return { verdict: "CONTRADICTED", chunk_ids: [c.id] };
      }
    }
  }
  return { verdict: "UNSUPPORTED", chunk_ids: [] };
}

/** Relevance by the heuristic of design §5: round(4 × share of the question's content tokens in the answer). */
export function heuristicRelevance(input: RelevanceInput): { value: number; reason: string } {
  if (input.answerable === true && heuristicClaims(input.answer).length === 0 && isAbstention(input.answer)) {
    return { value: ABSTENTION_RELEVANCE, reason: "abstention on an answerable question" };
  }
  const q = tokenize(input.question);
  const a = tokenize(input.answer);
  const qTokens = new Set([...q.content, ...q.numbers]);
  if (qTokens.size === 0) return { value: 0, reason: "question has no content tokens" };
  let n = 0;
  for (const t of qTokens) if (a.content.has(t) || a.numbers.has(t)) n++;
  return { value: Math.round((4 * n) / qTokens.size), reason: `${n} of ${qTokens.size} question tokens in the answer` };
}

const RULES = `heuristic v1; claims=sentences minus abstentions; support>=${SUPPORT_COVERAGE}+numbers; contradict>=${CONTRADICT_COVERAGE}+different number within ${NUMBER_WINDOW}; relevance=round(4*share), abstention=${ABSTENTION_RELEVANCE}; stopwords=${[...STOP_WORDS].sort().join(",")}`;
const VERSION = createHash("sha256").update(RULES).digest("hex").slice(0, 12);

/**
 * The heuristic judges (no LLM endpoint; design §5), labelled `heuristic`. Deterministic; the
 * prompt version is a hash of the rules and thresholds.
 */
export function createHeuristicJudge(): Judge {
  const cache = new ChunkCache(CHUNK_CACHE_ENTRIES);
  return {
    kind: "heuristic",
    model: "heuristic",
    promptVersion: { grounding: VERSION, relevance: VERSION },
    async grounding(input: GroundingInput): Promise<GroundingJudgment> {
      const t0 = performance.now();
      const claimTexts = heuristicClaims(input.answer);
      const chunks = tokenizeChunks(input.chunks, cache);
      const claims: ClaimVerdict[] = claimTexts.map((text, index) => ({ index, text, ...verdictAgainst(tokenize(text), chunks) }));
      const cost = { input_tokens: 0, output_tokens: 0, latency_ms: performance.now() - t0 };
      if (claims.length === 0) return { status: "no_claims", value: null, claims, reason: "the answer makes no factual claim", ...cost };
      const supported = claims.filter((c) => c.verdict === "SUPPORTED").length;
      return { status: "ok", value: supported / claims.length, claims, ...cost };
    },
    async relevance(input: RelevanceInput): Promise<RelevanceJudgment> {
      const t0 = performance.now();
      const r = heuristicRelevance(input);
      return { status: "ok", value: r.value, reason: r.reason, input_tokens: 0, output_tokens: 0, latency_ms: performance.now() - t0 };
    },
  };
}
