import type { Need, RetrievedItem } from "../domain/metric.js";
import type { Status } from "../domain/status.js";
import type { Guess, Interaction } from "../extract/interaction.js";

/** Whether a metric is computed, or the status (with its reason) it is stored with instead. */
export type Applicability = { readonly ok: true } | { readonly ok: false; readonly status: SkipStatus; readonly reason: string };

/** The statuses a metric gets when it is decided, before any judge call, that it cannot be computed. */
export type SkipStatus = Extract<Status, "not_applicable" | "content_missing" | "context_incomplete" | "uncertain_reading" | "not_sampled" | "budget_exhausted">;

/**
 * Whether the LLM judges may run on a live trace: true, false (outside the sampling rate), or the
 * status and reason its judged metrics get instead (`not_sampled`, `budget_exhausted`).
 */
export type JudgeGate = boolean | { readonly status: "not_sampled" | "budget_exhausted"; readonly reason: string };

/**
 * What is computed for one trace, by what a metric needs: `recall` the ranked retrieval (retrieval
 * metrics), `grounding` the answer with the retrieved texts, `relevance` the question and answer,
 * `context` the question with the retrieved texts, `answer` the answer text alone.
 */
export interface TracePlan {
  readonly recall: Applicability;
  readonly grounding: Applicability;
  readonly relevance: Applicability;
  readonly context: Applicability;
  readonly answer: Applicability;
}

/** A key of {@link TracePlan}. */
export type PlanKey = keyof TracePlan;

/** Which entry of a trace's plan decides whether a metric with these needs applies. */
export function planKeyOf(needs: readonly Need[]): PlanKey {
  const has = (n: Need) => needs.includes(n);
  if (has("answer")) return has("chunks") ? "grounding" : has("question") ? "relevance" : "answer";
  return has("chunks") ? "context" : "recall";
}

const OK: Applicability = { ok: true };
const no = (status: SkipStatus, reason: string): Applicability => ({ ok: false, status, reason });
const CAPTURE = "set OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true";

/**
 * Decides, from the interaction alone and before any judge is called, which metrics of a trace can
 * be computed (design §5): a metric that cannot gets `not_applicable` (the trace has no retrieval or
 * no generation), `content_missing` (content not captured: texts or the answer, or a retrieval span
 * that records no documents at all, the span and the option that records them named in the reason),
 * `context_incomplete` (content cut off or unparseable, the attribute named in the reason; or capped
 * by the instrumentation),
 * `uncertain_reading` (the question or the retrieval it needs was read from a fallback, the span and
 * attribute named in the reason: never `ok` on a guess, and no judge call), `not_sampled` (live
 * trace outside the judge sampling rate) or `budget_exhausted` (its service's judge budget used). Retrieval metrics need only the
 * retrieval; grounding needs the retrieval and the answer; relevance needs the question and answer
 * of a RAG trace (a generation is never judged without a retrieval span; one whose documents were
 * not recorded still makes the trace a RAG trace).
 * @param items the retrieved items with their texts (null when the trace has no retrieval or a text is missing).
 * @param live true without a golden item (recall needs one).
 * @param sampledIn false when the LLM judges are not to run on this live trace, or the status and reason they get instead.
 */
export function planTrace(i: Interaction, items: readonly RetrievedItem[] | null, live: boolean, sampledIn: JudgeGate): TracePlan {
  const retrievalCut = i.incomplete.find((x) => isRetrievalAttribute(x.attribute));
  const generationCut = i.incomplete.find((x) => !isRetrievalAttribute(x.attribute));
  const cut = (x: { reason: string }) => no("context_incomplete", x.reason);
  const capped = no("context_incomplete", "the instrumentation capped some content (ragmeter.content.truncated)");
  let recall: Applicability;
  const uncaptured = i.retrieval_uncaptured
    ? no("content_missing", `retrieved documents not recorded: ${i.retrieval_uncaptured.reason} (span ${i.retrieval_uncaptured.span})`)
    : null;
  if (live) recall = no("not_applicable", "live traffic: no golden item");
  else if (uncaptured) recall = uncaptured;
  else if (i.retrieved === null) recall = no("not_applicable", "no retrieval span in the trace");
  else if (retrievalCut) recall = cut(retrievalCut);
  else if (i.truncated) recall = capped;
  else if (items === null) recall = no("content_missing", `retrieved texts not captured (${CAPTURE})`);
  else recall = uncertain(i, "retrieval") ?? OK;

  const rag =
    i.retrieved === null && !uncaptured ? no("not_applicable", "no retrieval span in the trace") : !i.has_generation ? no("not_applicable", "no generation span in the trace") : OK;
  const answerMissing = i.answer === null ? no("content_missing", `answer not captured (${CAPTURE})`) : null;
  const questionMissing = i.question === null ? no("content_missing", `question not captured (${CAPTURE})`) : null;
  const notSampled = sampledIn === true ? null : sampledIn === false ? no("not_sampled", "live trace outside the judge sampling rate") : no(sampledIn.status, sampledIn.reason);
  const questionGuessed = uncertain(i, "question");

  const relevance = !rag.ok ? rag : (answerMissing ?? questionMissing ?? (generationCut ? cut(generationCut) : null) ?? questionGuessed ?? notSampled ?? OK);
  const grounding = !rag.ok
    ? rag
    : (answerMissing ??
      questionMissing ??
      (retrievalCut ? cut(retrievalCut) : null) ??
      (generationCut ? cut(generationCut) : null) ??
      (i.truncated ? capped : null) ??
      uncaptured ??
      (items === null ? no("content_missing", `retrieved texts not captured (${CAPTURE})`) : null) ??
      uncertain(i, "retrieval") ??
      questionGuessed ??
      notSampled ??
      OK);
  const answer = !i.has_generation ? no("not_applicable", "no generation span in the trace") : (answerMissing ?? (generationCut ? cut(generationCut) : null) ?? OK);
  const context =
    i.retrieved === null && !uncaptured
      ? no("not_applicable", "no retrieval span in the trace")
      : (questionMissing ??
        (retrievalCut ? cut(retrievalCut) : null) ??
        (i.truncated ? capped : null) ??
        uncaptured ??
        (items === null ? no("content_missing", `retrieved texts not captured (${CAPTURE})`) : null) ??
        uncertain(i, "retrieval") ??
        questionGuessed ??
        notSampled ??
        OK);
  return { recall, grounding, relevance, context, answer };
}

/** `uncertain_reading` when the interaction's field was read from a fallback, naming the span and attribute; else null. */
function uncertain(i: Interaction, field: Guess["field"]): Applicability | null {
  const g = i.guesses.find((x) => x.field === field);
  return g ? no("uncertain_reading", `${field} read from a fallback: ${g.reason} (span ${g.span}, attribute ${g.attribute})`) : null;
}

/** Attributes that hold retrieved documents (OTel GenAI, OpenInference, OpenLLMetry outputs). */
function isRetrievalAttribute(name: string): boolean {
  return (
    name === "gen_ai.retrieval.documents" ||
    name === "output.value" ||
    name.startsWith("retrieval.documents.") ||
    name.startsWith("reranker.") ||
    name === "traceloop.entity.output"
  );
}
