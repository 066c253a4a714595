import type { QueryReading } from "./query.js";
import type { StoredSpan } from "./spans.js";
import { type IncompleteContent, incompleteJson, num, type RawDocument } from "./values.js";

/** Span conventions the scorer reads (design §4), in precedence order. */
export type Convention = "otel-genai" | "openinference" | "openllmetry" | "vercel-ai";

/**
 * A reading taken from a fallback instead of the attribute that holds it (design §4): a rendered
 * prompt as the question, a list of bare texts as the retrieval, a guessed input field. The metrics
 * that need the field are `uncertain_reading` (design §5), naming the span and attribute.
 */
export interface Guess {
  readonly field: "question" | "retrieval";
  /** `<span name> (<span id>)`. */
  readonly span: string;
  readonly attribute: string;
  readonly reason: string;
}

/** A guess about a field read from an attribute of a span. */
export const guessOf = (field: Guess["field"], s: StoredSpan, attribute: string, reason: string): Guess => ({ field, span: `${s.name} (${s.span_id})`, attribute, reason });

/** A question read from a span's attribute, with the guess it took if any. */
export interface SpanQuestion {
  readonly reading: QueryReading;
  readonly span: StoredSpan;
  readonly attribute: string;
}

/** A retrieval one convention read from one span. */
export interface RetrievalPart {
  readonly convention: Convention;
  readonly query: string | null;
  /**
   * False when the query was written by a model (a tool call's arguments), so it is not the user's
   * question: the generation's question wins then.
   */
  readonly queryIsQuestion: boolean;
  readonly docs: RawDocument[];
  readonly end: bigint;
  readonly span_id: string;
  readonly incomplete: IncompleteContent[];
  readonly topK: number | null;
  /** Fallbacks this reading took (its query, its documents). */
  readonly guesses: readonly Guess[];
  /** False when the span is only a candidate (its documents a list of bare texts): any retrieval that is not wins. */
  readonly preferred: boolean;
  /**
   * Set when the span is a retrieval whose documents were not recorded (the instrumentation records
   * them only when asked, e.g. AI SDK 7's rerank spans): why, and how to record them. Its `docs` is
   * empty; the retrieval metrics are `content_missing` (design §4, §5), never a zero.
   */
  readonly uncaptured?: string;
}

/** A generation one convention read from one span. */
export interface GenerationPart {
  readonly convention: Convention;
  /** The last user message. */
  readonly question: string | null;
  readonly answer: string | null;
  readonly model: string | null;
  readonly input_tokens: string | null;
  readonly output_tokens: string | null;
  readonly end: bigint;
  readonly span_id: string;
  readonly span_name: string;
  /** The attribute the question was read from. */
  readonly question_attribute: string;
  readonly incomplete: IncompleteContent[];
}

export const endOf = (s: StoredSpan): bigint => BigInt(s.end_time_unix_nano);

/** The attribute value length limit the resource declares (`otel.attribute_value_length_limit`), else null. */
function lengthLimit(s: StoredSpan): number | null {
  const v = num(s.resource_attributes, "otel.attribute_value_length_limit") ?? num(s.attributes, "otel.attribute_value_length_limit");
  return v !== null && v > 0 ? v : null;
}

/** The JSON-content attributes of a span that were cut off or do not parse. */
export function incompleteOf(s: StoredSpan, a: StoredSpan["attributes"], keys: readonly string[]): IncompleteContent[] {
  return keys.map((k) => incompleteJson(a[k], k, lengthLimit(s))).filter((x): x is IncompleteContent => x !== null);
}

/** `gen_ai.request.top_k` or `gen_ai.retrieval.top_k`. */
export const topKOf = (a: StoredSpan["attributes"]): number | null => num(a, "gen_ai.request.top_k") ?? num(a, "gen_ai.retrieval.top_k");

/** The latest-ending of some parts, null when none. */
export const latest = <T extends { end: bigint }>(xs: readonly T[]): T | null => xs.reduce<T | null>((best, x) => (best === null || x.end >= best.end ? x : best), null);

/** The retrieval of a convention: the latest-ending preferred one that found documents, else the latest preferred, else the latest candidate. */
export function bestRetrieval(xs: readonly RetrievalPart[]): RetrievalPart | null {
  const preferred = xs.filter((x) => x.preferred);
  return latest(preferred.filter((x) => x.docs.length > 0)) ?? latest(preferred) ?? latest(xs);
}

/** Items read from bare strings: no id, no document id, no score (a concatenated context, a splitter's output). */
export const bareTexts = (docs: readonly RawDocument[]): boolean => docs.length > 0 && docs.every((d) => d.id === null && d.document_id === null && d.score === null);
