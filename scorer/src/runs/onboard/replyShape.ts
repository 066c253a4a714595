// `ragmeter init`: from one parsed reply of a RAG service, the JSONPaths of its answer, its
// contexts (id, document id, text, score) and its token usage, as a target config's `response`
// (design §2, "Target config"). Pure: the reply in, the proposal out.

/** A JSON value's path as a list of keys and indices. */
type Key = string | number;

/** The proposed mapping of one reply, with the values it found (for the user to check). */
export interface ReplyMapping {
  readonly answer: { readonly path: string; readonly value: string };
  readonly contexts: {
    readonly path: string;
    readonly count: number;
    readonly id: string;
    readonly document_id: string | null;
    readonly text: string;
    readonly score: string | null;
  } | null;
  /** Token usage fields found outside the contexts (prompt/input and completion/output tokens). */
  readonly usage: { readonly input_tokens: string | null; readonly output_tokens: string | null };
}

/** Why no mapping could be proposed. */
export type ShapeResult = { readonly ok: true; readonly mapping: ReplyMapping } | { readonly ok: false; readonly reason: string };

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/u;

/** A JSONPath (`$.a.b[0]`, `$['odd key']`) of `keys` from `$`. */
export function jsonPath(keys: readonly Key[]): string {
  return `$${keys.map((k) => (typeof k === "number" ? `[${k}]` : IDENT.test(k) ? `.${k}` : `['${k.replace(/\\/gu, "\\\\").replace(/'/gu, "\\'")}']`)).join("")}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Words of a string (letters or digits in a row). */
const wordCount = (s: string): number => s.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0).length;

/** Reads like prose: at least three words and a space (not an id, a URL or a hash). */
const prose = (s: string): boolean => /\s/u.test(s.trim()) && wordCount(s) >= 3;

const ANSWER_KEYS = /^(answer|response|output|result|text|content|message|reply|completion|generation|output_text)$/iu;
const CONTEXTS_KEYS = /^(contexts?|sources?|source_nodes|source_documents|documents?|docs|chunks|passages|results|retrieved|references|citations|hits|matches|nodes)$/iu;
const TEXT_KEYS = /^(text|content|page_content|chunk|passage|snippet|body|document)$/iu;
const ID_KEYS = /^(id|_id|id_|chunk_id|node_id|uuid|chunkid|nodeid|key|chunk)$/iu;
const DOC_KEYS = /^(document_id|doc_id|documentid|docid|doc|document|source|source_id|file_name|filename|file|file_path|filepath|path|url|uri|title)$/iu;
const SCORE_KEYS = /^(score|similarity|relevance|relevance_score|similarity_score|_score|rank_score)$/iu;
const INPUT_TOKEN_KEYS = /^(prompt_tokens|input_tokens|prompttokens|inputtokens|prompt_token_count|input_token_count)$/iu;
const OUTPUT_TOKEN_KEYS = /^(completion_tokens|output_tokens|completiontokens|outputtokens|candidates_token_count|output_token_count)$/iu;

/** Every leaf (string or number) of `value` with its path, arrays walked by index, to `depth`. */
function leaves(value: unknown, at: readonly Key[], depth: number, out: { path: Key[]; value: string | number }[]): void {
  if (typeof value === "string" || typeof value === "number") {
    out.push({ path: [...at], value });
    return;
  }
  if (depth === 0) return;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) leaves(v, [...at, i], depth - 1, out);
  } else if (isObject(value)) for (const [k, v] of Object.entries(value)) leaves(v, [...at, k], depth - 1, out);
}

/** Every array of objects in `value` with its path. */
function objectArrays(value: unknown, at: readonly Key[], depth: number, out: { path: Key[]; items: Record<string, unknown>[] }[]): void {
  if (depth === 0) return;
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isObject)) out.push({ path: [...at], items: value as Record<string, unknown>[] });
    for (const [i, v] of value.entries()) objectArrays(v, [...at, i], depth - 1, out);
  } else if (isObject(value)) for (const [k, v] of Object.entries(value)) objectArrays(v, [...at, k], depth - 1, out);
}

const lastKey = (p: readonly Key[]): string => {
  for (let i = p.length - 1; i >= 0; i--) if (typeof p[i] === "string") return p[i] as string;
  return "";
};

/** A field inside every context: its path relative to the context, and its values. */
interface Field {
  readonly path: Key[];
  readonly values: (string | number)[];
}

/** The fields of a list of contexts that every context has (leaves to depth 3, no array indices). */
function commonFields(items: readonly Record<string, unknown>[]): Field[] {
  const byPath = new Map<string, Field>();
  items.forEach((item, n) => {
    const found: { path: Key[]; value: string | number }[] = [];
    leaves(item, [], 3, found);
    for (const f of found) {
      if (f.path.some((k) => typeof k === "number")) continue;
      const key = JSON.stringify(f.path);
      const had = byPath.get(key);
      if (n === 0) byPath.set(key, { path: f.path, values: [f.value] });
      else if (had && had.values.length === n) had.values.push(f.value);
    }
  });
  return [...byPath.values()].filter((f) => f.values.length === items.length);
}

const meanLength = (vs: readonly (string | number)[]): number => vs.reduce<number>((a, v) => a + String(v).length, 0) / Math.max(1, vs.length);

/** The contexts of a reply: the array of objects whose elements carry the most text, named like contexts first. */
function contextsOf(reply: unknown): { path: Key[]; items: Record<string, unknown>[]; text: Field; id: Field | null; doc: Field | null; score: Field | null } | null {
  const arrays: { path: Key[]; items: Record<string, unknown>[] }[] = [];
  objectArrays(reply, [], 4, arrays);
  let best: ReturnType<typeof contextsOf> = null;
  let bestRank = -1;
  for (const a of arrays) {
    const fields = commonFields(a.items);
    const texts = fields.filter((f) => f.values.every((v) => typeof v === "string") && f.values.some((v) => prose(String(v))));
    if (texts.length === 0) continue;
    // the text: a text-like name first, then the longest on average
    const text = [...texts].sort(
      (x, y) => Number(TEXT_KEYS.test(lastKey(y.path))) - Number(TEXT_KEYS.test(lastKey(x.path))) || meanLength(y.values) - meanLength(x.values),
    )[0] as Field;
    const rest = fields.filter((f) => f !== text);
    const distinct = (f: Field): boolean => new Set(f.values.map(String)).size === f.values.length;
    const shallow = (f: Field): number => f.path.length;
    const id = rest.filter((f) => ID_KEYS.test(lastKey(f.path)) && distinct(f) && !f.values.some((v) => prose(String(v)))).sort((x, y) => shallow(x) - shallow(y))[0] ?? null;
    const doc =
      rest
        .filter(
          (f) =>
            f !== id && DOC_KEYS.test(lastKey(f.path)) && f.values.every((v) => typeof v === "string" || typeof v === "number") && !f.values.some((v) => String(v).length > 300),
        )
        .sort((x, y) => docRank(lastKey(x.path)) - docRank(lastKey(y.path)) || shallow(x) - shallow(y))[0] ?? null;
    const score = rest.filter((f) => SCORE_KEYS.test(lastKey(f.path)) && f.values.every((v) => typeof v === "number")).sort((x, y) => shallow(x) - shallow(y))[0] ?? null;
    const rank = (CONTEXTS_KEYS.test(lastKey(a.path)) ? 1_000_000 : 0) + (id !== null || doc !== null ? 100_000 : 0) + meanLength(text.values);
    if (rank > bestRank) {
      bestRank = rank;
      best = { path: a.path, items: a.items, text, id, doc, score };
    }
  }
  return best;
}

/** Document-id names in order of preference: an explicit id first, a title last. */
function docRank(key: string): number {
  const order = [
    "document_id",
    "doc_id",
    "documentid",
    "docid",
    "source_id",
    "doc",
    "document",
    "source",
    "file_path",
    "filepath",
    "file_name",
    "filename",
    "file",
    "path",
    "url",
    "uri",
    "title",
  ];
  const i = order.indexOf(key.toLowerCase());
  return i === -1 ? order.length : i;
}

const within = (p: readonly Key[], prefix: readonly Key[]): boolean => prefix.length <= p.length && prefix.every((k, i) => p[i] === k);

/** The contexts found in a reply (see {@link contextsOf}). */
type Contexts = NonNullable<ReturnType<typeof contextsOf>>;

/**
 * The answer among the prose strings: a field named like an answer first, then the longest; a
 * named answer field wins only against prose of comparable length (a long unnamed text is the answer).
 */
function chooseAnswer(answers: readonly { path: Key[]; value: string }[]): { path: Key[]; value: string } {
  const answer = [...answers].sort((x, y) => Number(ANSWER_KEYS.test(lastKey(y.path))) - Number(ANSWER_KEYS.test(lastKey(x.path))) || y.value.length - x.value.length)[0] as {
    path: Key[];
    value: string;
  };
  const longest = [...answers].sort((x, y) => y.value.length - x.value.length)[0] as { path: Key[]; value: string };
  return longest.value.length > 3 * answer.value.length ? longest : answer;
}

/** The contexts' paths (an id, else the document id, as the id); "no id" when they have neither. */
function contextsMapping(ctx: Contexts): NonNullable<ReplyMapping["contexts"]> | "no id" {
  const id = ctx.id ?? ctx.doc;
  if (id === null) return "no id";
  return {
    path: `${jsonPath(ctx.path)}[*]`,
    count: ctx.items.length,
    id: jsonPath(id.path),
    document_id: ctx.doc !== null && ctx.doc !== id ? jsonPath(ctx.doc.path) : null,
    text: jsonPath(ctx.text.path),
    score: ctx.score !== null ? jsonPath(ctx.score.path) : null,
  };
}

/**
 * Proposes a target config's `response` for one parsed reply: the answer is the longest string that
 * reads like prose outside the contexts (a name such as `answer` or `response` wins a tie of
 * prose); the contexts the array of objects with text-like fields (a name such as `sources` first),
 * with an id, a document id and a score found by their names inside them; token usage by
 * `prompt_tokens`/`input_tokens`-like names anywhere else. A string equal to `question` (a reply
 * that echoes its input, as a retrieval chain's `{input, context, answer}` does) is not an answer.
 * @returns the mapping, or why none (no answer-like text; contexts without an id or document id).
 */
export function proposeMapping(reply: unknown, opts: { readonly question?: string } = {}): ShapeResult {
  if (!isObject(reply) && !Array.isArray(reply)) return { ok: false, reason: `the reply is a JSON ${reply === null ? "null" : typeof reply}, not an object` };
  const ctx = contextsOf(reply);
  const all: { path: Key[]; value: string | number }[] = [];
  leaves(reply, [], 8, all);
  const outside = all.filter((l) => ctx === null || !within(l.path, ctx.path));
  const echo = opts.question?.trim();
  const answers = outside.filter((l): l is { path: Key[]; value: string } => typeof l.value === "string" && prose(l.value) && l.value.trim() !== echo);
  if (answers.length === 0) {
    const strings = outside.filter((l) => typeof l.value === "string").map((l) => jsonPath(l.path));
    return {
      ok: false,
      reason: `no text that looks like an answer (a string of three or more words outside the contexts)${strings.length > 0 ? `; string fields: ${strings.slice(0, 6).join(", ")}` : ""}`,
    };
  }
  const chosen = chooseAnswer(answers);
  const usageOf = (re: RegExp): string | null => {
    const f = outside.find((l) => typeof l.value === "number" && re.test(lastKey(l.path)));
    return f ? jsonPath(f.path) : null;
  };
  const contexts = ctx === null ? null : contextsMapping(ctx);
  if (contexts === "no id")
    return { ok: false, reason: `the contexts at ${jsonPath((ctx as Contexts).path)} have no id-like field (id, chunk_id, node_id, document_id, source, …)` };
  return {
    ok: true,
    mapping: {
      answer: { path: jsonPath(chosen.path), value: chosen.value },
      contexts,
      usage: { input_tokens: usageOf(INPUT_TOKEN_KEYS), output_tokens: usageOf(OUTPUT_TOKEN_KEYS) },
    },
  };
}
