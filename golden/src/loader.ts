import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { GoldenSetError } from "./errors.js";
import { goldenItemSchema, type GoldenItem, type GoldenSet } from "./schema.js";
import { normalizeText } from "./text.js";

/** Options of {@link loadGoldenSet}. */
export interface LoadGoldenOptions {
  /**
   * Folder holding the documents named by `expected_source`; needed only to resolve
   * `expected_lines` and to check substrings (`verifySubstrings`).
   */
  readonly corpusDir?: string;
  /** When true (and `corpusDir` is set), refuse items whose substring is not in their document. */
  readonly verifySubstrings?: boolean;
}

/**
 * Reads a golden set from a JSONL file (one item per line; blank lines and lines starting with `//`
 * are skipped).
 *
 * @returns the items in file order and the content hash (design §2).
 * @throws GoldenSetError naming file, line and field for a line that is not JSON or fails the
 *   schema, for a duplicate id, for an unreadable file, or for an `expected_lines` range outside
 *   its document. An empty set is not an error here: the caller reports `empty_golden_set`.
 */
export async function loadGoldenSet(file: string, options: LoadGoldenOptions = {}): Promise<GoldenSet> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new GoldenSetError(file, null, null, `cannot read golden set: ${(err as Error).message}`);
  }
  return parseGoldenSet(text, file, options);
}

/** As {@link loadGoldenSet}, from text already read; `file` is used in error messages. */
export async function parseGoldenSet(text: string, file: string, options: LoadGoldenOptions = {}): Promise<GoldenSet> {
  const items: GoldenItem[] = [];
  const seen = new Map<string, number>();
  const lines = text.split(/\r?\n/u);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = (lines[i] ?? "").trim();
    if (raw.length === 0 || raw.startsWith("//")) continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      throw new GoldenSetError(file, lineNo, null, `not valid JSON (${(err as Error).message})`);
    }
    const parsed = goldenItemSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? issue.path.join(".") : null;
      const msg = issue?.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue?.message;
      throw new GoldenSetError(file, lineNo, field, msg ?? "invalid item");
    }
    const it = parsed.data;
    const prev = seen.get(it.id);
    if (prev !== undefined) {
      throw new GoldenSetError(file, lineNo, "id", `duplicate id "${it.id}" (first on line ${prev})`);
    }
    seen.set(it.id, lineNo);
    const source = it.expected_source ?? null;
    let substring = it.expected_substring ?? null;
    if (source !== null && it.expected_lines && substring === null && options.corpusDir === undefined) {
      throw new GoldenSetError(file, lineNo, "expected_lines", "a line range needs the documents to resolve it: give the corpus folder (eval --corpus DIR), or write expected_substring");
    }
    if (source !== null && options.corpusDir !== undefined && (it.expected_lines || options.verifySubstrings)) {
      const docPath = path.join(options.corpusDir, source);
      let doc: string;
      try {
        doc = await readFile(docPath, "utf8");
      } catch {
        throw new GoldenSetError(file, lineNo, "expected_source", `document "${source}" not found in ${options.corpusDir}`);
      }
      if (it.expected_lines) {
        const [first, last] = it.expected_lines;
        const docLines = doc.split(/\r?\n/u);
        if (last > docLines.length) {
          throw new GoldenSetError(file, lineNo, "expected_lines", `line ${last} is past the end of "${source}" (${docLines.length} lines)`);
        }
        substring = docLines.slice(first - 1, last).join(" ");
      }
      if (options.verifySubstrings && substring !== null && !normalizeText(doc).includes(normalizeText(substring))) {
        throw new GoldenSetError(file, lineNo, "expected_substring", `not found in document "${source}"`);
      }
    }
    items.push({
      id: it.id,
      question: it.question,
      expected_source: source,
      expected_substring: source === null ? null : substring !== null ? normalizeText(substring) : null,
      reference_answer: it.reference_answer ?? null,
      key_facts: it.key_facts && it.key_facts.length > 0 ? it.key_facts : null,
      tags: it.tags,
    });
  }
  return { path: file, sha256: goldenSetHash(items), items };
}

/**
 * SHA-256 (hex) of a golden set's normalised content: each item serialised as JSON with a fixed key
 * order and normalised strings, one per line, in file order. Reformatting the file, reordering keys
 * or changing whitespace inside strings does not change it; changing any question, expectation,
 * key fact or tag does.
 */
export function goldenSetHash(items: readonly GoldenItem[]): string {
  const h = createHash("sha256");
  for (const it of items) {
    h.update(
      JSON.stringify([
        it.id,
        normalizeText(it.question),
        it.expected_source,
        it.expected_substring,
        it.reference_answer === null ? null : normalizeText(it.reference_answer),
        it.key_facts?.map(normalizeText) ?? null,
        [...it.tags].sort(),
      ]),
    );
    h.update("\n");
  }
  return h.digest("hex");
}
