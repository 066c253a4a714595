import { STOP_WORDS, sentences, wordSegments } from "@ragmeter/golden";
import { chunkHash } from "../../domain/chunkHash.js";
import type { TermSet } from "../../domain/metric.js";
import { ChunkIndex } from "./chunkIndex.js";
import { chineseNumeralsToDigits, mergeNumberWords, NUMBER_WORD_RULES } from "./numerals.js";
import { stem } from "./stem.js";

/** One token: a number (canonical digits) or a word's stem, with whether the word is a stop word. */
export interface Token {
  readonly text: string;
  readonly isNumber: boolean;
  readonly stop: boolean;
}

type Script = "han" | "cyrillic" | "latin" | "none";

/** A text's tokens and the sets the grounding features read. */
export interface Tokenized {
  readonly segments: readonly Token[];
  /** Content tokens: stems of the words that are not stop words. */
  readonly content: ReadonlySet<string>;
  readonly numbers: ReadonlySet<string>;
  /** Adjacent pairs of content tokens and numbers, in text order ("a b"), for phrase alignment. */
  readonly bigrams: ReadonlySet<string>;
  /** True when the text negates (not, never, n't; не, нет, ни, без; 不, 没, 无, 未, 非, 别). */
  readonly negated: boolean;
  /**
   * What the text negates: the first content token after each negation word ("not supported" →
   * "support"); null when a negation cannot be placed (Chinese, read by character) or none follows.
   */
  readonly negates: ReadonlySet<string> | null;
  /** The text's script (Han before Cyrillic before Latin): words are compared only within one script. */
  readonly script: Script;
}

/** What the judge reads of one sentence of a chunk: its content tokens and whether it negates. */
interface ChunkSentence {
  readonly content: ReadonlySet<string>;
  readonly negated: boolean;
  readonly negates: ReadonlySet<string> | null;
}

/**
 * A chunk: its tokens as a whole and per sentence (local alignment and negation read sentences),
 * kept across traces by a judge (its chunk cache) in the compact form of {@link ChunkIndex}.
 */
export type ChunkTokens = ChunkIndex<Script>;

/** Words needed of a script: a Han character counts as a word, Cyrillic and Latin words as runs of letters. */
const SCRIPT_WORDS: readonly [Exclude<Script, "none">, RegExp][] = [
  ["han", /\p{Script=Han}/gu],
  ["cyrillic", /\p{Script=Cyrillic}+/gu],
  ["latin", /\p{Script=Latin}+/gu],
];

const OTHER_THAN_LATIN = /[\p{Script=Han}\p{Script=Cyrillic}]/u;

/**
 * The script most of a text's words are in (a Han character is a word; ties go to Han, then
 * Cyrillic): one word of another script — "Beijing (北京) is …", a Cyrillic name in an English
 * chunk — does not change it.
 */
export function scriptOf(text: string): Script {
  if (!OTHER_THAN_LATIN.test(text)) return /\p{Script=Latin}/u.test(text) ? "latin" : "none";
  let best: Script = "none";
  let most = 0;
  for (const [script, re] of SCRIPT_WORDS) {
    const n = text.match(re)?.length ?? 0;
    if (n > most) {
      most = n;
      best = script;
    }
  }
  return best;
}

/**
 * Discourse words of answers (connectives, hedges, words about the context and the answer itself):
 * for grounding they are not content, since an answer adds them around facts without adding facts.
 */
const DISCOURSE_WORDS = new Set(
  `additionally addition also moreover furthermore however therefore thus hence overall finally firstly secondly lastly
  generally typically usually often specifically particularly especially essentially basically simply actually indeed
  certain various several different specific particular general main key important importantly significant significantly
  percent percents процент процента процентов
  note noted notes mention mentioned mentions mentioning state stated states states provide provided provides providing
  passage passages document documents context information info source sources text excerpt answer question questions
  based according include includes including included involve involves involved suggest suggests suggested
  refer refers referred describe describes described explain explains explained indicate indicates indicated
  mean means meaning example examples instance such like etc well way ways thing things something anything
  may might could would should must can will need needs needed required require requires possible possibly likely
  recommend recommended recommends ensure make sure help helps helpful use used uses using
  кроме того также однако поэтому таким образом итак в целом обычно как правило в частности особенно например
  различные различных некоторые основные основной важно важный важные значительно указано указывает говорится
  упоминается сказано предоставленных предоставленные фрагмент фрагменте фрагментах документ документе документах
  контекст контексте информация информации ответ вопрос следует может могут можно нужно необходимо рекомендуется
  此外 另外 而且 但是 然而 因此 所以 总之 总的来说 通常 一般 例如 比如 特别 主要 重要 需要 可以 可能 应该 根据 提到 文档 段落 信息`
    .split(/\s+/u)
    .filter((w) => w.length > 0),
);

const NEGATION_WORDS = new Set(["not", "no", "never", "cannot", "without", "neither", "nor", "none", "не", "нет", "ни", "никогда", "без", "нельзя", "unable"]);
const NEGATION_HAN = /[不没無无未非别]/u;

function isNegation(word: string): boolean {
  return NEGATION_WORDS.has(word) || word.endsWith("n't") || word.endsWith("n’t");
}

/** A scale word after a number in digits multiplies it ("1.5 million", "3万", "2 тыс"). */
const SCALE_AFTER_DIGITS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    thousand: 1e3,
    million: 1e6,
    billion: 1e9,
    trillion: 1e12,
    тыс: 1e3,
    тысяча: 1e3,
    тысячи: 1e3,
    тысяч: 1e3,
    млн: 1e6,
    миллион: 1e6,
    миллиона: 1e6,
    миллионов: 1e6,
    млрд: 1e9,
    миллиард: 1e9,
    миллиарда: 1e9,
    миллиардов: 1e9,
    万: 1e4,
    亿: 1e8,
    千: 1e3,
  }),
);

/** Percent written as a word or sign after a number: "45 percent", "45 per cent", "45 процентов" read as "45%". */
const PERCENT_WORD = /(\d)\s*(?:%|per\s?cents?\b|percents?\b|pct\b|процент\p{L}*|％)/giu;
/** Digits grouped by spaces ("1 000 000", "2\u202f500"): one number. */
const SPACE_GROUPED = /(?<![\d.,]|\d\s)(\d{1,3})((?:[ \u00a0\u202f\u2009]\d{3})+)(?![\d]|[.,]\d|\s\d)/gu;
/** A unit glued to digits ("300KB", "5mg", "145°F") is read as the number and the unit, as when spaced; magnitude suffixes are read first. */
const UNIT_GLUED = /(\d)(?!(?:k|bn|mln|mn|M|B)(?![\p{L}\d]))((?:°|\p{Script=Latin}|\p{Script=Cyrillic})+)/gu;
/** A magnitude suffix on digits: "10k", "1.5bn", "$2.5M", "3 mln". */
const MAGNITUDE_SUFFIX = /(?<![\p{L}\d.])(\d+(?:\.\d+)?)\s?(k|bn|mln|mn|M(?=\b)|B(?=\b))(?![\p{L}\d])/gu;
const MAGNITUDE: Readonly<Record<string, number>> = { k: 1e3, bn: 1e9, mln: 1e6, mn: 1e6, M: 1e6, B: 1e9 };

/**
 * Numbers written differently read alike: digit groups separated by spaces joined, percent words
 * as "%", magnitude suffixes multiplied out ("$2.5M" → 2500000; "M" and "B" only right after a
 * currency sign, where they are not metres or bytes).
 */
export function normalizeNumbers(text: string): string {
  if (!/\d/u.test(text)) return text;
  let t = text;
  // each rewrite only where its cheap precondition holds (most texts with digits need none)
  if (/\d[\p{L}°]/u.test(t)) t = t.replace(UNIT_GLUED, "$1 $2");
  if (/\d[ \u00a0\u202f\u2009]\d{3}/u.test(t)) t = t.replace(SPACE_GROUPED, (_m, head: string, rest: string) => head + rest.replace(/\D/gu, ""));
  if (/\d\s*(?:%|％|p|п)/iu.test(t)) t = t.replace(PERCENT_WORD, "$1%");
  if (/\d\s?(?:k|bn|mln|mn|M|B)/u.test(t)) {
    t = t.replace(MAGNITUDE_SUFFIX, (m, n: string, suffix: string, offset: number, all: string) => {
      if ((suffix === "M" || suffix === "B") && !/[$€£¥₽]\s?$/u.test(all.slice(Math.max(0, offset - 2), offset))) return m;
      return canonical(Number(n) * (MAGNITUDE[suffix] as number));
    });
  }
  return t;
}

/** Digits followed by a Chinese scale character, rewritten as one number ("3万" → "30000", "1.2亿" → "120000000"). */
function hanScaleToDigits(text: string): string {
  return text.replace(/(\d+(?:\.\d+)?)\s*([万亿千])(?![\d])/gu, (_m, n: string, s: string) => canonical(Number(n) * (SCALE_AFTER_DIGITS.get(s) as number)));
}

const canonical = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6))));

/** A number segment followed by a scale word becomes one number ("1.5 million" → "1500000"). */
function mergeScales(segments: readonly { text: string; isNumber: boolean }[]): { text: string; isNumber: boolean }[] {
  const out: { text: string; isNumber: boolean }[] = [];
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as { text: string; isNumber: boolean };
    const next = segments[i + 1];
    const scale = next === undefined ? undefined : SCALE_AFTER_DIGITS.get(next.text);
    if (s.isNumber && scale !== undefined && /^\d+(?:\.\d+)?$/u.test(s.text)) {
      out.push({ text: canonical(Number(s.text) * scale), isNumber: true });
      i++;
    } else out.push(s);
  }
  return out;
}

/** What tokenizing reads of one word (not a number): its token for grounding, and for relevance and negation. */
export interface WordInfo {
  /** Its token for grounding: the stem, a stop word when in the stop or the discourse words. */
  readonly token: Token;
  /** A stop word for relevance (the stop words only: discourse words are content there, rules v2). */
  readonly relevanceStop: boolean;
  /** A negation word (not, never, n't; не, нет, без …). */
  readonly negation: boolean;
}

/** {@link WordInfo} of one lower-cased word. */
function wordInfo(word: string, stemOf: (word: string) => string = stem): WordInfo {
  const stop = STOP_WORDS.has(word);
  return { token: { text: stemOf(word), isNumber: false, stop: stop || DISCOURSE_WORDS.has(word) }, relevanceStop: stop, negation: isNegation(word) };
}

/**
 * Word segments of a text (CJK bigrams) with Chinese numerals as digits, English/Russian number
 * words merged into numbers, digits with a scale word multiplied out.
 */
function rawSegments(text: string): { text: string; isNumber: boolean }[] {
  return mergeNumberWords(mergeScales(wordSegments(normalizeNumbers(hanScaleToDigits(chineseNumeralsToDigits(text))))));
}

/** Where the tokens of one text are added: a chunk's sentences add to the chunk's. */
interface Sink {
  readonly segments: Token[];
  readonly numbers: Set<string>;
  /** When given (a text's), the adjacent pairs as "first second". */
  readonly bigrams?: Set<string>;
  /** When given (a chunk's), the adjacent pairs flat: first, second, first, second… */
  readonly pairs?: string[];
  /** When given (a chunk's), the relevance terms: numbers and the stems of words that are not relevance stop words. */
  readonly relevance?: Set<string>;
}

/**
 * Tokens of one text (a chunk's sentence, a claim) added to `into` (segments, numbers, adjacent pairs
 * of content tokens and numbers, in text order); its content tokens and negation returned.
 */
function tokenizeInto(text: string, wordOf: (word: string) => WordInfo, into: Sink): ChunkSentence {
  const han = NEGATION_HAN.test(text);
  const negation = new Negation(han);
  const content = new Set<string>();
  let prev: string | null = null;
  for (const s of rawSegments(text)) {
    let t: Token;
    if (s.isNumber) {
      t = { text: s.text, isNumber: true, stop: false };
      into.relevance?.add(t.text);
    } else {
      const w = wordOf(s.text);
      negation.read(w);
      t = w.token;
      if (!w.relevanceStop) into.relevance?.add(t.text);
    }
    into.segments.push(t);
    if (t.isNumber) into.numbers.add(t.text);
    else if (!t.stop) content.add(t.text);
    else continue;
    if (prev !== null) {
      into.bigrams?.add(`${prev} ${t.text}`);
      into.pairs?.push(prev, t.text);
    }
    prev = t.text;
  }
  return { content, negated: negation.negated, negates: han ? null : negation.negates };
}

/** Whether a text negates, and what: the first content token after each negation word, read word by word. */
class Negation {
  negates: Set<string> | null = null;
  #pending = false;
  constructor(public negated: boolean) {}
  read(w: WordInfo): void {
    if (w.negation) {
      this.negated = true;
      this.#pending = true;
    } else if (this.#pending && !w.token.stop) {
      this.negates ??= new Set<string>();
      this.negates.add(w.token.text);
      this.#pending = false;
    }
  }
}

/**
 * Tokens of a text for grounding: its segments as Snowball stems and numbers (discourse words are
 * stop words), content tokens, numbers, pairs, negation and script. `wordOf` reads one word (a
 * judge's {@link Tokens} keeps them).
 */
export function tokenize(text: string, wordOf: (word: string) => WordInfo = wordInfo): Tokenized {
  const bigrams = new Set<string>();
  const into: Sink = { segments: [], numbers: new Set<string>(), bigrams };
  const t = tokenizeInto(text, wordOf, into);
  return { segments: into.segments, content: t.content, numbers: into.numbers, bigrams, negated: t.negated, negates: t.negates, script: scriptOf(text) };
}

/** Content stems and numbers of a text for relevance (discourse words are content: rules v2). */
export interface Terms {
  readonly content: ReadonlySet<string>;
  readonly numbers: ReadonlySet<string>;
}

/** {@link Terms} of a text: the content and numbers {@link tokenize} would give, with discourse words as content. */
function terms(text: string, wordOf: (word: string) => WordInfo = wordInfo): Terms {
  const content = new Set<string>();
  const numbers = new Set<string>();
  for (const s of rawSegments(text)) {
    if (s.isNumber) numbers.add(s.text);
    else {
      const w = wordOf(s.text);
      if (!w.relevanceStop) content.add(w.token.text);
    }
  }
  return { content, numbers };
}

/**
 * Tokens of a chunk: each sentence tokenized as by {@link tokenize}, the segments, numbers and pairs
 * of all (pairs within a sentence), each sentence's content and negation, and the sentences holding
 * each content token.
 */
function chunkTokens(text: string, wordOf: (word: string) => WordInfo = wordInfo): ChunkTokens {
  const relevance = new Set<string>();
  const pairs: string[] = [];
  const into: Sink = { segments: [], numbers: new Set<string>(), pairs, relevance };
  const content = new Set<string>();
  const parts: ChunkSentence[] = [];
  let negated = false;
  for (const sentence of sentences(text)) {
    const s = tokenizeInto(sentence, wordOf, into);
    for (const t of s.content) content.add(t);
    negated ||= s.negated;
    parts.push(s);
  }
  return new ChunkIndex({ segments: into.segments, content, numbers: into.numbers, relevance, pairs, sentences: parts, negated, script: scriptOf(text) });
}

/**
 * A least-recently-used cache filled on a miss by `make`: at most `entries` entries and at most `size`
 * in all by `sizeOf` (a value larger than `size` is made and not kept). A Map keeps insertion order,
 * so a hit is moved to its end and the first entry is the least recently used.
 */
class Bounded<V> {
  readonly #map = new Map<string, { readonly value: V; readonly size: number }>();
  #size = 0;
  constructor(
    readonly entries: number,
    readonly size = Number.POSITIVE_INFINITY,
    readonly sizeOf: (value: V) => number = () => 0,
  ) {}
  get(key: string, make: (key: string) => V): V {
    const hit = this.#map.get(key);
    if (hit !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, hit);
      return hit.value;
    }
    const value = make(key);
    const size = this.sizeOf(value);
    if (this.entries < 1 || size > this.size) return value;
    this.#map.set(key, { value, size });
    this.#size += size;
    while (this.#map.size > this.entries || this.#size > this.size) {
      const [oldest, e] = this.#map.entries().next().value as [string, { readonly size: number }];
      this.#map.delete(oldest);
      this.#size -= e.size;
    }
    return value;
  }
  /** Entries held and their total size. */
  held(): { readonly entries: number; readonly size: number } {
    return { entries: this.#map.size, size: this.#size };
  }
}

/**
 * A cache of at most `entries` entries that does nothing on a hit but read (no reordering, unlike
 * {@link Bounded}): two generations of up to `entries / 2` each; a key made or found in the older
 * one goes to the younger, and a full younger generation becomes the older one, dropping the older.
 * For lookups far more frequent than misses: every word of every tokenized text reads the stems.
 */
class Generations<V> {
  #young = new Map<string, V>();
  #old = new Map<string, V>();
  readonly #half: number;
  constructor(entries: number) {
    this.#half = Math.max(1, Math.floor(entries / 2));
  }
  get(key: string, make: (key: string) => V): V {
    const hit = this.#young.get(key);
    if (hit !== undefined) return hit;
    const value = this.#old.get(key) ?? make(key);
    if (this.#young.size >= this.#half) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
    return value;
  }
}

/** The token rules' word lists and patterns, as text: part of the judge's prompt version. */
export const TOKEN_RULES = [
  [...DISCOURSE_WORDS].join(","),
  [...NEGATION_WORDS].join(","),
  NEGATION_HAN.source,
  JSON.stringify([...SCALE_AFTER_DIGITS]),
  ...SCRIPT_WORDS.map(([, re]) => re.source),
  PERCENT_WORD.source,
  SPACE_GROUPED.source,
  MAGNITUDE_SUFFIX.source,
  JSON.stringify(MAGNITUDE),
  UNIT_GLUED.source,
  NUMBER_WORD_RULES,
].join("\n");

/**
 * Bound of a judge's chunk cache: chunks whose tokens it keeps, and segments (words and numbers) over
 * them, which bounds its memory: about 27 bytes of heap a segment in the compact form a chunk is
 * kept in ({@link ChunkIndex}; bench:judge-chunks measures it), a chunk of 500–2,000 characters
 * 100–600 segments.
 * `entries: 0` keeps none: each trace tokenizes its chunks again.
 */
export interface ChunkCacheBound {
  readonly entries: number;
  readonly segments: number;
}
/**
 * The judge's chunk cache: 400,000 segments, about 10 MiB (1,300 chunks of issue 31's production
 * shape, the most recently retrieved: 70 % of retrievals hit, against 67 % at 320,000), and at most
 * 20,000 chunks however short. Kept as sets it was 62 MiB (issue 38).
 */
export const CHUNK_CACHE: ChunkCacheBound = Object.freeze({ entries: 20_000, segments: 400_000 });
/** Questions, answers and sentences whose tokens a heuristic judge keeps (those of the last questions). */
const RECENT_CACHE_ENTRIES = 1_000;
/** Words whose stems, stop-word and negation flags a heuristic judge keeps ({@link WordInfo}). */
const STEM_CACHE_ENTRIES = 100_000;
/** Chunk texts whose hashes a heuristic judge keeps: a trace's chunks, read by grounding and context relevance, are hashed once. */
const HASH_MEMO_ENTRIES = 64;

/**
 * Tokenized texts of one judge. Tokenizing is a pure function of the text, so results are kept:
 * chunk texts recur across questions (the same corpus answers them all), an answer's sentences are
 * tokenized by claims, grounding and relevance alike, and words recur across all texts (stems).
 */
export class Tokens {
  readonly #words = new Generations<WordInfo>(STEM_CACHE_ENTRIES);
  readonly #chunks: Bounded<ChunkTokens>;
  readonly #recent = new Bounded<Tokenized>(RECENT_CACHE_ENTRIES);
  readonly #recentRelevance = new Bounded<Terms>(RECENT_CACHE_ENTRIES);
  readonly #word = (word: string): WordInfo => this.#words.get(word, wordInfo);
  readonly #hashes = new Generations<string>(HASH_MEMO_ENTRIES);
  readonly #tokenize = (text: string): Tokenized => tokenize(text, this.#word);
  readonly #terms = (text: string): Terms => terms(text, this.#word);
  readonly #chunk = (text: string): ChunkTokens => chunkTokens(text, this.#word);
  constructor(chunkCache: ChunkCacheBound = CHUNK_CACHE) {
    this.#chunks = new Bounded<ChunkTokens>(chunkCache.entries, chunkCache.segments, (t) => t.segmentCount);
  }
  /**
   * Tokens of a chunk text, whole and per sentence: the judge's per-chunk work, kept by the text's
   * hash (the `chunks` table's, design §6) within the bound, so a chunk retrieved again by a later
   * trace is not tokenized again; the cache holds no text (only the hashes of the last
   * {@link HASH_MEMO_ENTRIES} chunk texts are kept by text).
   */
  chunk(text: string): ChunkTokens {
    return this.#chunks.get(this.#hashes.get(text, chunkHash), () => this.#chunk(text));
  }
  /**
   * The relevance terms of a chunk text (content stems, discourse words included, and numbers: what
   * {@link relevanceText} gives, read sentence by sentence), from the chunk's one tokenizing pass and
   * kept with its tokens ({@link chunk}): context relevance reads every retrieved chunk that grounding
   * reads, and a second pass over each cost the judge as much again on a chunk the cache missed.
   */
  chunkTerms(text: string): TermSet {
    return this.chunk(text).relevance;
  }
  /** Chunks the chunk cache holds and their segments. */
  chunkCache(): ChunkCacheBound {
    const h = this.#chunks.held();
    return { entries: h.entries, segments: h.size };
  }
  /** Tokens of a question, answer or claim, for grounding (discourse words are not content). */
  text(text: string): Tokenized {
    return this.#recent.get(text, this.#tokenize);
  }
  /** Tokens of a question or answer for relevance (discourse words are content: rules v2). */
  relevanceText(text: string): Terms {
    return this.#recentRelevance.get(text, this.#terms);
  }
  /** Snowball stem of one lower-cased word (cached). */
  stem(word: string): string {
    return this.#word(word).token.text;
  }
}
