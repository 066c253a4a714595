/**
 * Text normalisation and segmentation shared by the golden-set loader, the sample pipeline and the
 * scorer's mechanical metrics (design §5).
 */

/** Unicode ranges treated as CJK ideographs / kana / hangul (tokenised as character bigrams). */
const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;

/**
 * NFC-normalises `text` and folds every run of whitespace to one space, trimming both ends.
 * This is the normalisation of design §5 for expected substrings and key facts.
 */
export function normalizeText(text: string): string {
  return text.normalize("NFC").replace(/\s+/gu, " ").trim();
}

/** True when `text` contains at least one CJK character. */
export function hasCjk(text: string): boolean {
  return CJK_CHAR.test(text);
}

/** One word-like segment of a text, in order of appearance. */
export interface WordSegment {
  /** Lower-cased, NFC segment text. */
  readonly text: string;
  /** True when the segment is a number (digits with optional decimal part, separators removed). */
  readonly isNumber: boolean;
}

const NUMBER = /^\d+(?:[.,]\d+)*$/u;

/**
 * Canonical form of a number token: thousands separators removed ("1,000" → "1000"), a decimal
 * comma read as a point ("4,90" → "4.90"). Heuristic: a comma followed by exactly three digits is a
 * thousands separator.
 */
export function canonicalNumber(token: string): string {
  let t = token.replace(/,(?=\d{3}(?:\D|$))/gu, "");
  t = t.replace(/,/gu, ".");
  return t;
}

/**
 * Splits `text` into word-like segments with `Intl.Segmenter` (granularity "word"). Numbers keep
 * their decimal point ("4.90" is one segment) and are canonicalised with {@link canonicalNumber};
 * CJK runs are returned as overlapping character bigrams (a single CJK character stays alone).
 */
export function wordSegments(text: string, segmenter = defaultWordSegmenter()): WordSegment[] {
  const out: WordSegment[] = [];
  const normalized = text.normalize("NFC").toLowerCase();
  // Numbers with separators are kept whole (Intl.Segmenter splits "4.90" in some locales); CJK runs
  // are cut into character bigrams, as word segmentation of CJK is dictionary-dependent.
  const parts = normalized.split(SPLIT);
  for (const part of parts) {
    if (part.length === 0) continue;
    if (NUMBER.test(part)) {
      out.push({ text: canonicalNumber(part), isNumber: true });
      continue;
    }
    if (CJK_ONLY.test(part)) {
      for (const bigram of cjkBigrams(part)) out.push({ text: bigram, isNumber: false });
      continue;
    }
    for (const seg of segmenter.segment(part)) {
      if (!seg.isWordLike) continue;
      const w = seg.segment;
      out.push({ text: NUMBER.test(w) ? canonicalNumber(w) : w, isNumber: NUMBER.test(w) });
    }
  }
  return out;
}

const SPLIT = /(\d+(?:[.,]\d+)+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)/u;
const CJK_ONLY = /^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+$/u;

/** Overlapping character bigrams of a CJK run; a single character stays alone. */
function cjkBigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
  return out;
}

/** A word segmenter for no particular locale (Unicode default word boundaries, UAX #29). */
export function defaultWordSegmenter(): Intl.Segmenter {
  return new Intl.Segmenter(undefined, { granularity: "word" });
}

/**
 * Splits `text` into sentences with `Intl.Segmenter` (granularity "sentence"), additionally
 * breaking after the CJK full-width terminators `。！？` (design §5). Returns trimmed, non-empty
 * sentences in order.
 */
export function sentences(text: string): string[] {
  const seg = new Intl.Segmenter(undefined, { granularity: "sentence" });
  const out: string[] = [];
  for (const s of seg.segment(text.normalize("NFC"))) {
    for (const piece of s.segment.split(/(?<=[。！？])/u)) {
      const t = piece.replace(/\s+/gu, " ").trim();
      if (t.length > 0) out.push(t);
    }
  }
  return out;
}

/** All canonical numbers in `text`, in order (see {@link canonicalNumber}). */
export function numbersIn(text: string): string[] {
  return wordSegments(text)
    .filter((s) => s.isNumber)
    .map((s) => s.text);
}
