import { dspyAnswer } from "./dspy.js";
import { bareTexts, endOf, type GenerationPart, type Guess, guessOf, incompleteOf, type RetrievalPart, type SpanQuestion, topKOf } from "./parts.js";
import { queryReading } from "./query.js";
import type { StoredSpan } from "./spans.js";
import { documentOf, documentsOf, type IncompleteContent, indexed, jsonValue, lastMessageText, num, type RawDocument, record, str, uint } from "./values.js";

/** Text of an OpenInference message: `message.content`, else its `message.contents.<j>.message_content.text` parts. */
function oiMessageText(m: StoredSpan["attributes"]): string | null {
  const whole = str(m, "message.content");
  if (whole !== null) return whole;
  const parts = indexed(m, "message.contents")
    .filter((p) => (str(p, "message_content.type") ?? "text") === "text")
    .map((p) => str(p, "message_content.text"))
    .filter((t): t is string => t !== null);
  return parts.length > 0 ? parts.join("") : null;
}

/** Keys of `llm.prompt_template.variables` that hold the user's question (LlamaIndex `query_str`, LangChain prompts). */
const TEMPLATE_QUESTION_KEYS = ["query_str", "question", "query", "input"] as const;

/**
 * OpenInference: RETRIEVER / RERANKER spans with indexed documents; LLM spans with `llm.*` (a wrapper
 * LLM span that holds another, LlamaIndex's `OpenAI.predict` around `OpenAI.chat`, is not the
 * generation: the inner one has the messages and usage); the question a prompt template was
 * filled with (`llm.prompt_template.variables`), and the root chain's input.
 */
export function openInference(spans: readonly StoredSpan[]): {
  r: RetrievalPart[];
  g: GenerationPart[];
  chainQuestion: SpanQuestion | null;
  templateQuestion: SpanQuestion | null;
} {
  const wrappers = wrappingSpans(spans, (s) => kindOf(s) === "LLM");
  const llms = spans.filter((s) => kindOf(s) === "LLM");
  const rootChains = spans.filter((s) => (kindOf(s) === "CHAIN" || kindOf(s) === "AGENT") && s.parent_span_id === "");
  return {
    r: spans.flatMap((s) => (kindOf(s) === "RETRIEVER" ? [retrieverPart(s)] : kindOf(s) === "RERANKER" ? [rerankerPart(s)] : [])),
    g: llms.filter((s) => !wrappers.has(s.span_id)).map(generation),
    chainQuestion: lastFound(rootChains.map(chainQuestionOf)),
    templateQuestion: lastFound(llms.map(templateQuestionOf)),
  };
}

/** The last entry that is not null (null when none). */
const lastFound = <T>(xs: readonly (T | null)[]): T | null => xs.findLast((x) => x !== null) ?? null;

/** A RETRIEVER span's retrieval. */
const retrieverPart = (s: StoredSpan): RetrievalPart => retrieval(s, "retrieval.documents", null, topKOf(s.attributes));
/** A RERANKER span's retrieval: its output documents, query and top-k. */
const rerankerPart = (s: StoredSpan): RetrievalPart =>
  retrieval(s, "reranker.output_documents", str(s.attributes, "reranker.query"), num(s.attributes, "reranker.top_k") ?? topKOf(s.attributes));

/** The question a root chain or agent was given (`input.value`), null without one. */
function chainQuestionOf(s: StoredSpan): SpanQuestion | null {
  const reading = queryReading(s.attributes["input.value"] ?? null);
  return reading === null ? null : { reading, span: s, attribute: "input.value" };
}

/** A span's OpenInference kind, upper-cased. */
const kindOf = (s: StoredSpan): string | undefined => str(s.attributes, "openinference.span.kind")?.toUpperCase();

/**
 * Indexed documents through the one normaliser; what they lack (LangChain writes the `Document`'s
 * id only into the RETRIEVER's `output.value`) is taken from the span's output documents, item by
 * item, when both lists have the same length. Documents read from `output.value` alone as bare
 * texts are a guess.
 */
function docsAt(s: StoredSpan, prefix: string): { docs: RawDocument[]; incomplete: IncompleteContent[]; bare: boolean } {
  const a = s.attributes;
  const groups = indexed(a, prefix);
  const incomplete = [
    ...incompleteOf(s, a, ["output.value"]),
    ...groups.flatMap((d, i) =>
      incompleteOf(s, d, ["document.metadata"]).map((x) => ({
        ...x,
        attribute: `${prefix}.${i}.${x.attribute}`,
        reason: x.reason.replace(x.attribute, `${prefix}.${i}.${x.attribute}`),
      })),
    ),
  ];
  const docs = groups.map((d) => documentOf(d)).filter((d): d is RawDocument => d !== null);
  const output = documentsOf(jsonValue(a["output.value"] ?? null));
  if (docs.length === 0 && output !== null) return { docs: output, incomplete, bare: bareTexts(output) };
  if (output === null || output.length !== docs.length) return { docs, incomplete, bare: false };
  return { docs: docs.map((d, i) => mergeDocument(d, output[i] as RawDocument)), incomplete, bare: false };
}

/** A document's fields, each taken from the output document when the indexed one lacks it. */
function mergeDocument(d: RawDocument, o: RawDocument): RawDocument {
  return { id: d.id ?? o.id, document_id: d.document_id ?? o.document_id, text: d.text ?? o.text, score: d.score ?? o.score };
}

/** A RETRIEVER or RERANKER span's retrieval: its documents under `prefix`, the query given or read from `input.value`. */
function retrieval(s: StoredSpan, prefix: string, explicitQuery: string | null, topK: number | null): RetrievalPart {
  const query = explicitQuery !== null ? null : queryReading(s.attributes["input.value"] ?? null);
  const { docs, incomplete, bare } = docsAt(s, prefix);
  const guesses: Guess[] = [];
  if (query?.guess) guesses.push(guessOf("question", s, "input.value", query.guess));
  if (bare) guesses.push(guessOf("retrieval", s, "output.value", `no ${prefix}.<i> attributes: ${docs.length} bare text(s) from output.value read as the retrieved documents`));
  return {
    convention: "openinference",
    query: explicitQuery ?? query?.text ?? null,
    queryIsQuestion: true,
    docs,
    incomplete,
    end: endOf(s),
    span_id: s.span_id,
    topK,
    guesses,
    preferred: !bare,
  };
}

/** The question an LLM span's prompt template was filled with (`llm.prompt_template.variables`), null without one. */
function templateQuestionOf(s: StoredSpan): SpanQuestion | null {
  const variables = record(jsonValue(s.attributes["llm.prompt_template.variables"]));
  const fromTemplate = TEMPLATE_QUESTION_KEYS.map((k) => variables?.[k]).find((v): v is string => typeof v === "string" && v !== "");
  return fromTemplate === undefined ? null : { reading: { text: fromTemplate, guess: null }, span: s, attribute: "llm.prompt_template.variables" };
}

/** An LLM span's generation: messages, model and usage from `llm.*`. */
function generation(s: StoredSpan): GenerationPart {
  const a = s.attributes;
  const inputs = indexed(a, "llm.input_messages").map((m) => ({ role: str(m, "message.role"), content: oiMessageText(m) }));
  const outputs = indexed(a, "llm.output_messages").map((m) => ({ role: str(m, "message.role"), content: oiMessageText(m) }));
  const plainOutput = str(a, "output.mime_type") === "text/plain" ? str(a, "output.value") : null;
  const answer = lastMessageText(outputs, "assistant") ?? outputs[0]?.content ?? plainOutput;
  return {
    convention: "openinference",
    question: lastMessageText(inputs, "user"),
    answer: dspyAnswer(answer) ?? answer,
    model: str(a, "llm.model_name"),
    input_tokens: uint(a, "llm.token_count.prompt"),
    output_tokens: uint(a, "llm.token_count.completion"),
    end: endOf(s),
    span_id: s.span_id,
    span_name: s.name,
    question_attribute: "llm.input_messages",
    incomplete: [],
  };
}

/** The ids of the spans matching `is` that are an ancestor of another such span (a wrapper around the call). */
function wrappingSpans(spans: readonly StoredSpan[], is: (s: StoredSpan) => boolean): Set<string> {
  const byId = new Map(spans.map((s) => [s.span_id, s]));
  const out = new Set<string>();
  for (const s of spans) {
    if (!is(s)) continue;
    const seen = new Set<string>();
    for (let p = byId.get(s.parent_span_id); p !== undefined && !seen.has(p.span_id); p = byId.get(p.parent_span_id)) {
      seen.add(p.span_id);
      if (is(p)) out.add(p.span_id);
    }
  }
  return out;
}
