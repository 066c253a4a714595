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
  const r: RetrievalPart[] = [];
  const g: GenerationPart[] = [];
  let chainQuestion: SpanQuestion | null = null;
  let templateQuestion: SpanQuestion | null = null;
  /**
   * Indexed documents through the one normaliser; what they lack (LangChain writes the `Document`'s
   * id only into the RETRIEVER's `output.value`) is taken from the span's output documents, item by
   * item, when both lists have the same length. Documents read from `output.value` alone as bare
   * texts are a guess.
   */
  const docsAt = (s: StoredSpan, prefix: string): { docs: RawDocument[]; incomplete: IncompleteContent[]; bare: boolean } => {
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
    const merged = docs.map((d, i) => {
      const o = output[i] as RawDocument;
      return { id: d.id ?? o.id, document_id: d.document_id ?? o.document_id, text: d.text ?? o.text, score: d.score ?? o.score };
    });
    return { docs: merged, incomplete, bare: false };
  };
  const retrieval = (s: StoredSpan, prefix: string, explicitQuery: string | null, topK: number | null): RetrievalPart => {
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
  };
  const kindOf = (s: StoredSpan): string | undefined => str(s.attributes, "openinference.span.kind")?.toUpperCase();
  const wrappers = wrappingSpans(spans, (s) => kindOf(s) === "LLM");
  for (const s of spans) {
    const a = s.attributes;
    const kind = kindOf(s);
    if (kind === "RETRIEVER") {
      r.push(retrieval(s, "retrieval.documents", null, topKOf(a)));
    } else if (kind === "RERANKER") {
      r.push(retrieval(s, "reranker.output_documents", str(a, "reranker.query"), num(a, "reranker.top_k") ?? topKOf(a)));
    } else if (kind === "LLM") {
      const variables = record(jsonValue(a["llm.prompt_template.variables"]));
      const fromTemplate = TEMPLATE_QUESTION_KEYS.map((k) => variables?.[k]).find((v): v is string => typeof v === "string" && v !== "");
      if (fromTemplate !== undefined) templateQuestion = { reading: { text: fromTemplate, guess: null }, span: s, attribute: "llm.prompt_template.variables" };
      if (wrappers.has(s.span_id)) continue;
      const inputs = indexed(a, "llm.input_messages").map((m) => ({ role: str(m, "message.role"), content: oiMessageText(m) }));
      const outputs = indexed(a, "llm.output_messages").map((m) => ({ role: str(m, "message.role"), content: oiMessageText(m) }));
      const plainOutput = str(a, "output.mime_type") === "text/plain" ? str(a, "output.value") : null;
      const answer = lastMessageText(outputs, "assistant") ?? outputs[0]?.content ?? plainOutput;
      g.push({
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
      });
    } else if ((kind === "CHAIN" || kind === "AGENT") && s.parent_span_id === "") {
      const reading = queryReading(a["input.value"] ?? null);
      if (reading !== null) chainQuestion = { reading, span: s, attribute: "input.value" };
    }
  }
  return { r, g, chainQuestion, templateQuestion };
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
