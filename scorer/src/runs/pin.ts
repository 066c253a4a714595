import { isHit, type RetrievedItem } from "@ragmeter/core/domain/metrics/recall";
import { type GoldenItem, matchMode, normalizeText, occurrences, sentences } from "@ragmeter/golden";

/** Fewest words of a sentence chosen as a pinned substring (shorter ones are rarely specific). */
const MIN_WORDS = 3;

/** The distinct lower-cased words (letters and digits) of a text. */
const wordSet = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/**
 * A substring of `text` that occurs exactly once in it (after `normalizeText`): a sentence of at
 * least three words that is unique, the first one, or with `near` (an answer) the one sharing the
 * most words with it (the first of a tie); else the whole (normalised) text, which always is unique.
 */
export function uniqueSubstring(text: string, near?: string): string {
  const whole = normalizeText(text);
  const unique = sentences(text)
    .map(normalizeText)
    .filter((n) => n.split(" ").length >= MIN_WORDS && occurrences(whole, n) === 1);
  if (unique.length === 0) return whole;
  if (near === undefined) return unique[0] as string;
  const words = wordSet(near);
  const shared = (n: string): number => [...wordSet(n)].filter((w) => words.has(w)).length;
  return unique.reduce((best, n) => (shared(n) > shared(best) ? n : best));
}

/** A golden item as `golden pin` writes it (one JSONL line). */
interface PinnedLine {
  readonly id: string;
  readonly question: string;
  readonly expected_source: string | null;
  readonly expected_substring: string | null;
  readonly expected_chunk_id?: string;
  readonly reference_answer: string | null;
  readonly key_facts: readonly string[] | null;
  readonly tags: readonly string[];
}

/** What `golden pin` did. */
export interface PinOutcome {
  readonly lines: readonly PinnedLine[];
  /** Chunk-id and document-only items turned into document + substring items. */
  readonly pinned: number;
  /** Chunk-id and document-only items left as they were, with why. */
  readonly notPinned: readonly { readonly id: string; readonly reason: string }[];
}

/** The retrieved chunk that pins an item (its hit, carrying a document id), or why there is none. */
function pinningHit(it: GoldenItem, mode: "chunk_id" | "document", got: readonly RetrievedItem[] | undefined): RetrievedItem | string {
  if (got === undefined) return "not answered in that run";
  const hit = got.find((c) => isHit(c, it));
  if (hit === undefined) return `no hit among the ${got.length} retrieved items`;
  if (mode === "chunk_id" && hit.document_id === hit.id) return `retrieved chunk "${hit.id}" carries no document id`;
  return hit;
}

/**
 * Turns chunk-id and document-only items into document + substring items (issue 12), using the
 * chunk the run retrieved for them: the hit chunk (the exact chunk id, or the first retrieved chunk
 * of the document) gives the document id and a substring unique in it. Items of other modes are
 * written as they are; an item the run did not hit (or whose hit carries no document id) is kept.
 * @param retrieved golden id → the run's retrieved items in rank order.
 */
export function pinGoldenItems(items: readonly GoldenItem[], retrieved: ReadonlyMap<string, readonly RetrievedItem[]>): PinOutcome {
  const lines: PinnedLine[] = [];
  const notPinned: { id: string; reason: string }[] = [];
  let pinned = 0;
  for (const it of items) {
    const base = { id: it.id, question: it.question, reference_answer: it.reference_answer, key_facts: it.key_facts, tags: it.tags };
    const mode = matchMode(it);
    const keep: PinnedLine = {
      ...base,
      expected_source: it.expected_source,
      expected_substring: it.expected_substring,
      ...(it.expected_chunk_id ? { expected_chunk_id: it.expected_chunk_id } : {}),
    };
    if (mode !== "chunk_id" && mode !== "document") {
      lines.push(keep);
      continue;
    }
    const hit = pinningHit(it, mode, retrieved.get(it.id));
    if (typeof hit === "string") {
      notPinned.push({ id: it.id, reason: hit });
      lines.push(keep);
      continue;
    }
    pinned++;
    lines.push({ ...base, expected_source: hit.document_id, expected_substring: uniqueSubstring(hit.text) });
  }
  return { lines, pinned, notPinned };
}
