// `ragmeter golden draft --from-docs PATH`: the documents (a folder of .md, .txt and .html files, or a
// JSONL file of {id, text}) and the passages questions are written from.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { DraftError } from "./errors.js";

/** One document: its id (path relative to the folder, as `expected_source` names it) and its text. */
export interface DraftDocument {
  readonly id: string;
  readonly text: string;
}

/** A passage of a document: the text one question is written from. */
export interface Passage {
  readonly documentId: string;
  /** 0-based index of the passage in its document. */
  readonly index: number;
  readonly text: string;
}

const EXTENSIONS = new Set([".md", ".markdown", ".txt", ".html", ".htm"]);

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name.startsWith(".")) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile() && EXTENSIONS.has(path.extname(e.name).toLowerCase())) out.push(p);
  }
  return out;
}

const jsonlDoc = z.object({ id: z.union([z.string().min(1), z.number().int().transform(String)]), text: z.string() });

/**
 * Reads the documents of `--from-docs`: every .md/.markdown/.txt/.html/.htm file under a folder
 * (dot-files skipped; ids are paths relative to it with `/`; HTML turned into text by html-to-text,
 * links and images left out), or a JSONL file of `{id, text}` (blank and `//` lines skipped).
 * @throws DraftError naming the path, line and field of what cannot be read.
 */
export async function readDocuments(from: string): Promise<DraftDocument[]> {
  const s = await stat(from).catch(() => null);
  if (s === null) throw new DraftError(`golden draft: --from-docs ${from}: no such file or folder`);
  if (s.isFile()) return readJsonlDocuments(from);
  const files = (await filesUnder(from)).sort();
  if (files.length === 0) throw new DraftError(`golden draft: --from-docs ${from}: no .md, .txt or .html file in the folder`);
  const docs: DraftDocument[] = [];
  let html: ((s: string) => string) | null = null;
  for (const f of files) {
    const raw = await readFile(f, "utf8");
    let text = raw;
    if (/\.html?$/iu.test(f)) {
      if (html === null) {
        const { convert } = await import("html-to-text");
        html = (h) =>
          convert(h, {
            wordwrap: false,
            selectors: [
              { selector: "a", options: { ignoreHref: true } },
              { selector: "img", format: "skip" },
            ],
          });
      }
      text = html(raw);
    }
    docs.push({ id: path.relative(from, f).split(path.sep).join("/"), text });
  }
  return docs;
}

async function readJsonlDocuments(file: string): Promise<DraftDocument[]> {
  const text = await readFile(file, "utf8");
  const docs: DraftDocument[] = [];
  const seen = new Set<string>();
  text.split(/\r?\n/u).forEach((l, i) => {
    const line = l.trim();
    if (line === "" || line.startsWith("//")) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new DraftError(`golden draft: --from-docs ${file}:${i + 1}: not valid JSON (expected {"id": "...", "text": "..."})`);
    }
    const p = jsonlDoc.safeParse(json);
    if (!p.success)
      throw new DraftError(`golden draft: --from-docs ${file}:${i + 1}: field "${p.error.issues[0]?.path.join(".") || "(line)"}": ${p.error.issues[0]?.message ?? "invalid"}`);
    if (seen.has(p.data.id)) throw new DraftError(`golden draft: --from-docs ${file}:${i + 1}: duplicate id "${p.data.id}"`);
    seen.add(p.data.id);
    docs.push(p.data);
  });
  if (docs.length === 0) throw new DraftError(`golden draft: --from-docs ${file}: no documents`);
  return docs;
}

/** Characters a passage grows to before a new one starts (paragraphs are never split). */
const PASSAGE_CHARS = 1_200;
/** Passages shorter than this hold too little to ask about. */
const MIN_PASSAGE_CHARS = 120;

/** A document's passages: its paragraphs (blank-line separated) joined up to ~1,200 characters; short ones left out. */
export function passagesOf(doc: DraftDocument): Passage[] {
  const paragraphs = doc.text
    .split(/\n\s*\n/u)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const out: Passage[] = [];
  let cur = "";
  const flush = (): void => {
    if (cur.length >= MIN_PASSAGE_CHARS) out.push({ documentId: doc.id, index: out.length, text: cur });
    cur = "";
  };
  for (const p of paragraphs) {
    if (cur !== "" && cur.length + p.length > PASSAGE_CHARS) flush();
    cur = cur === "" ? p : `${cur}\n\n${p}`;
  }
  flush();
  return out;
}

/**
 * `n` passages spread over the documents: in rounds, each document (in id order) giving its next
 * passage; a round that would pass `n` takes documents evenly over the id order (the middle of each
 * of as many equal slices), so 10 passages of 48 documents come from all their folders, not the first
 * ten documents. Deterministic.
 */
export function spreadPassages(docs: readonly DraftDocument[], n: number): Passage[] {
  const queues = [...docs].sort((a, b) => a.id.localeCompare(b.id)).map(passagesOf);
  const out: Passage[] = [];
  for (let round = 0; out.length < n; round++) {
    const offered = queues.map((q) => q[round]).filter((p): p is Passage => p !== undefined);
    if (offered.length === 0) break;
    const want = n - out.length;
    if (offered.length <= want) out.push(...offered);
    else for (let i = 0; i < want; i++) out.push(offered[Math.floor(((i + 0.5) * offered.length) / want)] as Passage);
  }
  return out;
}
