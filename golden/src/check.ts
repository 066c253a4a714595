import { readFile } from "node:fs/promises";
import path from "node:path";
import { countMatchModes, type MatchMode } from "./match.js";
import type { GoldenItem } from "./schema.js";
import { normalizeText } from "./text.js";

/** Word-set Jaccard similarity at or above which two questions are near-duplicates. */
export const NEAR_DUPLICATE_JACCARD = 0.8;

/** Two questions that are the same, or nearly, after folding case, punctuation and whitespace. */
export interface QuestionPair {
  readonly a: string;
  readonly b: string;
  /** Word-set Jaccard similarity (1 = the same words). */
  readonly similarity: number;
  readonly kind: "duplicate" | "near_duplicate";
}

/** An expected substring not found in its document, or found more than once. */
export interface SubstringFinding {
  readonly id: string;
  readonly source: string;
  /** Occurrences in the document (0: not found); null when the document itself is missing. */
  readonly occurrences: number | null;
}

/** What `ragmeter golden check` reports about a golden set. */
export interface GoldenCheck {
  readonly items: number;
  readonly byMode: Record<MatchMode, number>;
  /** Tag → items; sorted by tag. */
  readonly byTag: Readonly<Record<string, number>>;
  /** Share of unanswerable items (0–1; 0 for an empty set). */
  readonly unanswerableShare: number;
  readonly similarQuestions: readonly QuestionPair[];
  /** Ids of the items marked `unconfirmed` (drafted, not yet confirmed by a person), in file order. */
  readonly unconfirmed: readonly string[];
  /** Only with a corpus: substrings not found (or whose document is missing) or found more than once. */
  readonly substrings: readonly SubstringFinding[] | null;
}

/** The word set of a question: NFC, case folded, split at anything but letters and digits. */
export function questionWords(q: string): Set<string> {
  return new Set(
    normalizeText(q)
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0),
  );
}

/** Same-or-nearly-same question pairs: equal word sets are duplicates, Jaccard ≥ {@link NEAR_DUPLICATE_JACCARD} near-duplicates. */
export function similarQuestions(items: readonly GoldenItem[]): QuestionPair[] {
  const sets = items.map((it) => questionWords(it.question));
  const out: QuestionPair[] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const sim = wordJaccard(sets[i] as Set<string>, sets[j] as Set<string>);
      if (sim >= NEAR_DUPLICATE_JACCARD)
        out.push({ a: (items[i] as GoldenItem).id, b: (items[j] as GoldenItem).id, similarity: sim, kind: sim === 1 ? "duplicate" : "near_duplicate" });
    }
  }
  return out;
}

/** Jaccard similarity of two word sets (1 = the same words; two empty sets are the same). */
export function wordJaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 1 : inter / union;
}

/** Occurrences of `needle` in `hay` (overlapping ones counted). */
export function occurrences(hay: string, needle: string): number {
  if (needle.length === 0) return 0;
  let n = 0;
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + 1)) n++;
  return n;
}

/** Every expected substring not found in its document (under `corpusDir`) or found more than once. */
async function substringFindings(items: readonly GoldenItem[], corpusDir: string): Promise<SubstringFinding[]> {
  const findings: SubstringFinding[] = [];
  const docs = new Map<string, string | null>();
  for (const it of items) {
    if (it.expected_source === null || it.expected_substring === null) continue;
    if (!docs.has(it.expected_source)) {
      const text = await readFile(path.join(corpusDir, it.expected_source), "utf8").catch(() => null);
      docs.set(it.expected_source, text === null ? null : normalizeText(text));
    }
    const doc = docs.get(it.expected_source) ?? null;
    const n = doc === null ? null : occurrences(doc, normalizeText(it.expected_substring));
    if (n !== 1) findings.push({ id: it.id, source: it.expected_source, occurrences: n });
  }
  return findings;
}

/**
 * Checks a loaded golden set: counts by match mode and by tag, the unanswerable share, duplicate and
 * near-duplicate questions, and (with `corpusDir`) every expected substring not found in its
 * document or found more than once (both compared after `normalizeText`).
 */
export async function checkGoldenSet(items: readonly GoldenItem[], corpusDir?: string): Promise<GoldenCheck> {
  const byMode = countMatchModes(items);
  const tags: Record<string, number> = {};
  for (const it of items) for (const t of it.tags) tags[t] = (tags[t] ?? 0) + 1;
  const byTag = Object.fromEntries(Object.entries(tags).sort(([a], [b]) => a.localeCompare(b)));
  const substrings = corpusDir === undefined ? null : await substringFindings(items, corpusDir);
  return {
    items: items.length,
    byMode,
    byTag,
    unanswerableShare: items.length === 0 ? 0 : byMode.unanswerable / items.length,
    similarQuestions: similarQuestions(items),
    unconfirmed: items.filter((it) => it.unconfirmed === true).map((it) => it.id),
    substrings,
  };
}
