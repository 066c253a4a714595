import { fileURLToPath } from "node:url";

/** Folder of the bundled sample corpus (Markdown documents; document id = path relative to it). */
export const SAMPLE_CORPUS_DIR = fileURLToPath(new URL("../corpus/", import.meta.url));
/** The bundled golden set (JSONL). */
export const SAMPLE_GOLDEN_FILE = fileURLToPath(new URL("../golden.jsonl", import.meta.url));
