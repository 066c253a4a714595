import { bareTexts, endOf, type GenerationPart, type Guess, guessOf, incompleteOf, type RetrievalPart, type SpanQuestion } from "./parts.js";
import { queryReading } from "./query.js";
import type { StoredSpan } from "./spans.js";
import { documentsOf, indexed, jsonValue, lastMessageText, type RawDocument, record, str, uint } from "./values.js";

const GENAI_GENERATION_OPS = new Set(["chat", "text_completion", "generate_content"]);
const INPUT = "traceloop.entity.input";
const OUTPUT = "traceloop.entity.output";

/**
 * OpenLLMetry (Traceloop): tasks/tools whose output (`traceloop.entity.output`) is a document list,
 * their query from `traceloop.entity.input` (a LangChain retriever's `{query}`, a LlamaIndex
 * retriever's `{str_or_query_bundle: {query_str}}`); LLM spans in the older `gen_ai.prompt.<i>` /
 * `gen_ai.completion.<i>` form (current releases write OTel GenAI `gen_ai.input.messages` /
 * `gen_ai.output.messages`, read as OTel GenAI). A task or workflow given `nodes` with ids (LlamaIndex's
 * response synthesizer) lists the documents the answer was written from. A task whose output is a
 * list of bare texts (a text splitter's, a concatenated context) is only a candidate, read as a guess
 * when nothing else is.
 */
export function openLlmetry(spans: readonly StoredSpan[]): { r: RetrievalPart[]; g: GenerationPart[]; workflowQuestion: SpanQuestion | null } {
  const r: RetrievalPart[] = [];
  const g: GenerationPart[] = [];
  let workflowQuestion: SpanQuestion | null = null;
  for (const s of spans) {
    const a = s.attributes;
    if (GENAI_GENERATION_OPS.has(str(a, "gen_ai.operation.name") ?? "")) continue; // read as OTel GenAI
    const gen = generation(s);
    if (gen !== null) {
      g.push(gen);
      continue;
    }
    const kind = str(a, "traceloop.span.kind");
    if (kind === null) continue;
    const query = queryReading(jsonValue(a[INPUT]));
    if (kind === "workflow" && s.parent_span_id === "" && query !== null) workflowQuestion = { reading: query, span: s, attribute: INPUT };
    const ret = retrieval(s, kind, query, spans);
    if (ret !== null) r.push(ret);
  }
  return { r, g, workflowQuestion };
}

/** An LLM span in the older `gen_ai.prompt.<i>` / `gen_ai.completion.<i>` form (or with `llm.request.type`); null for any other span. */
function generation(s: StoredSpan): GenerationPart | null {
  const a = s.attributes;
  const prompts = indexed(a, "gen_ai.prompt").map((m) => ({ role: str(m, "role"), content: str(m, "content") }));
  const completions = indexed(a, "gen_ai.completion").map((m) => ({ role: str(m, "role"), content: str(m, "content") }));
  if (prompts.length === 0 && completions.length === 0 && str(a, "llm.request.type") === null) return null;
  return {
    convention: "openllmetry",
    question: lastMessageText(prompts, "user"),
    answer: lastMessageText(completions, "assistant") ?? completions[0]?.content ?? null,
    model: str(a, "gen_ai.response.model") ?? str(a, "gen_ai.request.model") ?? str(a, "llm.response.model") ?? str(a, "llm.request.model"),
    input_tokens: uint(a, "gen_ai.usage.input_tokens") ?? uint(a, "gen_ai.usage.prompt_tokens") ?? uint(a, "llm.usage.prompt_tokens"),
    output_tokens: uint(a, "gen_ai.usage.output_tokens") ?? uint(a, "gen_ai.usage.completion_tokens") ?? uint(a, "llm.usage.completion_tokens"),
    end: endOf(s),
    span_id: s.span_id,
    span_name: s.name,
    question_attribute: "gen_ai.prompt",
    incomplete: [],
  };
}

/** A task's or tool's output documents (or the nodes a task or workflow was given) as a retrieval; null without documents or for another kind of span. */
function retrieval(s: StoredSpan, kind: string, query: ReturnType<typeof queryReading>, spans: readonly StoredSpan[]): RetrievalPart | null {
  if (kind !== "task" && kind !== "tool" && kind !== "workflow") return null;
  const a = s.attributes;
  const docs = (kind === "workflow" ? null : usable(documentsOf(jsonValue(a[OUTPUT])))) ?? nodesGiven(a[INPUT]);
  if (docs === null) return null;
  const bare = bareTexts(docs);
  const guesses: Guess[] = [];
  if (query?.guess) guesses.push(guessOf("question", s, INPUT, query.guess));
  if (bare) guesses.push(guessOf("retrieval", s, OUTPUT, `a list of ${docs.length} bare text(s), no ids or scores, read as the retrieved documents`));
  return {
    convention: "openllmetry",
    query: query?.text ?? null,
    queryIsQuestion: true,
    docs: bare ? docs : withRepeatedIds(docs, spans),
    end: endOf(s),
    span_id: s.span_id,
    incomplete: incompleteOf(s, a, [OUTPUT]),
    topK: null,
    guesses,
    preferred: !bare,
  };
}

/** A document list with some text or document id, else null. */
const usable = (docs: RawDocument[] | null): RawDocument[] | null =>
  docs !== null && docs.length > 0 && docs.some((d) => d.text !== null || d.document_id !== null) ? docs : null;

/**
 * The nodes a step was given (LlamaIndex's response synthesizer: `{query, nodes: [NodeWithScore JSON]}`),
 * when they carry ids: the documents the answer was written from.
 */
function nodesGiven(input: StoredSpan["attributes"][string] | undefined): RawDocument[] | null {
  const docs = usable(documentsOf(record(jsonValue(input))?.["nodes"] ?? null));
  return docs?.every((d) => d.id !== null) ? docs : null;
}

/**
 * Chunk ids the retriever's output lacks (OpenLLMetry writes a LangChain `Document` without its id)
 * from another span of the trace that lists the same documents, with ids: same number, same texts in
 * the same order (the next step's input, which holds the serialized `Document`s).
 */
function withRepeatedIds(docs: RawDocument[], spans: readonly StoredSpan[]): RawDocument[] {
  if (docs.every((d) => d.id !== null)) return docs;
  for (const s of spans) {
    for (const key of [INPUT, OUTPUT]) {
      const other = sameDocumentsWithIds(s.attributes[key], docs);
      if (other !== null) return docs.map((d, i) => withIdsOf(d, other[i] as RawDocument));
    }
  }
  return docs;
}

/** The document list in an attribute (itself, or its `inputs`, `outputs` or `documents`) with some ids and the same texts as `docs`, in order; null without one. */
function sameDocumentsWithIds(value: StoredSpan["attributes"][string] | undefined, docs: readonly RawDocument[]): RawDocument[] | null {
  const v = jsonValue(value);
  const rec = record(v);
  for (const candidate of [v, rec?.["inputs"], rec?.["outputs"], rec?.["documents"]]) {
    const other = Array.isArray(candidate) ? documentsOf(candidate) : null;
    if (other === null || other.length !== docs.length || !other.some((d) => d.id !== null)) continue;
    if (other.every((d, i) => d.text !== null && d.text === docs[i]?.text)) return other;
  }
  return null;
}

/** A document's ids and score, each taken from `o` when it lacks them. */
function withIdsOf(d: RawDocument, o: RawDocument): RawDocument {
  return { id: d.id ?? o.id, document_id: d.document_id ?? o.document_id, text: d.text, score: d.score ?? o.score };
}
