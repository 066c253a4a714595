import { jsonValue, record } from "./values.js";

/** A query or question read from an input value, and whether it was found where one is written or guessed. */
export interface QueryReading {
  readonly text: string;
  /** Null when read from a plain string or a key that names a query; else why it is a guess. */
  readonly guess: string | null;
}

/**
 * Keys that name the query in the inputs instrumentations record: `query` (LangChain retrievers),
 * `query_str`, `query_bundle`, `str_or_query_bundle` (LlamaIndex), `inputs` (LangChain runnables
 * through OpenLLMetry), `question`, `input`, `q`.
 */
const QUERY_KEYS = ["query", "question", "query_str", "input", "inputs", "str_or_query_bundle", "query_bundle", "q"] as const;
/** Keys that hold what the framework says about a call (names, tags, run settings): never the query. */
const NOT_QUERY = new Set(["name", "tags", "metadata", "kwargs", "run_type", "run_id", "id", "lc", "type"]);

/**
 * The query in an input value: a string, JSON holding one, a record with one under a query key (at
 * any depth), a decorator's `{args: [query, …]}` or `{kwargs: {query}}`. Failing those, the first
 * string field other than names, tags and settings, marked as a guess; null when there is none.
 */
export function queryReading(v: unknown, depth = 0): QueryReading | null {
  if (depth > 4) return null;
  if (typeof v === "string") return stringReading(v, depth);
  const r = record(v);
  if (!r) return null;
  return keyedReading(r, depth) ?? kwargsReading(r) ?? firstTextGuess(r);
}

/** A string input: JSON holding the query (read again), else the string itself; null when empty. */
function stringReading(v: string, depth: number): QueryReading | null {
  const t = v.trim();
  if (t.startsWith("{") || t.startsWith('"')) {
    const parsed = jsonValue(v);
    if (parsed !== null && parsed !== v) return queryReading(parsed, depth + 1);
  }
  return v.length > 0 ? { text: v, guess: null } : null;
}

/** The query under a query key of a record (at any depth), else in its first `args`. */
function keyedReading(r: Record<string, unknown>, depth: number): QueryReading | null {
  for (const k of QUERY_KEYS) {
    if (!(k in r)) continue;
    const found = queryReading(r[k], depth + 1);
    if (found) return found;
  }
  const args = Array.isArray(r["args"]) ? (r["args"] as unknown[]) : [];
  return args.length > 0 ? queryReading(args[0], depth + 1) : null;
}

/** A decorator's `{kwargs: {query}}`: a non-empty string under a query key. */
function kwargsReading(r: Record<string, unknown>): QueryReading | null {
  const kwargs = record(r["kwargs"]);
  if (!kwargs) return null;
  for (const k of QUERY_KEYS) {
    const v = kwargs[k];
    if (typeof v === "string" && v !== "") return { text: v, guess: null };
  }
  return null;
}

/** The first string field other than names, tags and settings, marked as a guess. */
function firstTextGuess(r: Record<string, unknown>): QueryReading | null {
  const [key, first] = Object.entries(r).find(([k, x]) => !NOT_QUERY.has(k) && typeof x === "string" && x !== "") ?? [];
  return typeof first === "string" ? { text: first, guess: `the first text field (${key}) of an input without a query key` } : null;
}

/** The query text alone (a guess included), for callers that need no confidence. */
export function queryText(v: unknown): string | null {
  return queryReading(v)?.text ?? null;
}
