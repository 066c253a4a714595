import { type GenerationPart, type Guess, guessOf, type RetrievalPart, type SpanQuestion } from "./parts.js";
import type { RawDocument } from "./values.js";

/** A question read with the guess it took, if any. */
export interface QuestionReading {
  readonly text: string;
  readonly guess: Guess | null;
}

/** True when a user message holds a retrieved text: a prompt rendered with the context, not the question. */
function rendersContext(message: string, docs: readonly RawDocument[]): boolean {
  return docs.some((d) => d.text !== null && d.text.trim().length >= 12 && message.includes(d.text.trim()));
}

/**
 * The question, from the first of these that reads with confidence: the retrieval's query (unless a
 * model wrote it, a tool call), the generation's last user message unless it holds the retrieved
 * context (a rendered prompt), the question a prompt template was filled with, the model-written
 * query, the root chain's or workflow's input. When none does, the first that reads at all, with its
 * guess; a rendered prompt is the last resort.
 */
export function questionOf(retrieval: RetrievalPart | null, generation: GenerationPart | null, spanQuestions: readonly (SpanQuestion | null)[]): QuestionReading | null {
  const candidates: QuestionReading[] = [];
  const add = (text: string | null | undefined, guess: Guess | null) => {
    if (text !== null && text !== undefined && text !== "") candidates.push({ text, guess });
  };
  const queryGuess = retrieval?.guesses.find((x) => x.field === "question") ?? null;
  if (retrieval?.queryIsQuestion) add(retrieval.query, queryGuess);
  const rendered = typeof generation?.question === "string" && rendersContext(generation.question, retrieval?.docs ?? []);
  if (!rendered) add(generation?.question, null);
  if (!retrieval?.queryIsQuestion) add(retrieval?.query, queryGuess);
  for (const q of spanQuestions) {
    if (q) add(q.reading.text, q.reading.guess ? guessOf("question", q.span, q.attribute, q.reading.guess) : null);
  }
  if (rendered && generation) {
    const reason = "the last user message holds the retrieved context (a rendered prompt) and no query was recorded elsewhere";
    add(generation.question, { field: "question", span: `${generation.span_name} (${generation.span_id})`, attribute: generation.question_attribute, reason });
  }
  return candidates.find((c) => c.guess === null) ?? candidates[0] ?? null;
}
