import type { Attrs, AttrValue } from "./spans.js";

export { type IncompleteContent, incompleteJson } from "./jsonContent.js";

/** The attribute as a non-empty string, else null. */
export function str(a: Attrs, key: string): string | null {
  const v = a[key];
  return typeof v === "string" && v.length > 0 ? v : null;
}

/**
 * The attribute as an exact non-negative integer in decimal (64-bit values arrive as decimal
 * strings when they exceed 2^53), else null: never rounded through a float.
 */
export function uint(a: Attrs, key: string): string | null {
  const v = a[key];
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return String(v);
  if (typeof v === "string" && /^\d{1,20}$/.test(v.trim()) && BigInt(v.trim()) < 2n ** 64n) return BigInt(v.trim()).toString();
  return null;
}

/** The attribute as a finite number (numeric strings accepted), else null. */
export function num(a: Attrs, key: string): number | null {
  const v = a[key];
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** Parses a JSON attribute value (a string holding JSON), or returns structured values as they are. */
export function jsonValue(v: AttrValue | undefined): unknown {
  if (typeof v !== "string") return v ?? null;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return null;
  }
}

/** A plain record, or null. */
export function record(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** First string among the values, else null. */
function firstString(...vs: unknown[]): string | null {
  for (const v of vs) if (typeof v === "string") return v;
  return null;
}

/**
 * Text of a chat message in any of the shapes in use: a string; `{content: string}`;
 * `{content: [{type: "text", text}]}` (OpenAI, AI SDK); `{parts: [{type: "text", content}]}` (OTel
 * GenAI). Null when there is no text.
 */
export function messageText(m: unknown): string | null {
  if (typeof m === "string") return m;
  const r = record(m);
  if (!r) return null;
  const fromParts = (parts: unknown): string | null => {
    if (!Array.isArray(parts)) return null;
    const texts = parts
      .map((p) => (typeof p === "string" ? p : record(p)))
      .map((p) => (typeof p === "string" ? p : p && (p["type"] === undefined || p["type"] === "text") ? firstString(p["content"], p["text"]) : null))
      .filter((t): t is string => t !== null);
    return texts.length > 0 ? texts.join("") : null;
  };
  if (typeof r["content"] === "string") return r["content"];
  return fromParts(r["content"]) ?? fromParts(r["parts"]) ?? (typeof r["text"] === "string" ? r["text"] : null) ?? messageText(r["message"]);
}

/** Role of a chat message, lower-case, or null. */
function messageRole(m: unknown): string | null {
  const r = record(m);
  const role = r ? firstString(r["role"], record(r["message"])?.["role"]) : null;
  return role === null ? null : role.toLowerCase();
}

/** Text of the last message with `role` in a list of messages. */
export function lastMessageText(messages: unknown, role: string): string | null {
  if (!Array.isArray(messages)) return null;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messageRole(messages[i]) === role) {
      const t = messageText(messages[i]);
      if (t !== null) return t;
    }
  }
  return null;
}

/** A retrieved document normalised from any convention; `text` null when content was not captured. */
export interface RawDocument {
  /** The chunk id as recorded; null when the item has none (never a position). */
  readonly id: string | null;
  readonly document_id: string | null;
  readonly text: string | null;
  readonly score: number | null;
}

/** A Python object's repr (`<NodeWithScore(node=TextNode(id_=…), score=0.8)>`): no content, never a document's text. */
const PYTHON_REPR = /^<[A-Za-z_][\w.]*[ (].*>$/su;

/** LangChain's serialized form `{lc, type: "constructor", id: [..., "Document"], kwargs}`: the kwargs; other records as they are. */
function lcKwargs(r: Record<string, unknown> | null): Record<string, unknown> | null {
  if (r === null || r["type"] !== "constructor" || !("lc" in r)) return r;
  return record(r["kwargs"]) ?? r;
}

/** Keys under which a tool or task result commonly holds its document list. */
const DOCUMENT_LIST_KEYS = ["documents", "results", "chunks", "contexts", "nodes", "source_nodes"] as const;

/**
 * The one document normaliser (every convention and shape, design §4): `{id, document_id,
 * content|text|pageContent|page_content, score, metadata: {id|chunk_id, document_id|source, score}}`
 * (OTel GenAI, ours, LangChain `Document`, plain JSON), LlamaIndex `{node: {id_, text, metadata},
 * score}`, OpenInference `{"document.id", "document.content", "document.score", "document.metadata"}`
 * (metadata as a JSON string), LangChain's serialized `{lc, type: "constructor", kwargs}`, a bare
 * string (not a Python repr). Null when it has neither id nor text. An item without an id keeps a
 * null id: an id is never made from a position.
 */
export function documentOf(v: unknown): RawDocument | null {
  const outer0 = lcKwargs(record(v));
  if (!outer0) return typeof v === "string" && !PYTHON_REPR.test(v) ? { id: null, document_id: null, text: v, score: null } : null;
  // OpenInference `document.*` keys (indexed attributes grouped by `indexed`).
  const outer =
    "document.id" in outer0 || "document.content" in outer0 || "document.metadata" in outer0 || "document.score" in outer0
      ? { id: outer0["document.id"], content: outer0["document.content"], score: outer0["document.score"], metadata: outer0["document.metadata"] }
      : outer0;
  // LlamaIndex NodeWithScore: the node carries id, text and metadata; the score sits beside it.
  const r = record(outer["node"]) ? { ...(record(outer["node"]) as Record<string, unknown>), score: outer["score"] } : outer;
  const meta = record(r["metadata"]) ?? record(jsonValue(r["metadata"] as AttrValue)) ?? (record(r["extra_info"]) as Record<string, unknown> | null);
  const idOf = (x: unknown): string | undefined => (typeof x === "string" && x !== "" ? x : typeof x === "number" && Number.isFinite(x) ? String(x) : undefined);
  const id = firstString(idOf(r["id"]), idOf(r["id_"]), idOf(r["chunk_id"]), idOf(r["chunkId"]), idOf(meta?.["chunk_id"]), idOf(meta?.["id"]));
  const text = firstString(r["content"], r["text"], r["pageContent"], r["page_content"], r["document"]);
  // The document a chunk belongs to (design §4): an explicit document id first, then LlamaIndex's
  // source node (`ref_doc_id`, relationship "1" in a node's JSON), then where a loader says it came
  // from (`source`: LangChain's file path or URL; `file_path`, `file_name`: LlamaIndex readers).
  const sourceNode = record(record(r["relationships"])?.["1"])?.["node_id"];
  const documentId = firstString(
    idOf(r["document_id"]),
    idOf(r["documentId"]),
    idOf(meta?.["document_id"]),
    idOf(meta?.["documentId"]),
    idOf(meta?.["doc_id"]),
    idOf(r["ref_doc_id"]),
    idOf(sourceNode),
    idOf(meta?.["source"]),
    idOf(meta?.["file_path"]),
    idOf(meta?.["file_name"]),
  );
  const scoreRaw = r["score"] ?? r["relevance_score"] ?? r["relevanceScore"] ?? r["similarity"] ?? meta?.["score"] ?? meta?.["relevance_score"];
  const score = typeof scoreRaw === "number" ? scoreRaw : typeof scoreRaw === "string" && scoreRaw.trim() !== "" && Number.isFinite(Number(scoreRaw)) ? Number(scoreRaw) : null;
  if (id === null && text === null) return null;
  return { id, document_id: documentId, text, score };
}

/**
 * Documents from a JSON array (or an object holding one under `documents`, `results`, `chunks`,
 * `contexts`, `nodes` or `source_nodes`), in order; null when the value is not a document list.
 */
export function documentsOf(v: unknown): RawDocument[] | null {
  const r = record(v);
  const listKey = r ? DOCUMENT_LIST_KEYS.find((k) => Array.isArray(r[k])) : undefined;
  const arr = Array.isArray(v) ? v : r && listKey !== undefined ? (r[listKey] as unknown[]) : null;
  if (!arr) return null;
  if (arr.length === 0) return [];
  // Entries may be JSON strings of documents (OpenLLMetry's LlamaIndex nodes).
  const docs = arr.map((x) => documentOf(typeof x === "string" && x.trimStart().startsWith("{") ? (record(jsonValue(x)) ?? x) : x));
  return docs.every((d): d is RawDocument => d !== null) ? docs : null;
}

/**
 * Indexed attributes `prefix.<i>.suffix…` (OpenInference, OpenLLMetry) grouped by the integer i,
 * in numeric order (index 10 after 9): returns, per index, the attributes under it with the
 * `prefix.<i>.` removed.
 */
export function indexed(a: Attrs, prefix: string): Attrs[] {
  const groups = new Map<number, Attrs>();
  const p = `${prefix}.`;
  for (const [k, v] of Object.entries(a)) {
    if (!k.startsWith(p)) continue;
    const rest = k.slice(p.length);
    const dot = rest.indexOf(".");
    const idx = Number(dot < 0 ? rest : rest.slice(0, dot));
    if (!Number.isInteger(idx) || idx < 0) continue;
    const g = groups.get(idx) ?? {};
    g[dot < 0 ? "" : rest.slice(dot + 1)] = v;
    groups.set(idx, g);
  }
  return [...groups.entries()].sort((x, y) => x[0] - y[0]).map(([, g]) => g);
}
