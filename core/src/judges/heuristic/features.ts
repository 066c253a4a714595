import type { TermSet } from "../../domain/metric.js";
import type { ChunkTokens, Tokenized, Tokens } from "./tokens.js";

// The grounding judge's features of one claim against the retrieved chunks taken together (design
// §5). Each is a number the learned model (model.ts) weighs; their names are the model file's keys.

/** Feature names, in the order of the model's weights. */
export const FEATURE_NAMES = [
  /** Share of the claim's content tokens found in any chunk (support taken from several chunks). */
  "cov_union",
  /** Share of the claim's adjacent content-token pairs found adjacent in a chunk (phrase alignment). */
  "bigram_cov",
  /** Share of the claim's content tokens covered by one chunk sentence or two adjacent ones. */
  "cov_best_window",
  /** The lowest coverage of any clause of the claim by the chunks (an added clause). */
  "clause_min_cov",
  /** log(1 + distinct long words, six letters or more, in no chunk). */
  "novel_long",
  /** Share of the whole answer's content tokens found in the chunks. */
  "answer_cov",
  /** log(1 + the answer's number of claims). */
  "answer_claims_log",
  /** 1 when the claim says it is not in the context or is inferred ("(not explicitly mentioned in the passages)", "it can be inferred"). */
  "self_flagged",
] as const;
type FeatureName = (typeof FEATURE_NAMES)[number];
export type Features = Readonly<Record<FeatureName, number>>;

/** A chunk with its tokens. */
export interface TokenizedChunk {
  readonly id: string;
  readonly t: ChunkTokens;
}

/** What the features read of the whole answer. */
export interface AnswerContext {
  /** Number of claims of the answer. */
  readonly claims: number;
  /** Share of the answer's content tokens (all its claims) found in the chunks. */
  readonly coverage: number;
  /** The question's content tokens. */
  readonly question: ReadonlySet<string>;
}

/** Features of a claim and the alignment behind them. */
export interface Alignment {
  readonly features: Features;
  /** Chunks that together cover the claim's tokens, most first, each adding tokens the ones before lack. */
  readonly chunkIds: readonly string[];
  /** Numbers of the claim that no chunk gives (a claim with one is never SUPPORTED). */
  readonly numbersMissing: readonly string[];
  /** True when the claim has content words and no chunk holds any of them (never SUPPORTED: the question's words are no support). */
  readonly nothingInChunks: boolean;
  /** The chunk whose sentence says the rest of the claim with the other polarity, when every such sentence does ({@link NEGATION_COVERAGE}); else null. */
  readonly negationFlip: string | null;
  /** Share of the claim's content tokens found in the question and in no chunk (taken from the question, which is no support). */
  readonly fromQuestion: number;
}

/** Share of a claim's content tokens a chunk sentence must hold to be read as saying the same, for polarity. */
export const NEGATION_COVERAGE = 0.8;

/**
 * The chunk that says the claim with the other polarity: the chunk sentences that say the same as
 * the claim — at least {@link NEGATION_COVERAGE} of the claim's content tokens (two or more) and of
 * their own — exist and all negate where the claim does not, or the reverse ("The plan does not
 * include backups." against "The plan includes daily backups."). Null otherwise, and when one such
 * sentence has the claim's polarity. A long chunk sentence that holds the claim and negates another
 * clause of its own does not count (RAGTruth's run-on passages: 28 of 28 such flips were wrong),
 * nor a negation that bears on a word the other text lacks (the word after "not", see `negates`).
 */
function negationFlip(claim: Tokenized, chunks: readonly TokenizedChunk[]): string | null {
  if (claim.content.size < 2) return null;
  let flip: string | null = null;
  const need = NEGATION_COVERAGE * claim.content.size;
  if (!claim.negated && chunks.every((c) => !c.t.negated)) return null; // nothing negates: no sentence has the other polarity
  for (const c of chunks) {
    const polarity = chunkPolarity(claim, c, need);
    if (polarity === "same") return null;
    if (polarity === "other") flip ??= c.id;
  }
  return flip;
}

/**
 * How the chunk's sentences that say the same as the claim read: one with the claim's polarity
 * ("same"), else one with the other polarity whose negation bears on what they share ("other"), else null.
 */
function chunkPolarity(claim: Tokenized, c: TokenizedChunk, need: number): "same" | "other" | null {
  let other = false;
  for (const [i, n] of sharedPerSentence(claim, c)) {
    if (!saysSame(c.t.sentenceSize(i), n, need)) continue;
    if (c.t.sentenceNegated(i) === claim.negated) return "same";
    if (negationBearsOnShared(claim, c.t, i)) other = true;
  }
  return other ? "other" : null;
}

/** Whether a chunk sentence of `size` content tokens sharing `n` of the claim's says the same: `need` of the claim's and {@link NEGATION_COVERAGE} of its own. */
function saysSame(size: number, n: number, need: number): boolean {
  return !(n < need || n / size < NEGATION_COVERAGE);
}

/** Shared content tokens per sentence of the chunk, counted from its token positions (no pass over every sentence). */
export function sharedPerSentence(claim: Tokenized, c: TokenizedChunk): Map<number, number> {
  const shared = new Map<number, number>();
  for (const t of claim.content) {
    const at = c.t.sentencesOf(t);
    if (at === undefined) continue;
    for (let k = 0; k < at.length; k++) {
      const i = at[k] as number;
      shared.set(i, (shared.get(i) ?? 0) + 1);
    }
  }
  return shared;
}

/**
 * Whether the negation (the claim's, or the sentence's) bears on what the two share: "not
 * supported" against a sentence without "supported" is no flip.
 */
function negationBearsOnShared(claim: Tokenized, chunk: ChunkTokens, i: number): boolean {
  if (claim.negated) return claim.negates === null || [...claim.negates].some((t) => chunk.sentenceHas(i, t));
  const neg = chunk.sentenceNegates(i);
  return neg === null || [...neg].some((t) => claim.content.has(t));
}

/** A claim that says it is not in the context, or that it is inferred (en/ru/zh). */
const SELF_FLAGGED =
  /\bnot (?:explicitly |specifically |directly |clearly )?(?:mentioned|stated|specified|provided|given|covered|addressed)\b|\b(?:can|could|may) be (?:inferred|assumed|deduced)\b|\b(?:general|common) knowledge\b|\bI (?:assume|believe|think|guess)\b|не (?:указан|упомина|сказан)\p{L}*|можно (?:предположить|сделать вывод)|(?:未|没有)(?:明确)?(?:提到|提及|说明)|可以推断/iu;
export const FEATURE_RULES = SELF_FLAGGED.source;

const share = (n: number, d: number): number => (d === 0 ? 1 : n / d);

function countIn(tokens: ReadonlySet<string>, set: TermSet): number {
  let n = 0;
  for (const t of tokens) if (set.has(t)) n++;
  return n;
}

/** Pairs of the claim ("first second") found in some chunk (a claim has few pairs, the chunks many: no union of theirs). */
function inAnyChunk(pairs: ReadonlySet<string>, chunks: readonly TokenizedChunk[]): number {
  let n = 0;
  for (const b of pairs) if (chunks.some((c) => hasPair(c.t, b))) n++;
  return n;
}

/** Whether the chunk has the pair "first second" (a token with a space in it is read at each space). */
function hasPair(chunk: ChunkTokens, pair: string): boolean {
  for (let at = pair.indexOf(" "); at >= 0; at = pair.indexOf(" ", at + 1)) if (chunk.hasPair(pair.slice(0, at), pair.slice(at + 1))) return true;
  return false;
}

/** Chunks of one answer with the union of their words and numbers (built once per answer, read by every claim). */
export interface ChunkSet {
  readonly chunks: readonly TokenizedChunk[];
  readonly content: ReadonlySet<string>;
  readonly numbers: ReadonlySet<string>;
}

export function chunkSet(chunks: readonly TokenizedChunk[]): ChunkSet {
  const content = new Set<string>();
  const numbers = new Set<string>();
  for (const c of chunks) {
    c.t.content.addTo(content);
    c.t.numbers.addTo(numbers);
  }
  return { chunks, content, numbers };
}

/** What the features read of the whole answer: its claims' content tokens against the chunks. */
export function answerContext(claims: readonly Tokenized[], chunks: ChunkSet, question: Tokenized): AnswerContext {
  const all = new Set<string>();
  for (const c of claims) for (const t of c.content) all.add(t);
  return { claims: claims.length, coverage: share(countIn(all, chunks.content), all.size), question: question.content };
}

/** Clause boundaries inside a claim: punctuation, and the words that join or extend clauses. */
const CLAUSE_BREAK =
  /[,;:()\u2013\u2014，；：（）]|\s(?:and|but|while|whereas|which|who|because|so|such as|including|as well as|although|though|resulting in|leading to|due to|и|а|но|который|которая|которые|так как|потому что|поэтому|включая|например|而|但|并且|以及|因为|所以|包括)\s/iu;

/** Tokens of the claim's clauses with at least two content tokens or numbers. */
function clauseTokens(core: string, tokens: Tokens): Tokenized[] {
  const out: Tokenized[] = [];
  for (const part of core.split(CLAUSE_BREAK)) {
    if (part === undefined || part.trim().length === 0) continue;
    const t = tokens.text(part);
    if (t.content.size + t.numbers.size >= 2) out.push(t);
  }
  return out;
}

/**
 * Best share of `content` covered by one chunk sentence or two adjacent ones: per chunk, the
 * claim's tokens in sentence i plus those in i + 1, less those in both (from the chunk's positions).
 */
function bestWindow(content: ReadonlySet<string>, chunks: readonly TokenizedChunk[]): number {
  if (content.size === 0) return chunks.some((c) => c.t.sentenceCount > 0) ? 1 : 0;
  let best = 0;
  for (const c of chunks) {
    const counts = sentenceCounts(content, c);
    if (counts !== null) best = Math.max(best, bestPair(counts.single, counts.both));
  }
  return best / content.size;
}

/**
 * Per sentence of the chunk, the claim's tokens in it (`single`) and those also in the next one
 * (`both`); null when the chunk holds none of them.
 */
function sentenceCounts(content: ReadonlySet<string>, c: TokenizedChunk): { single: number[]; both: number[] } | null {
  const n = c.t.sentenceCount;
  let counts: { single: number[]; both: number[] } | null = null;
  for (const t of content) {
    const at = c.t.sentencesOf(t);
    if (at === undefined) continue;
    counts ??= { single: new Array<number>(n).fill(0), both: new Array<number>(n).fill(0) };
    const { single, both } = counts;
    for (let k = 0; k < at.length; k++) {
      const i = at[k] as number;
      single[i] = (single[i] as number) + 1;
      if (k > 0 && at[k - 1] === i - 1) both[i - 1] = (both[i - 1] as number) + 1;
    }
  }
  return counts;
}

/** Most tokens in one sentence or two adjacent ones (those in both counted once). */
function bestPair(single: readonly number[], both: readonly number[]): number {
  const n = single.length;
  let best = 0;
  for (let i = 0; i < n; i++) {
    const w = i + 1 < n ? (single[i] as number) + (single[i + 1] as number) - (both[i] as number) : (single[i] as number);
    if (w > best) best = w;
  }
  return best;
}

/** The chunks that together cover the claim's tokens: each next one adds the most tokens still uncovered. */
function greedyCover(claim: Tokenized, chunks: readonly TokenizedChunk[]): string[] {
  const left = new Set<string>([...claim.content, ...claim.numbers]);
  const out: string[] = [];
  while (left.size > 0) {
    const best = mostGain(left, chunks);
    if (best === null) break;
    out.push(best.id);
    for (const t of [...left]) if (holds(best, t)) left.delete(t);
  }
  return out;
}

/** Whether the chunk holds the token (a word or a number). */
const holds = (c: TokenizedChunk, t: string): boolean => c.t.content.has(t) || c.t.numbers.has(t);

/** The first chunk holding the most of `left`; null when none holds any. */
function mostGain(left: ReadonlySet<string>, chunks: readonly TokenizedChunk[]): TokenizedChunk | null {
  let best: TokenizedChunk | null = null;
  let gain = 0;
  for (const c of chunks) {
    let g = 0;
    for (const t of left) if (holds(c, t)) g++;
    if (g > gain) {
      gain = g;
      best = c;
    }
  }
  return best;
}

/** Distinct long words (six letters or more, not stop words, not numbers) of the claim that no chunk holds. */
function novelLongWords(claim: Tokenized, set: ChunkSet): number {
  const novelLong = new Set<string>();
  for (const t of claim.segments) if (!t.stop && !t.isNumber && t.text.length >= 6 && !set.content.has(t.text)) novelLong.add(t.text);
  return novelLong.size;
}

/** The lowest share of a clause's words and numbers found in the chunks (1 without clauses). */
function clauseMinCoverage(core: string, tokens: Tokens, set: ChunkSet): number {
  let clauseMin = 1;
  for (const cl of clauseTokens(core, tokens)) {
    const n = countIn(cl.content, set.content) + countIn(cl.numbers, set.numbers);
    clauseMin = Math.min(clauseMin, share(n, cl.content.size + cl.numbers.size));
  }
  return clauseMin;
}

/**
 * Features of a claim (its compared text `core`, tokenized) against the chunks of its script. Only
 * the chunks support: a word the claim takes from the question is no support. Support may come from
 * several chunks: their tokens are read together, and from the best sentence window.
 */
export function claimFeatures(core: string, claim: Tokenized, set: ChunkSet, answer: AnswerContext, tokens: Tokens): Alignment {
  const { chunks } = set;
  const content = claim.content;
  const inChunks = countIn(content, set.content);
  const none = chunks.length === 0;
  let fromQuestion = 0;
  for (const t of content) if (answer.question.has(t) && !set.content.has(t)) fromQuestion++;
  const flip = none ? null : negationFlip(claim, chunks);
  const covUnion = none ? 0 : share(inChunks, content.size);
  const fromQuestionShare = content.size === 0 ? 0 : fromQuestion / content.size;
  const features: Features = {
    cov_union: covUnion,
    bigram_cov: none ? 0 : share(inAnyChunk(claim.bigrams, chunks), claim.bigrams.size),
    cov_best_window: none ? 0 : bestWindow(content, chunks),
    clause_min_cov: none ? 0 : clauseMinCoverage(core, tokens, set),
    novel_long: Math.log1p(novelLongWords(claim, set)),
    answer_cov: answer.coverage,
    answer_claims_log: Math.log1p(answer.claims),
    self_flagged: SELF_FLAGGED.test(core) ? 1 : 0,
  };
  const numbersMissing = [...claim.numbers].filter((n) => !set.numbers.has(n));
  return {
    features,
    chunkIds: greedyCover(claim, chunks),
    numbersMissing,
    nothingInChunks: content.size > 0 && inChunks === 0,
    negationFlip: flip,
    fromQuestion: fromQuestionShare,
  };
}
