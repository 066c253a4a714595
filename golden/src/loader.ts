import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { type RawGoldenRecord, readCsvRecords } from "./csv.js";
import { GoldenSetError } from "./errors.js";
import { type GoldenFormat, type GoldenItem, type GoldenSet, goldenItemSchema } from "./schema.js";
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
  /** The file's format; by default from its extension, else from its first character. */
  readonly format?: GoldenFormat;
}

/**
 * Reads a golden set from a JSONL file (one item per line; blank lines and lines starting with `//`
 * are skipped) or a CSV file (header row, one item per row, see `readCsvRecords`), UTF-8 with or
 * without a BOM. Items without an id get one derived from the question ({@link deriveGoldenId}).
 *
 * @returns the items in file order, the content hash (design §2; the same for the same items
 *   whichever format) and the notices to show once.
 * @throws GoldenSetError naming file, line (CSV: and row) and field for a line that is not JSON or
 *   CSV or fails the schema, for a duplicate id (given or derived), for an unreadable file, or for
 *   an `expected_lines` range outside its document. An empty set is not an error here: the caller
 *   reports `empty_golden_set`.
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
  const format = options.format ?? detectGoldenFormat(file, text);
  const records = format === "csv" ? readCsvRecords(text, file) : readJsonlRecords(text, file);
  const items: GoldenItem[] = [];
  const documents = corpusDocuments(options.corpusDir);
  const seen = new Map<string, SeenId>();
  let derivedIds = 0;
  let chunkIds = 0;
  for (const rec of records) {
    const fail = (field: string | null, reason: string): GoldenSetError => new GoldenSetError(file, rec.line, field, reason, rec.row);
    const it = parseRecord(rec, fail);
    const derived = it.id === null || it.id === undefined;
    const id = it.id ?? deriveGoldenId(it.question);
    claimId(seen, id, derived, rec, fail);
    if (derived) derivedIds++;
    if ((it.expected_chunk_id ?? null) !== null) chunkIds++;
    const expected = await resolveExpected(it, options, documents, fail);
    items.push(toGoldenItem(it, id, expected));
  }
  return { path: file, format, sha256: goldenSetHash(items), items, notices: loadNotices(derivedIds, chunkIds) };
}

/** An item as the schema reads it, before ids, line ranges and substrings are settled. */
type ParsedItem = z.output<typeof goldenItemSchema>;
/** Where an id was first seen, and whether it was derived from the question. */
interface SeenId {
  readonly at: string;
  readonly derived: boolean;
}
/** Builds the error for a field of the current record. */
type Fail = (field: string | null, reason: string) => GoldenSetError;

/** A record read by the schema; its first issue names the field. */
function parseRecord(rec: RawGoldenRecord, fail: Fail): ParsedItem {
  const parsed = goldenItemSchema.safeParse(rec.value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join(".") : null;
  const msg = issue?.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue?.message;
  throw fail(field, msg ?? "invalid item");
}

/** Records `id` as seen at `rec`; a duplicate fails, naming where it was first. */
function claimId(seen: Map<string, SeenId>, id: string, derived: boolean, rec: RawGoldenRecord, fail: Fail): void {
  const prev = seen.get(id);
  if (prev !== undefined) {
    throw fail(
      "id",
      derived && prev.derived
        ? `duplicate id "${id}" derived from the question, which is the same as on ${prev.at} (give the items ids, or drop one)`
        : `duplicate id "${id}" (first on ${prev.at})`,
    );
  }
  seen.set(id, { at: rec.row !== null ? `line ${rec.line}, row ${rec.row}` : `line ${rec.line}`, derived });
}

/** The expected substring (a line range resolved against its document) and the range it came from. */
interface Expected {
  readonly substring: string | null;
  readonly resolvedFrom: readonly [number, number] | null;
}

/**
 * Resolves an item's `expected_lines` against its document and, with `verifySubstrings`, checks its
 * substring is in it.
 */
async function resolveExpected(it: ParsedItem, options: LoadGoldenOptions, documents: CorpusDocuments, fail: Fail): Promise<Expected> {
  const source = it.expected_source ?? null;
  const substring = it.expected_substring ?? null;
  const lines = it.expected_lines ?? null;
  if (source !== null && lines && substring === null && options.corpusDir === undefined) {
    throw fail("expected_lines", "a line range needs the documents to resolve it: give the corpus folder (eval --corpus DIR), or write expected_substring");
  }
  if (source === null || options.corpusDir === undefined || !(lines || options.verifySubstrings)) return { substring, resolvedFrom: null };
  const doc = await documents.get(source);
  if (doc === "outside") throw fail("expected_source", `"${source}" is not a document inside ${options.corpusDir} (a path relative to the corpus folder, without ..)`);
  if (doc === null) throw fail("expected_source", `document "${source}" not found in ${options.corpusDir}`);
  const expected = lines ? linesOf(doc, lines, source, fail) : { substring, resolvedFrom: null };
  if (options.verifySubstrings && expected.substring !== null && !doc.normalized().includes(normalizeText(expected.substring))) {
    throw fail("expected_substring", `not found in document "${source}"`);
  }
  return expected;
}

/** The text of lines `first`–`last` of a document, joined by spaces. */
function linesOf(doc: CorpusDocument, [first, last]: readonly [number, number], source: string, fail: Fail): Expected {
  const docLines = doc.lines();
  if (last > docLines.length) throw fail("expected_lines", `line ${last} is past the end of "${source}" (${docLines.length} lines)`);
  return { substring: docLines.slice(first - 1, last).join(" "), resolvedFrom: [first, last] };
}

/** The loaded item: absent fields null, the substring normalised, expectations only with a source. */
function toGoldenItem(it: ParsedItem, id: string, { substring, resolvedFrom }: Expected): GoldenItem {
  const source = it.expected_source ?? null;
  return {
    id,
    question: it.question,
    expected_source: source,
    expected_substring: source === null ? null : substring !== null ? normalizeText(substring) : null,
    expected_chunk_id: it.expected_chunk_id ?? null,
    expected_lines: source === null ? null : resolvedFrom,
    reference_answer: it.reference_answer ?? null,
    key_facts: it.key_facts && it.key_facts.length > 0 ? it.key_facts : null,
    tags: it.tags,
    ...(it.unconfirmed === true ? { unconfirmed: true } : {}),
  };
}

/** The notices to show once: derived ids, and matching by chunk id. */
function loadNotices(derivedIds: number, chunkIds: number): string[] {
  const notices: string[] = [];
  if (derivedIds > 0) notices.push(`${count(derivedIds, "item has", "items have")} no id: ids derived from the question text ("q-" + the first 12 hex digits of its SHA-256)`);
  if (chunkIds > 0)
    notices.push(
      `${count(chunkIds, "item matches", "items match")} by expected_chunk_id: chunk ids change when the documents are re-chunked, and such items then never hit (expected_source + expected_substring survive re-chunking)`,
    );
  return notices;
}

/** The corpus's documents by source (see {@link corpusDocuments}). */
interface CorpusDocuments {
  get(source: string): Promise<CorpusDocument | "outside" | null>;
}

/** A document of the corpus, read once per load; its lines and normalised text made on first use. */
interface CorpusDocument {
  lines(): readonly string[];
  normalized(): string;
}

/**
 * The corpus's documents by source, each read (and split, and normalised) once per golden set:
 * items naming the same document cost a lookup, not a read of it (a set of 10,000 items over one
 * 1 MB document read it 10,000 times). A source outside the folder (absolute, or climbing out
 * with ..) is "outside", a missing one null.
 */
function corpusDocuments(corpusDir: string | undefined): CorpusDocuments {
  const cache = new Map<string, Promise<CorpusDocument | "outside" | null>>();
  const root = corpusDir === undefined ? "" : path.resolve(corpusDir);
  const load = async (source: string): Promise<CorpusDocument | "outside" | null> => {
    const docPath = path.resolve(root, source);
    if (!docPath.startsWith(root + path.sep)) return "outside";
    let text: string;
    try {
      text = await readFile(docPath, "utf8");
    } catch {
      return null;
    }
    let lines: string[] | undefined;
    let normalized: string | undefined;
    return {
      lines: () => (lines ??= text.split(/\r?\n/u)),
      normalized: () => (normalized ??= normalizeText(text)),
    };
  };
  return {
    get(source) {
      let doc = cache.get(source);
      if (doc === undefined) {
        doc = load(source);
        cache.set(source, doc);
      }
      return doc;
    },
  };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Length of the id digest, in hex digits. */
const DERIVED_ID_HEX = 12;

/**
 * The id of an item that has none: `q-` + the first 12 hex digits of the SHA-256 of the question
 * after `normalizeText` (NFC, whitespace folded), so the same question gets the same id in every
 * run and in every format, and reformatting its whitespace does not change it.
 */
export function deriveGoldenId(question: string): string {
  return `q-${createHash("sha256").update(normalizeText(question)).digest("hex").slice(0, DERIVED_ID_HEX)}`;
}

/**
 * The format of a golden-set file: `.csv` is CSV, `.jsonl`, `.ndjson` and `.json` are JSONL; any
 * other name is JSONL when its first non-blank character (after a BOM) is `{` or `/` (a comment) or
 * the file is blank, else CSV.
 */
export function detectGoldenFormat(file: string, text: string): GoldenFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === ".csv") return "csv";
  if (ext === ".jsonl" || ext === ".ndjson" || ext === ".json") return "jsonl";
  const first = text.replace(/^\uFEFF/u, "").trimStart()[0];
  return first === undefined || first === "{" || first === "/" ? "jsonl" : "csv";
}

/** One record per non-blank, non-`//` line; a leading BOM is ignored. */
function readJsonlRecords(text: string, file: string): RawGoldenRecord[] {
  const out: RawGoldenRecord[] = [];
  const lines = (text.startsWith("\uFEFF") ? text.slice(1) : text).split(/\r?\n/u);
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
    out.push({ line: lineNo, row: null, value: json });
  }
  return out;
}

/**
 * SHA-256 (hex) of a golden set's normalised content: each item serialised as JSON with a fixed key
 * order and normalised strings, one per line, in file order. Reformatting the file, reordering keys,
 * changing whitespace inside strings or writing the same items as CSV instead of JSONL does not
 * change it; changing any question, expectation, key fact or tag does. `expected_chunk_id` is
 * appended only when set, so sets without chunk ids keep the hash they had before it existed (their
 * stored runs still match); a derived id is hashed as the id it is.
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
        ...(it.expected_chunk_id !== undefined && it.expected_chunk_id !== null ? [it.expected_chunk_id] : []),
      ]),
    );
    h.update("\n");
  }
  return h.digest("hex");
}
