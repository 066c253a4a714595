// A chunk's tokens as the judge keeps them across traces (its chunk cache): one vocabulary of the
// chunk's distinct segment texts and typed arrays indexed by it, instead of a set or map per
// question the features ask. The same answers as the sets it replaces (the features read nothing
// else), about a fifth of their heap (issue 38: the judge thread's heap was 87 MiB live, three
// quarters of it the cache's sets, pair strings and position arrays).

import type { TermSet } from "../../domain/metric.js";

/** What a chunk's tokenizing pass gives (tokens.ts), read once into a {@link ChunkIndex}. */
export interface ChunkParts<S extends string> {
  /** Segments in text order: numbers (canonical digits) and word stems. */
  readonly segments: readonly { readonly text: string; readonly isNumber: boolean }[];
  readonly content: ReadonlySet<string>;
  readonly numbers: ReadonlySet<string>;
  readonly relevance: ReadonlySet<string>;
  /** Adjacent pairs of content tokens and numbers within a sentence, flat: first, second, first, second… */
  readonly pairs: readonly string[];
  readonly sentences: readonly { readonly content: ReadonlySet<string>; readonly negated: boolean; readonly negates: ReadonlySet<string> | null }[];
  readonly negated: boolean;
  readonly script: S;
}

const NUMBER = 1;
const CONTENT = 2;
const RELEVANT = 4;

/** A chunk's tokens, whole and per sentence, indexed by one vocabulary of its segment texts. */
export class ChunkIndex<S extends string = string> {
  /** Segment text → its number in the vocabulary (first occurrence order). */
  readonly #ids: Map<string, number>;
  /** Per segment: its vocabulary number. */
  readonly #segments: Uint16Array | Uint32Array;
  /** Per segment: 1 when it is a number. */
  readonly #segmentIsNumber: Uint8Array;
  /** The distinct adjacent pairs as first × vocabulary size + second, ascending. */
  readonly #pairs: Float64Array;
  /** Per vocabulary entry v: the sentences holding it as content are #sentenceOf[#sentenceStart[v] … #sentenceStart[v + 1]), ascending. */
  readonly #sentenceStart: Uint32Array;
  readonly #sentenceOf: Uint16Array | Uint32Array;
  /** Per sentence: its distinct content tokens. */
  readonly #sentenceSize: Uint32Array;
  readonly #sentenceNegated: Uint8Array;
  /** Per sentence: what it negates ({@link ChunkParts}), null when none or it cannot be placed. */
  readonly #sentenceNegates: readonly (ReadonlySet<string> | null)[];
  readonly content: FlagView;
  readonly numbers: FlagView;
  /** The chunk's terms for relevance (content stems, discourse words included, and numbers). */
  readonly relevance: FlagView;
  readonly negated: boolean;
  readonly script: S;
  readonly segmentCount: number;
  readonly sentenceCount: number;

  constructor(parts: ChunkParts<S>) {
    const ids = new Map<string, number>();
    const segs = parts.segments;
    const idOf = new Uint32Array(segs.length);
    const isNumber = new Uint8Array(segs.length);
    for (let k = 0; k < segs.length; k++) {
      const s = segs[k] as { text: string; isNumber: boolean };
      let id = ids.get(s.text);
      if (id === undefined) {
        id = ids.size;
        ids.set(s.text, id);
      }
      idOf[k] = id;
      isNumber[k] = s.isNumber ? 1 : 0;
    }
    const size = ids.size;
    const flags = new Uint8Array(size);
    const mark = (set: ReadonlySet<string>, bit: number): void => {
      for (const t of set) {
        const id = ids.get(t) as number;
        flags[id] = (flags[id] as number) | bit;
      }
    };
    mark(parts.numbers, NUMBER);
    mark(parts.content, CONTENT);
    mark(parts.relevance, RELEVANT);
    this.#ids = ids;
    this.#segments = size <= 0xffff ? new Uint16Array(idOf) : idOf;
    this.#segmentIsNumber = isNumber;
    this.#pairs = pairKeys(parts.pairs, ids);
    const n = parts.sentences.length;
    const positions = sentencePositions(parts.sentences, ids);
    this.#sentenceStart = positions.start;
    this.#sentenceOf = n <= 0xffff ? new Uint16Array(positions.of) : positions.of;
    this.#sentenceSize = Uint32Array.from(parts.sentences, (s) => s.content.size);
    this.#sentenceNegated = Uint8Array.from(parts.sentences, (s) => (s.negated ? 1 : 0));
    this.#sentenceNegates = parts.sentences.some((s) => s.negates !== null) ? parts.sentences.map((s) => s.negates) : [];
    this.content = new FlagView(ids, flags, CONTENT, parts.content.size);
    this.numbers = new FlagView(ids, flags, NUMBER, parts.numbers.size);
    this.relevance = new FlagView(ids, flags, RELEVANT, parts.relevance.size);
    this.negated = parts.negated;
    this.script = parts.script;
    this.segmentCount = segs.length;
    this.sentenceCount = n;
  }

  /** True when `first` followed by `second` is an adjacent pair of the chunk (within a sentence). */
  hasPair(first: string, second: string): boolean {
    const a = this.#ids.get(first);
    if (a === undefined) return false;
    const b = this.#ids.get(second);
    if (b === undefined) return false;
    return sortedHas(this.#pairs, a * this.#ids.size + b);
  }

  /** The sentences holding `token` as content, ascending; undefined when none does. */
  sentencesOf(token: string): ArrayLike<number> | undefined {
    const v = this.#ids.get(token);
    if (v === undefined) return undefined;
    const from = this.#sentenceStart[v] as number;
    const to = this.#sentenceStart[v + 1] as number;
    return from === to ? undefined : this.#sentenceOf.subarray(from, to);
  }

  /** Distinct content tokens of sentence i. */
  sentenceSize(i: number): number {
    return this.#sentenceSize[i] as number;
  }

  sentenceNegated(i: number): boolean {
    return this.#sentenceNegated[i] === 1;
  }

  /** What sentence i negates: the first content token after each negation word; null when none or it cannot be placed. */
  sentenceNegates(i: number): ReadonlySet<string> | null {
    return this.#sentenceNegates[i] ?? null;
  }

  /** True when sentence i holds `token` as content. */
  sentenceHas(i: number, token: string): boolean {
    const at = this.sentencesOf(token);
    if (at === undefined) return false;
    for (let k = 0; k < at.length; k++) if (at[k] === i) return true;
    return false;
  }

  /**
   * True when one of `words` is a segment of the chunk with a number segment other than `number`
   * within `window` segments of it.
   */
  otherNumberNextTo(words: ReadonlySet<string>, number: string, window: number): boolean {
    const wanted = new Set<number>();
    for (const w of words) {
      const id = this.#ids.get(w);
      if (id !== undefined) wanted.add(id);
    }
    if (wanted.size === 0) return false;
    const numberId = this.#ids.get(number) ?? -1;
    const segs = this.#segments;
    const last = segs.length - 1;
    for (let k = 0; k <= last; k++) {
      if (!wanted.has(segs[k] as number)) continue;
      for (let m = Math.max(0, k - window); m <= Math.min(last, k + window); m++) {
        if (this.#segmentIsNumber[m] === 1 && segs[m] !== numberId) return true;
      }
    }
    return false;
  }
}

/** The distinct pairs of `flat` (first, second, …) as first × vocabulary size + second, ascending. */
function pairKeys(flat: readonly string[], ids: ReadonlyMap<string, number>): Float64Array {
  const size = ids.size;
  const keys = new Float64Array(flat.length >> 1);
  for (let p = 0; p < keys.length; p++) keys[p] = (ids.get(flat[2 * p] as string) as number) * size + (ids.get(flat[2 * p + 1] as string) as number);
  keys.sort();
  let n = 0;
  for (let p = 0; p < keys.length; p++) if (n === 0 || keys[p] !== keys[n - 1]) keys[n++] = keys[p] as number;
  return keys.slice(0, n);
}

/** Per vocabulary entry, the sentences holding it as content (ascending: sentences are read in order). */
function sentencePositions(sentences: ChunkParts<string>["sentences"], ids: ReadonlyMap<string, number>): { start: Uint32Array; of: Uint32Array } {
  const start = new Uint32Array(ids.size + 1);
  for (const s of sentences) {
    for (const t of s.content) {
      const v = (ids.get(t) as number) + 1;
      start[v] = (start[v] as number) + 1;
    }
  }
  for (let v = 0; v < ids.size; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const of = new Uint32Array(start[ids.size] as number);
  const next = start.slice(0, ids.size);
  sentences.forEach((s, i) => {
    for (const t of s.content) {
      const v = ids.get(t) as number;
      of[next[v] as number] = i;
      next[v] = (next[v] as number) + 1;
    }
  });
  return { start, of };
}

/** True when the ascending `keys` hold `key` (binary search). */
function sortedHas(keys: Float64Array, key: number): boolean {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const k = keys[mid] as number;
    if (k === key) return true;
    if (k < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * The vocabulary entries with one flag, as a {@link TermSet}. Iterated in the order each token first
 * appears as a segment of the chunk (a Set built from the sets gave the order it first appeared as
 * content): no reader depends on it.
 */
export class FlagView implements TermSet {
  constructor(
    readonly ids: ReadonlyMap<string, number>,
    readonly flags: Uint8Array,
    readonly bit: number,
    readonly size: number,
  ) {}
  has(token: string): boolean {
    const id = this.ids.get(token);
    return id !== undefined && ((this.flags[id] as number) & this.bit) !== 0;
  }
  *[Symbol.iterator](): Iterator<string> {
    for (const [t, id] of this.ids) if (((this.flags[id] as number) & this.bit) !== 0) yield t;
  }
  /** Adds its tokens to `set` (what iterating gives, without an iterator per token). */
  addTo(set: Set<string>): void {
    for (const [t, id] of this.ids) if (((this.flags[id] as number) & this.bit) !== 0) set.add(t);
  }
}
