import type { Attrs, AttrValue } from "./spans.js";

/**
 * Chunk references in stored spans (design §6, `spans.chunk_hashes`): a retrieved chunk's text at a
 * known attribute is stored once in `chunks` and the span keeps a reference in its place.
 * - A flat attribute (OpenInference `retrieval.documents.<i>.document.content`, the reranker's
 *   `reranker.input_documents.<i>…` and `reranker.output_documents.<i>…`) holds a reference
 *   instead of the text: {@link CHUNK_REF_PREFIX} + `#` + the index of the text's hash in the span's
 *   `chunk_hashes` (spans stored before: the prefix + the hash itself, which readers still resolve;
 *   the index is a few bytes where a hash's 32 hex digits compressed to about 17).
 * - Inside the JSON of `gen_ai.retrieval.documents` the text's JSON string literal becomes that
 *   reference's literal, only when putting the text back gives the attribute's exact bytes.
 * A span is left whole when one of those attributes already holds the prefix (a reference is then
 * never confused with a text), and a text shorter than {@link MIN_CHUNK_REF_CHARS} stays inline.
 */
const CHUNK_REF_PREFIX = "ragmeter.chunk_ref:";

/** Texts shorter than this stay inline: a reference (prefix + 32 hex digits) would not be smaller. */
const MIN_CHUNK_REF_CHARS = 64;

/** Flat attributes holding a chunk's text. */
const FLAT_KEY = /^(?:retrieval\.documents|reranker\.input_documents|reranker\.output_documents)\.\d+\.document\.content$/u;

/** JSON attributes holding a list of documents (`[{content | text, …}]`). */
const JSON_KEYS: ReadonlySet<string> = new Set(["gen_ai.retrieval.documents"]);

/** True for an attribute whose value may hold chunk references. */
const isChunkTextKey = (key: string): boolean => FLAT_KEY.test(key) || JSON_KEYS.has(key);

/** A span's attributes with its chunks' texts taken out, and those texts by hash. */
export interface DetachedChunks {
  readonly attributes: Attrs;
  /**
   * Hash → text of each chunk taken out, in the order first met, with its document id as far as the
   * span says ('' unknown). The keys in this order are the span's `chunk_hashes`, which the
   * references index.
   */
  readonly texts: ReadonlyMap<string, { readonly text: string; readonly document_id: string }>;
}

const idOf = (x: unknown): string => (typeof x === "string" ? x : typeof x === "number" && Number.isFinite(x) ? String(x) : "");

/** A document's id as `documentOf` reads it first: an explicit document id (also in its metadata), else its id. */
function documentIdOf(doc: Record<string, unknown>, metadata: unknown): string {
  let meta = metadata;
  if (typeof meta === "string") {
    try {
      meta = JSON.parse(meta);
    } catch {
      meta = null;
    }
  }
  const m = meta !== null && typeof meta === "object" && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
  return idOf(doc["document_id"]) || idOf(doc["documentId"]) || idOf(m["document_id"]) || idOf(m["documentId"]) || idOf(m["doc_id"]) || idOf(doc["id"]);
}

const refOf = (hash: string): string => CHUNK_REF_PREFIX + hash;

/** Texts of a JSON document list (`content`, else `text`, of each object) with their document ids, or none. */
function jsonDocumentTexts(raw: string): { text: string; document_id: string }[] {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  const out: { text: string; document_id: string }[] = [];
  for (const d of v) {
    if (d === null || typeof d !== "object" || Array.isArray(d)) continue;
    const rec = d as Record<string, unknown>;
    const text = typeof rec["content"] === "string" ? rec["content"] : typeof rec["text"] === "string" ? rec["text"] : null;
    if (text !== null) out.push({ text, document_id: documentIdOf(rec, rec["metadata"]) });
  }
  return out;
}

/** A reference's target (`#<index>` into `hashes`, or a hash) as a hash; '' for an index `hashes` lacks. */
const hashOf = (target: string, hashes: readonly string[]): string => (target.startsWith("#") ? (hashes[Number(target.slice(1))] ?? "") : target);

/** A flat value that is a reference: its target; else null. */
const FLAT_REF = /^ragmeter\.chunk_ref:(#\d+|[0-9a-f]{32})$/u;

/** A reference's JSON string literal inside a document list. */
const JSON_REF = /"ragmeter\.chunk_ref:(#\d+|[0-9a-f]{32})"/gu;

/**
 * Puts the texts back into one attribute value (a value without references unchanged); a hash not
 * in `texts` reads as `''`. `hashes`: the span's `chunk_hashes`, which `#<index>` references index.
 */
function attachValue(key: string, v: AttrValue, texts: ReadonlyMap<string, string>, hashes: readonly string[]): AttrValue {
  if (typeof v !== "string" || !v.includes(CHUNK_REF_PREFIX)) return v;
  if (FLAT_KEY.test(key)) {
    const m = FLAT_REF.exec(v);
    return m === null ? v : (texts.get(hashOf(m[1] as string, hashes)) ?? "");
  }
  return v.replace(JSON_REF, (_, t: string) => JSON.stringify(texts.get(hashOf(t, hashes)) ?? ""));
}

type Chunk = { readonly text: string; readonly document_id: string };

/** The keys of `attributes` whose text can be taken out; null when none, or when one already holds a reference prefix (the span then stays whole). */
function detachableKeys(attributes: Attrs): string[] | null {
  const keys: string[] = [];
  for (const [k, v] of Object.entries(attributes)) {
    if (typeof v !== "string" || !isChunkTextKey(k)) continue;
    if (v.includes(CHUNK_REF_PREFIX)) return null;
    if (v.length >= MIN_CHUNK_REF_CHARS) keys.push(k);
  }
  return keys.length === 0 ? null : keys;
}

/** A flat attribute's reference and chunk (document id from its siblings `….id` and `….metadata`). */
function detachFlat(attributes: Attrs, key: string, text: string, hash: (text: string) => string): { value: string; chunks: Map<string, Chunk> } {
  const h = hash(text);
  const base = key.slice(0, -"content".length);
  return { value: refOf(h), chunks: new Map([[h, { text, document_id: documentIdOf({ id: attributes[`${base}id`] }, attributes[`${base}metadata`]) }]]) };
}

/** A JSON document list with its texts' literals replaced by references, when putting them back gives `raw` exactly; else null. */
function detachJson(key: string, raw: string, hash: (text: string) => string): { value: string; chunks: Map<string, Chunk> } | null {
  let value = raw;
  const chunks = new Map<string, Chunk>();
  for (const d of jsonDocumentTexts(raw)) {
    if (d.text.length < MIN_CHUNK_REF_CHARS) continue;
    const parts = value.split(JSON.stringify(d.text));
    if (parts.length === 1) continue;
    const h = hash(d.text);
    value = parts.join(JSON.stringify(refOf(h)));
    if (!chunks.has(h)) chunks.set(h, d);
  }
  // Only when putting the texts back gives the exact value (escapes written otherwise stay inline).
  if (chunks.size === 0 || attachValue(key, value, new Map([...chunks].map(([h, d]) => [h, d.text])), []) !== raw) return null;
  return { value, chunks };
}

/**
 * Takes the chunks' texts out of a span's attributes (see the module's comment); `hash` is
 * `chunkHash`. Null when there is nothing to take out (the span is stored as it is).
 */
export function detachChunkTexts(attributes: Attrs, hash: (text: string) => string): DetachedChunks | null {
  const keys = detachableKeys(attributes);
  if (keys === null) return null;
  const texts = new Map<string, Chunk>();
  const out: Attrs = { ...attributes };
  const detached: string[] = [];
  for (const k of keys) {
    const v = attributes[k] as string;
    const d = FLAT_KEY.test(k) ? detachFlat(attributes, k, v, hash) : detachJson(k, v, hash);
    if (d === null) continue;
    out[k] = d.value;
    detached.push(k);
    for (const [h, c] of d.chunks) if (!texts.has(h)) texts.set(h, c);
  }
  if (texts.size === 0) return null;
  // The references by hash become references by index into the span's chunk_hashes (texts' keys).
  const index = new Map([...texts.keys()].map((h, i) => [h, `${CHUNK_REF_PREFIX}#${i}`]));
  for (const k of detached) out[k] = (out[k] as string).replace(HASH_REF, (ref: string) => index.get(ref.slice(CHUNK_REF_PREFIX.length)) ?? ref);
  return { attributes: out, texts };
}

/** A reference by hash, as {@link detachFlat} and {@link detachJson} write it first. */
const HASH_REF = /ragmeter\.chunk_ref:[0-9a-f]{32}/gu;

/**
 * A span's attributes with the texts of its references put back from `texts` (hash → text); a hash
 * `texts` lacks (its chunk gone: retention or `forget`) reads as a blank text. `hashes`: the span's
 * `chunk_hashes`. Call only for a span stored with references (`chunk_hashes` not empty): others are
 * returned as they are.
 */
export function attachChunkTexts(attributes: Attrs, texts: ReadonlyMap<string, string>, hashes: readonly string[]): Attrs {
  const out: Attrs = {};
  for (const [k, v] of Object.entries(attributes)) out[k] = isChunkTextKey(k) ? attachValue(k, v, texts, hashes) : v;
  return out;
}
