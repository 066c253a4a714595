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
 * What can be computed for one trace, by what a metric reads from it: `ranking` the ranked retrieval
 * (retrieval metrics), `answerWithTexts` the answer with the retrieved texts, `questionAndAnswer` the
 * question and answer, `questionWithTexts` the question with the retrieved texts, `answer` the answer
 * text alone.
 */
export interface TracePlan {
  readonly ranking: Applicability;
  readonly answerWithTexts: Applicability;
  readonly questionAndAnswer: Applicability;
  readonly questionWithTexts: Applicability;
  readonly answer: Applicability;
}

/** A key of {@link TracePlan}. */
export type PlanKey = keyof TracePlan;

/** Which entry of a trace's plan decides whether a metric with these needs applies. */
export function planKeyOf(needs: readonly Need[]): PlanKey {
  const has = (n: Need) => needs.includes(n);
  if (has("answer")) return has("chunks") ? "answerWithTexts" : has("question") ? "questionAndAnswer" : "answer";
  return has("chunks") ? "questionWithTexts" : "ranking";
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
  const g = gapsOf(i, items, sampledIn);
  const rag = g.noRetrieval ?? (i.has_generation ? OK : no("not_applicable", "no generation span in the trace"));
  const relevance = rag.ok ? (g.answerMissing ?? g.questionMissing ?? g.generationCut ?? g.questionGuessed ?? g.notSampled ?? OK) : rag;
  const grounding = rag.ok
    ? (g.answerMissing ??
      g.questionMissing ??
      g.retrievalCut ??
      g.generationCut ??
      g.capped ??
      g.uncaptured ??
      g.textsMissing ??
      g.retrievalGuessed ??
      g.questionGuessed ??
      g.notSampled ??
      OK)
    : rag;
  const answer = i.has_generation ? (g.answerMissing ?? g.generationCut ?? OK) : no("not_applicable", "no generation span in the trace");
  const context =
    g.noRetrieval ?? g.questionMissing ?? g.retrievalCut ?? g.capped ?? g.uncaptured ?? g.textsMissing ?? g.retrievalGuessed ?? g.questionGuessed ?? g.notSampled ?? OK;
  return { ranking: recallOf(i, live, g), answerWithTexts: grounding, questionAndAnswer: relevance, questionWithTexts: context, answer };
}

/** What keeps a trace's metrics from being computed, each null when it does not: {@link planTrace} picks, per metric, the first that applies. */
interface Gaps {
  /** No retrieval span, and none whose documents went unrecorded. */
  readonly noRetrieval: Applicability | null;
  /** Retrieval content cut off or unparseable (the attribute named). */
  readonly retrievalCut: Applicability | null;
  /** Generation content cut off or unparseable (the attribute named). */
  readonly generationCut: Applicability | null;
  /** The instrumentation capped some content. */
  readonly capped: Applicability | null;
  /** A retrieval span that records no documents at all. */
  readonly uncaptured: Applicability | null;
  /** Retrieved texts not captured. */
  readonly textsMissing: Applicability | null;
  readonly retrievalGuessed: Applicability | null;
  readonly answerMissing: Applicability | null;
  readonly questionMissing: Applicability | null;
  readonly questionGuessed: Applicability | null;
  /** The LLM judges are not to run on this live trace. */
  readonly notSampled: Applicability | null;
}

function gapsOf(i: Interaction, items: readonly RetrievedItem[] | null, sampledIn: JudgeGate): Gaps {
  const retrievalCut = i.incomplete.find((x) => isRetrievalAttribute(x.attribute));
  const generationCut = i.incomplete.find((x) => !isRetrievalAttribute(x.attribute));
  const uncaptured = i.retrieval_uncaptured
    ? no("content_missing", `retrieved documents not recorded: ${i.retrieval_uncaptured.reason} (span ${i.retrieval_uncaptured.span})`)
    : null;
  return {
    noRetrieval: i.retrieved === null && !uncaptured ? no("not_applicable", "no retrieval span in the trace") : null,
    retrievalCut: retrievalCut ? no("context_incomplete", retrievalCut.reason) : null,
    generationCut: generationCut ? no("context_incomplete", generationCut.reason) : null,
    capped: i.truncated ? no("context_incomplete", "the instrumentation capped some content (ragmeter.content.truncated)") : null,
    uncaptured,
    textsMissing: items === null ? no("content_missing", `retrieved texts not captured (${CAPTURE})`) : null,
    retrievalGuessed: uncertain(i, "retrieval"),
    answerMissing: i.answer === null ? no("content_missing", `answer not captured (${CAPTURE})`) : null,
    questionMissing: i.question === null ? no("content_missing", `question not captured (${CAPTURE})`) : null,
    questionGuessed: uncertain(i, "question"),
    notSampled: notSampledOf(sampledIn),
  };
}

/** The status the LLM judges' gate gives a live trace outside it, or null when they run on it. */
function notSampledOf(sampledIn: JudgeGate): Applicability | null {
  if (sampledIn === true) return null;
  return sampledIn === false ? no("not_sampled", "live trace outside the judge sampling rate") : no(sampledIn.status, sampledIn.reason);
}

/** Recall needs a golden item and the retrieval's texts, read for certain. */
function recallOf(i: Interaction, live: boolean, g: Gaps): Applicability {
  if (live) return no("not_applicable", "live traffic: no golden item");
  if (g.uncaptured) return g.uncaptured;
  if (i.retrieved === null) return no("not_applicable", "no retrieval span in the trace");
  return g.retrievalCut ?? g.capped ?? g.textsMissing ?? g.retrievalGuessed ?? OK;
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
