import { createHash } from "node:crypto";
import { STOP_WORDS, sentences, wordSegments } from "@ragmeter/golden";
import { isAbstention } from "../../domain/metrics/abstention.js";
import type { ClaimVerdict, GroundingInput, GroundingJudgment, Judge, RelevanceInput, RelevanceJudgment, Verdict } from "../types.js";
import { chineseNumeralsToDigits, mergeNumberWords } from "./numerals.js";
import { stem } from "./stem.js";

/** A claim is SUPPORTED when one chunk covers at least this share of its content tokens (and every number). */
export const SUPPORT_COVERAGE = 0.7;
/** A claim is CONTRADICTED when a chunk covers at least this share and gives a different number. */
export const CONTRADICT_COVERAGE = 0.5;
/** Relevance given to an abstention on an answerable question. */
export const ABSTENTION_RELEVANCE = 1;
/** Distance (in word segments) within which a number counts as "next to" a claim's neighbouring word. */
export const NUMBER_WINDOW = 2;

/** One token: a number (canonical digits) or a word's stem, with whether the word is a stop word. */
interface Token {
  readonly text: string;
  readonly isNumber: boolean;
  readonly stop: boolean;
}

type Script = "han" | "cyrillic" | "latin" | "none";

interface Tokenized {
  readonly segments: readonly Token[];
  readonly content: ReadonlySet<string>;
  readonly numbers: ReadonlySet<string>;
  /** The text's script (Han before Cyrillic before Latin): words are compared only within one script. */
  readonly script: Script;
}

function scriptOf(text: string): Script {
  if (/\p{Script=Han}/u.test(text)) return "han";
  if (/\p{Script=Cyrillic}/u.test(text)) return "cyrillic";
  if (/\p{Script=Latin}/u.test(text)) return "latin";
  return "none";
}

/**
 * Tokens of a text: word segments (CJK bigrams) with Chinese numerals as digits and English/Russian
 * number words merged into numbers, then Snowball stems of the words.
 */
function tokenize(text: string, stemOf: (word: string) => string = stem): Tokenized {
  const segments = mergeNumberWords(wordSegments(chineseNumeralsToDigits(text))).map(
    (s): Token => (s.isNumber ? { text: s.text, isNumber: true, stop: false } : { text: stemOf(s.text), isNumber: false, stop: STOP_WORDS.has(s.text) }),
  );
  const content = new Set<string>();
  const numbers = new Set<string>();
  for (const s of segments) {
    if (s.isNumber) numbers.add(s.text);
    else if (!s.stop) content.add(s.text);
  }
  return { segments, content, numbers, script: scriptOf(text) };
}

/** A map that drops its least recently inserted entry once it holds `capacity` entries. */
class Bounded<V> {
  readonly #map = new Map<string, V>();
  constructor(readonly capacity: number) {}
  get(key: string, make: (key: string) => V): V {
    let v = this.#map.get(key);
    if (v === undefined) {
      v = make(key);
      if (this.#map.size >= this.capacity) {
        const oldest = this.#map.keys().next();
        if (!oldest.done) this.#map.delete(oldest.value);
      }
      this.#map.set(key, v);
    }
    return v;
  }
}

/**
 * Tokenized texts of one judge. Tokenizing is a pure function of the text, so results are kept:
 * chunk texts recur across questions (the same corpus answers them all), an answer's sentences are
 * tokenized by claims, grounding and relevance alike, and words recur across all texts (stems).
 */
class Tokens {
  readonly #stems = new Bounded<string>(STEM_CACHE_ENTRIES);
  readonly #chunks = new Bounded<Tokenized>(CHUNK_CACHE_ENTRIES);
  readonly #recent = new Bounded<Tokenized>(RECENT_CACHE_ENTRIES);
  readonly #stem = (word: string): string => this.#stems.get(word, stem);
  readonly #tokenize = (text: string): Tokenized => tokenize(text, this.#stem);
  /** Tokens of a chunk text. */
  chunk(text: string): Tokenized {
    return this.#chunks.get(text, this.#tokenize);
  }
  /** Tokens of a question, answer or sentence. */
  text(text: string): Tokenized {
    return this.#recent.get(text, this.#tokenize);
  }
}

/** Chunk texts whose tokens a heuristic judge keeps (about 1–2 KiB each with their tokens). */
export const CHUNK_CACHE_ENTRIES = 20_000;
/** Questions, answers and sentences whose tokens a heuristic judge keeps (those of the last questions). */
export const RECENT_CACHE_ENTRIES = 1_000;
/** Words whose stems a heuristic judge keeps. */
export const STEM_CACHE_ENTRIES = 100_000;

/**
 * The answer's claims for the heuristic judge: its sentences (`Intl.Segmenter` plus CJK `。！？`),
 * minus sentences that decline to answer and sentences with neither content words nor numbers.
 */
export function heuristicClaims(answer: string, tokens: Tokens = new Tokens()): string[] {
  return sentences(answer).filter((s) => {
    if (isAbstention(s)) return false;
    const t = tokens.text(s);
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
    const s = segs[i] as Token;
    if (!s.isNumber || chunk.numbers.has(s.text)) continue;
    const neighbours = new Set<string>();
    for (let j = Math.max(0, i - NUMBER_WINDOW); j <= Math.min(segs.length - 1, i + NUMBER_WINDOW); j++) {
      const n = segs[j] as Token;
      if (!n.isNumber && !n.stop) neighbours.add(n.text);
    }
    const cs = chunk.segments;
    for (let k = 0; k < cs.length; k++) {
      if (!neighbours.has((cs[k] as Token).text)) continue;
      for (let m = Math.max(0, k - NUMBER_WINDOW); m <= Math.min(cs.length - 1, k + NUMBER_WINDOW); m++) {
        const c = cs[m] as Token;
        if (c.isNumber && c.text !== s.text) return true;
      }
    }
  }
  return false;
}

/** Verdict of one claim against the chunks, by the rules of design §5. */
export function heuristicVerdict(claimText: string, chunks: readonly { id: string; text: string }[]): { verdict: Verdict; chunk_ids: string[] } {
  const tokens = new Tokens();
  return verdictAgainst(tokens.text(claimText), tokenizeChunks(chunks, tokens));
}

/** Chunks tokenized once per answer (blank chunks are no context). */
function tokenizeChunks(chunks: readonly { id: string; text: string }[], tokens: Tokens): { id: string; t: Tokenized }[] {
  return chunks.filter((c) => c.text.trim().length > 0).map((c) => ({ id: c.id, t: tokens.chunk(c.text) }));
}

function verdictAgainst(claim: Tokenized, tokenized: readonly { id: string; t: Tokenized }[]): { verdict: Verdict; chunk_ids: string[] } {
  // Across scripts words cannot be compared: a claim with numbers that a chunk in another script
  // gives, all of them, is SUPPORTED by it; nothing is CONTRADICTED across scripts.
  const other = tokenized.filter((c) => c.t.script !== claim.script && claim.script !== "none");
  for (const c of other) {
    if (claim.numbers.size > 0 && [...claim.numbers].every((n) => c.t.numbers.has(n))) return { verdict: "SUPPORTED", chunk_ids: [c.id] };
  }
  tokenized = tokenized.filter((c) => !other.includes(c));
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

/** Share of the question's tokens in the answer at which the answer is direct (relevance 4). */
export const DIRECT_SHARE = 0.5;
/** Share at which the answer addresses the question's focus (relevance 3). */
export const FOCUS_SHARE = 0.2;
/** Relevance of an answer that shares some but fewer than {@link FOCUS_SHARE} of the question's tokens. */
export const WEAK_RELEVANCE = 1;
/** Relevance of a direct answer: a number to a how-many/how-long question, or the focus share reached. */
export const DIRECT_RELEVANCE = 3;

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
  const claims = heuristicClaims(input.answer, tokens);
  if (input.answerable === true && claims.length === 0 && isAbstention(input.answer)) {
    return { value: ABSTENTION_RELEVANCE, reason: "abstention on an answerable question" };
  }
  const q = tokens.text(input.question);
  const a = tokens.text(input.answer);
  const qTokens = new Set([...q.content, ...q.numbers]);
  if (qTokens.size === 0) return { value: 0, reason: "question has no content tokens" };
  let n = 0;
  for (const t of qTokens) if (a.content.has(t) || a.numbers.has(t)) n++;
  const share = n / qTokens.size;
  const byShare = share >= DIRECT_SHARE ? 4 : share >= FOCUS_SHARE ? 3 : share > 0 ? WEAK_RELEVANCE : 0;
  const why = `${n} of ${qTokens.size} question tokens in the answer`;
  if (byShare < DIRECT_RELEVANCE && n > 0 && a.numbers.size > 0 && QUANTITY_QUESTION.test(input.question)) {
    return { value: DIRECT_RELEVANCE, reason: `${why}; a number answers a quantity question` };
  }
  return { value: byShare, reason: why };
}

const RULES = `heuristic v2; tokens=snowball stems en/ru, cjk bigrams, number words en/ru/zh as digits; claims=sentences minus abstentions; support>=${SUPPORT_COVERAGE}+numbers; across scripts numbers only; contradict>=${CONTRADICT_COVERAGE}+different number within ${NUMBER_WINDOW}; relevance share>=${DIRECT_SHARE}:4 >=${FOCUS_SHARE}:3 >0:${WEAK_RELEVANCE}, quantity question+number>=${DIRECT_RELEVANCE}, abstention=${ABSTENTION_RELEVANCE}; quantity=${QUANTITY_QUESTION.source}; stopwords=${[...STOP_WORDS].sort().join(",")}`;
const VERSION = createHash("sha256").update(RULES).digest("hex").slice(0, 12);

/**
 * The heuristic judges (no LLM endpoint; design §5), labelled `heuristic`. Deterministic; the
 * prompt version is a hash of the rules and thresholds.
 */
export function createHeuristicJudge(): Judge {
  const tokens = new Tokens();
  return {
    kind: "heuristic",
    model: "heuristic",
    promptVersion: { grounding: VERSION, relevance: VERSION },
    async grounding(input: GroundingInput): Promise<GroundingJudgment> {
      const t0 = performance.now();
      const claimTexts = heuristicClaims(input.answer, tokens);
      const chunks = tokenizeChunks(input.chunks, tokens);
      const claims: ClaimVerdict[] = claimTexts.map((text, index) => ({ index, text, ...verdictAgainst(tokens.text(text), chunks) }));
      const cost = { input_tokens: 0, output_tokens: 0, latency_ms: performance.now() - t0 };
      if (claims.length === 0) return { status: "no_claims", value: null, claims, reason: "the answer makes no factual claim", ...cost };
      const supported = claims.filter((c) => c.verdict === "SUPPORTED").length;
      return { status: "ok", value: supported / claims.length, claims, ...cost };
    },
    async relevance(input: RelevanceInput): Promise<RelevanceJudgment> {
      const t0 = performance.now();
      const r = heuristicRelevance(input, tokens);
      return { status: "ok", value: r.value, reason: r.reason, input_tokens: 0, output_tokens: 0, latency_ms: performance.now() - t0 };
    },
  };
}
