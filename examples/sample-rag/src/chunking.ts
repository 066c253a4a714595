import type { CorpusDocument } from "./corpus.js";

/** A retrievable chunk. Its id (`<document id>#<n>`) differs from its document id on purpose. */
export interface Chunk {
  readonly id: string;
  readonly documentId: string;
  readonly text: string;
}

/** Removes Markdown syntax that is not content: heading marks, emphasis, code ticks, list markers. */
function plain(line: string): string {
  return line
    .replace(/^#{1,6}\s+/u, "")
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/u, "")
    .replace(/\*\*|__|`/gu, "")
    .trim();
}

/**
 * Version-1 chunking: one chunk per `## ` section (title line included), long sections cut between
 * paragraphs at `maxChars` characters.
 */
export function chunkBySection(doc: CorpusDocument, maxChars = 900): Chunk[] {
  const sections: string[][] = [[]];
  for (const line of doc.text.split(/\r?\n/u)) {
    if (/^##\s/u.test(line)) sections.push([]);
    const p = plain(line);
    if (p.length > 0) sections[sections.length - 1]?.push(p);
  }
  const chunks: Chunk[] = [];
  for (const lines of sections) {
    let cur: string[] = [];
    let len = 0;
    for (const l of lines) {
      if (len + l.length > maxChars && cur.length > 0) {
        chunks.push(makeChunk(doc, chunks.length, cur.join("\n")));
        cur = [];
        len = 0;
      }
      cur.push(l);
      len += l.length + 1;
    }
    if (cur.length > 0) chunks.push(makeChunk(doc, chunks.length, cur.join("\n")));
  }
  return chunks;
}

/**
 * Version-2 chunking: fixed windows of about `size` characters cut at word boundaries, no overlap,
 * across paragraph and section boundaries. Smaller chunks; a fact may be cut in two.
 */
export function chunkFixed(doc: CorpusDocument, size = 220): Chunk[] {
  const words = doc.text
    .split(/\r?\n/u)
    .map(plain)
    .filter((l) => l.length > 0)
    .join(" ")
    .split(/\s+/u);
  const chunks: Chunk[] = [];
  let cur: string[] = [];
  let len = 0;
  for (const w of words) {
    if (len + w.length > size && cur.length > 0) {
      chunks.push(makeChunk(doc, chunks.length, cur.join(" ")));
      cur = [];
      len = 0;
    }
    cur.push(w);
    len += w.length + 1;
  }
  if (cur.length > 0) chunks.push(makeChunk(doc, chunks.length, cur.join(" ")));
  return chunks;
}

function makeChunk(doc: CorpusDocument, n: number, text: string): Chunk {
  return { id: `${doc.id}#${n + 1}`, documentId: doc.id, text };
}
