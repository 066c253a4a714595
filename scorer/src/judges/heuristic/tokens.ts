import { STOP_WORDS, sentences, wordSegments } from "@ragmeter/golden";
import { chineseNumeralsToDigits, mergeNumberWords } from "./numerals.js";
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
  /** The text's script (Han before Cyrillic before Latin): words are compared only within one script. */
  readonly script: Script;
}

/** A chunk: its tokens as a whole and per sentence (local alignment and negation read sentences). */
export interface ChunkTokens extends Tokenized {
  readonly sentences: readonly Tokenized[];
  /** For each content token, the indices of the sentences that hold it, ascending. */
  readonly positions: ReadonlyMap<string, readonly number[]>;
}

function scriptOf(text: string): Script {
  if (/\p{Script=Han}/u.test(text)) return "han";
  if (/\p{Script=Cyrillic}/u.test(text)) return "cyrillic";
  if (/\p{Script=Latin}/u.test(text)) return "latin";
  return "none";
}

/**
 * Discourse words of answers (connectives, hedges, words about the context and the answer itself):
 * for grounding they are not content, since an answer adds them around facts without adding facts.
 */
const DISCOURSE_WORDS = new Set(
  `additionally addition also moreover furthermore however therefore thus hence overall finally firstly secondly lastly
  generally typically usually often specifically particularly especially essentially basically simply actually indeed
  certain various several different specific particular general main key important importantly significant significantly
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

const NEGATION_WORDS = new Set(["not", "no", "never", "cannot", "without", "neither", "nor", "none", "не", "нет", "ни", "никогда", "без", "нельзя"]);
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

/**
 * Tokens of a text: word segments (CJK bigrams) with Chinese numerals as digits, English/Russian
 * number words merged into numbers, digits with a scale word multiplied out, then Snowball stems.
 */
export function tokenize(text: string, stemOf: (word: string) => string = stem, discourseIsStop = true): Tokenized {
  const raw = mergeNumberWords(mergeScales(wordSegments(hanScaleToDigits(chineseNumeralsToDigits(text)))));
  let negated = NEGATION_HAN.test(text);
  const segments = raw.map((s): Token => {
    if (s.isNumber) return { text: s.text, isNumber: true, stop: false };
    if (!negated && isNegation(s.text)) negated = true;
    return { text: stemOf(s.text), isNumber: false, stop: STOP_WORDS.has(s.text) || (discourseIsStop && DISCOURSE_WORDS.has(s.text)) };
  });
  const content = new Set<string>();
  const numbers = new Set<string>();
  const bigrams = new Set<string>();
  let prev: string | null = null;
  for (const s of segments) {
    if (s.isNumber) numbers.add(s.text);
    else if (!s.stop) content.add(s.text);
    else continue;
    if (prev !== null) bigrams.add(`${prev} ${s.text}`);
    prev = s.text;
  }
  return { segments, content, numbers, bigrams, negated, script: scriptOf(text) };
}

function union(parts: readonly Tokenized[], text: string): ChunkTokens {
  const content = new Set<string>();
  const numbers = new Set<string>();
  const bigrams = new Set<string>();
  const segments: Token[] = [];
  const positions = new Map<string, number[]>();
  parts.forEach((p, i) => {
    for (const t of p.content) {
      const at = positions.get(t);
      if (at === undefined) positions.set(t, [i]);
      else at.push(i);
    }
  });
  for (const p of parts) {
    for (const t of p.content) content.add(t);
    for (const t of p.numbers) numbers.add(t);
    for (const t of p.bigrams) bigrams.add(t);
    segments.push(...p.segments);
  }
  return { segments, content, numbers, bigrams, negated: parts.some((p) => p.negated), script: scriptOf(text), sentences: parts, positions };
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

/** The token rules' word lists and patterns, as text: part of the judge's prompt version. */
export const TOKEN_RULES = [[...DISCOURSE_WORDS].join(","), [...NEGATION_WORDS].join(","), NEGATION_HAN.source, JSON.stringify([...SCALE_AFTER_DIGITS])].join("\n");

/** Chunk texts whose tokens a heuristic judge keeps (a few KiB each with their tokens). */
const CHUNK_CACHE_ENTRIES = 20_000;
/** Questions, answers and sentences whose tokens a heuristic judge keeps (those of the last questions). */
const RECENT_CACHE_ENTRIES = 1_000;
/** Words whose stems a heuristic judge keeps. */
const STEM_CACHE_ENTRIES = 100_000;

/**
 * Tokenized texts of one judge. Tokenizing is a pure function of the text, so results are kept:
 * chunk texts recur across questions (the same corpus answers them all), an answer's sentences are
 * tokenized by claims, grounding and relevance alike, and words recur across all texts (stems).
 */
export class Tokens {
  readonly #stems = new Bounded<string>(STEM_CACHE_ENTRIES);
  readonly #chunks = new Bounded<ChunkTokens>(CHUNK_CACHE_ENTRIES);
  readonly #recent = new Bounded<Tokenized>(RECENT_CACHE_ENTRIES);
  readonly #recentRelevance = new Bounded<Tokenized>(RECENT_CACHE_ENTRIES);
  readonly #stem = (word: string): string => this.#stems.get(word, stem);
  readonly #tokenize = (text: string): Tokenized => tokenize(text, this.#stem);
  readonly #tokenizeRelevance = (text: string): Tokenized => tokenize(text, this.#stem, false);
  readonly #chunk = (text: string): ChunkTokens => union(sentences(text).map(this.#tokenize), text);
  /** Tokens of a chunk text, whole and per sentence. */
  chunk(text: string): ChunkTokens {
    return this.#chunks.get(text, this.#chunk);
  }
  /** Tokens of a question, answer or claim, for grounding (discourse words are not content). */
  text(text: string): Tokenized {
    return this.#recent.get(text, this.#tokenize);
  }
  /** Tokens of a question or answer for relevance (discourse words are content: rules v2). */
  relevanceText(text: string): Tokenized {
    return this.#recentRelevance.get(text, this.#tokenizeRelevance);
  }
  /** Snowball stem of one lower-cased word (cached). */
  stem(word: string): string {
    return this.#stem(word);
  }
}
