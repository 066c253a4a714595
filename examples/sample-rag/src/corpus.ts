import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** A document of the sample corpus. */
export interface CorpusDocument {
  /** Document id: path relative to the corpus folder, with `/` separators (e.g. `postgres/limits.md`). */
  readonly id: string;
  /** Title: the first `# ` heading, else the id. */
  readonly title: string;
  /** Full Markdown text. */
  readonly text: string;
}

/**
 * Reads every `.md` file under `dir` (recursively), sorted by id so the order is the same on
 * every machine.
 * @throws the fs error when `dir` cannot be read.
 */
export async function loadCorpus(dir: string): Promise<CorpusDocument[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && e.name.endsWith(".md"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  const docs: CorpusDocument[] = [];
  for (const file of files) {
    const text = await readFile(file, "utf8");
    const id = path.relative(dir, file).split(path.sep).join("/");
    const title = /^#\s+(.+)$/mu.exec(text)?.[1]?.trim() ?? id;
    docs.push({ id, title, text });
  }
  return docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
