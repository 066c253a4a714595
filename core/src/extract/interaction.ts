import type { EvaluatedSpans } from "../domain/evaluation.js";
import type { RetrievedItem } from "../domain/metrics/recall.js";
import { openInference } from "./openinference.js";
import { openLlmetry } from "./openllmetry.js";
import { bestRetrieval, type Convention, endOf, type GenerationPart, type Guess, incompleteOf, latest, type RetrievalPart, topKOf } from "./parts.js";
import { queryText } from "./query.js";
import { questionOf } from "./question.js";
import type { AttrValue, StoredLog, StoredSpan } from "./spans.js";
import { documentOf, documentsOf, type IncompleteContent, jsonValue, lastMessageText, messageText, num, type RawDocument, record, str, uint } from "./values.js";

export type { Guess } from "./parts.js";

/** The interaction built from one trace (design §2). */
export interface Interaction {
  readonly trace_id: string;
  /** `golden` (golden id in baggage), `replay` (run id without golden id), or `live`. */
  readonly source: "golden" | "replay" | "live";
  readonly run_id: string | null;
  readonly golden_id: string | null;
  readonly pipeline_version: string | null;
  readonly service_name: string;
  readonly deployment_environment: string;
  /** The user's question, null when not captured. */
  readonly question: string | null;
  /** Retrieved items in recorded rank order; null when the trace has no retrieval span, or its documents were not recorded ({@link retrieval_uncaptured}). */
  readonly retrieved: readonly RawDocument[] | null;
  /**
   * The retrieval span whose documents were not recorded (`<span name> (<span id>)`) and why, with
   * the option that records them (AI SDK 7's rerank spans without `reranking: true`): the retrieval
   * metrics are `content_missing` (design §4, §5); null otherwise.
   */
  readonly retrieval_uncaptured: { readonly span: string; readonly reason: string } | null;
  /** The answer, null when not captured or when there is no generation. */
  readonly answer: string | null;
  readonly has_generation: boolean;
  readonly generator_model: string | null;
  /**
   * Tokens of the generation call(s), exact decimal strings (64-bit values are never rounded): the
   * whole run's when a span records them (an `invoke_agent` span above the generation, AI SDK's
   * `ai.generateText`), else the generation span's own (design §4).
   */
  readonly input_tokens: string | null;
  readonly output_tokens: string | null;
  /** True when the instrumentation capped some content (`ragmeter.content.truncated`). */
  readonly truncated: boolean;
  /**
   * JSON content of the used retrieval or generation span that was cut off or does not parse
   * (kept raw on the stored span): every metric that needs it is `context_incomplete`.
   */
  readonly incomplete: readonly IncompleteContent[];
  /** The number of items asked for (`gen_ai.request.top_k`, `gen_ai.retrieval.top_k`), null when not recorded. */
  readonly top_k: number | null;
  /**
   * Fields read from a fallback (a rendered prompt as the question, bare texts as the retrieval, a
   * guessed input field): the metrics that need them are `uncertain_reading` (design §4, §5).
   */
  readonly guesses: readonly Guess[];
  /** Which convention the retrieval and the generation came from. */
  readonly conventions: { readonly retrieval: Convention | null; readonly generation: Convention | null };
  /** The spans the scores evaluate: the used retrieval and generation spans, and the trace's root span. */
  readonly spans: EvaluatedSpans;
}

/** A span event or an OTLP log record tied to a span, as one shape. */
interface ContentEvent {
  readonly name: string;
  readonly attributes: StoredSpan["attributes"];
  readonly body: unknown;
  readonly time: bigint;
}

const GENAI_GENERATION_OPS = new Set(["chat", "text_completion", "generate_content"]);
const GENAI_TOOL_OP = "execute_tool";
const GENAI_AGENT_OP = "invoke_agent";

/** `gen_ai.usage.input_tokens` / `output_tokens` (or the older `prompt_tokens` / `completion_tokens`) of a span. */
const genAiUsage = (a: StoredSpan["attributes"]): { input: string | null; output: string | null } => ({
  input: uint(a, "gen_ai.usage.input_tokens") ?? uint(a, "gen_ai.usage.prompt_tokens"),
  output: uint(a, "gen_ai.usage.output_tokens") ?? uint(a, "gen_ai.usage.completion_tokens"),
});

/**
 * The token counts of a generation span's run: those of its nearest `invoke_agent` ancestor that
 * records usage (an agent span totals every model call of its steps: AI SDK 7's `invoke_agent` over
 * a tool-call step and the answer step), both taken from it, a count it lacks null (never mixed with
 * one step's); without such an ancestor, the span's own (design §4).
 */
function runUsage(s: StoredSpan, byId: ReadonlyMap<string, StoredSpan>): { input: string | null; output: string | null } {
  const seen = new Set<string>([s.span_id]);
  for (let p = byId.get(s.parent_span_id); p !== undefined && !seen.has(p.span_id); p = byId.get(p.parent_span_id)) {
    seen.add(p.span_id);
    if (str(p.attributes, "gen_ai.operation.name") !== GENAI_AGENT_OP) continue;
    const u = genAiUsage(p.attributes);
    if (u.input !== null || u.output !== null) return u;
  }
  return genAiUsage(s.attributes);
}

const timeOf = (t: string): bigint => (/^\d+$/.test(t) ? BigInt(t) : 0n);

/** Span events and log records of one span, in time order (the record order breaks ties). */
function eventsOf(s: StoredSpan, logs: readonly StoredLog[]): ContentEvent[] {
  const all: ContentEvent[] = [
    ...s.events.map((e) => ({ name: e.name, attributes: e.attributes, body: null as unknown, time: timeOf(e.time_unix_nano) })),
    ...logs.filter((l) => l.span_id === s.span_id).map((l) => ({ name: l.event_name, attributes: l.attributes, body: l.body as unknown, time: timeOf(l.time_unix_nano) })),
  ];
  return all
    .map((e, i) => ({ e, i }))
    .sort((x, y) => (x.e.time < y.e.time ? -1 : x.e.time > y.e.time ? 1 : x.i - y.i))
    .map(({ e }) => e);
}

/** OTel GenAI: retrieval and generation spans, with content on attributes, span events or log events. */
function otelGenAi(spans: readonly StoredSpan[], logs: readonly StoredLog[]): { r: RetrievalPart[]; g: GenerationPart[] } {
  const r: RetrievalPart[] = [];
  const g: GenerationPart[] = [];
  const byId = new Map(spans.map((s) => [s.span_id, s]));
  for (const s of spans) {
    const op = str(s.attributes, "gen_ai.operation.name");
    if (op === "retrieval") r.push(genAiRetrieval(s, logs));
    else if (op === GENAI_TOOL_OP) {
      const tool = genAiToolRetrieval(s);
      if (tool !== null) r.push(tool);
    } else if (op !== null && GENAI_GENERATION_OPS.has(op)) g.push(genAiGeneration(s, logs, byId));
  }
  return { r, g };
}

/** A GenAI retrieval span: structured or JSON-string documents on the span; a retrieval event may carry them instead. */
function genAiRetrieval(s: StoredSpan, logs: readonly StoredLog[]): RetrievalPart {
  const a = s.attributes;
  let docsRaw = jsonValue(a["gen_ai.retrieval.documents"]);
  let query = str(a, "gen_ai.retrieval.query.text");
  const incomplete = incompleteOf(s, a, ["gen_ai.retrieval.documents"]);
  for (const e of eventsOf(s, logs)) {
    if (docsRaw === null) incomplete.push(...incompleteOf(s, e.attributes, ["gen_ai.retrieval.documents"]));
    docsRaw ??= jsonValue(e.attributes["gen_ai.retrieval.documents"]);
    query ??= str(e.attributes, "gen_ai.retrieval.query.text");
  }
  return {
    convention: "otel-genai",
    query,
    queryIsQuestion: true,
    docs: documentsOf(docsRaw) ?? [],
    end: endOf(s),
    span_id: s.span_id,
    incomplete,
    topK: topKOf(a),
    guesses: [],
    preferred: true,
  };
}

/** Whether a tool's result reads as a document list: some document with a text or a document id. */
function isDocumentList(docs: RawDocument[] | null): docs is RawDocument[] {
  return docs !== null && docs.length > 0 && docs.some((d) => d.text !== null || d.document_id !== null);
}

/** A retrieval done as a tool the model called: the tool's result is the document list; null when it is not one. */
function genAiToolRetrieval(s: StoredSpan): RetrievalPart | null {
  const a = s.attributes;
  const docs = documentsOf(jsonValue(a["gen_ai.tool.call.result"]));
  if (!isDocumentList(docs)) return null;
  return {
    convention: "otel-genai",
    query: queryText(jsonValue(a["gen_ai.tool.call.arguments"])),
    queryIsQuestion: false,
    docs,
    end: endOf(s),
    span_id: s.span_id,
    incomplete: [],
    topK: topKOf(a),
    guesses: [],
    preferred: true,
  };
}

/** A GenAI generation span: messages on its attributes, else on its events. */
function genAiGeneration(s: StoredSpan, logs: readonly StoredLog[], byId: ReadonlyMap<string, StoredSpan>): GenerationPart {
  const a = s.attributes;
  const content = eventContent(eventsOf(s, logs), jsonValue(a["gen_ai.input.messages"]), jsonValue(a["gen_ai.output.messages"]));
  const output = content.output;
  const answer =
    lastMessageText(output, "assistant") ??
    (Array.isArray(output) && output.length > 0 ? messageText(output[0]) : typeof output === "string" ? output : null) ??
    content.choiceText;
  const usage = runUsage(s, byId);
  return {
    convention: "otel-genai",
    question: lastMessageText(content.input, "user") ?? content.userText,
    answer,
    model: str(a, "gen_ai.response.model") ?? str(a, "gen_ai.request.model"),
    input_tokens: usage.input,
    output_tokens: usage.output,
    end: endOf(s),
    span_id: s.span_id,
    span_name: s.name,
    question_attribute: a["gen_ai.input.messages"] !== undefined ? "gen_ai.input.messages" : "gen_ai.input.messages (log event)",
    incomplete: incompleteOf(s, a, ["gen_ai.input.messages", "gen_ai.output.messages"]),
  };
}

/** A generation's content gathered from its events: the messages, the user's text, the first choice's text. */
interface EventContent {
  input: unknown;
  output: unknown;
  userText: string | null;
  choiceText: string | null;
  choiceIndex: number;
}

/**
 * Content sent as events: span events or OTLP log records linked by span id. Current semconv: one
 * `gen_ai.client.inference.operation.details` event with the messages as attributes (an
 * instrumentation may split input and output over two); earlier semconv: one event per message
 * (`gen_ai.user.message`, `gen_ai.choice` with the message in the body), or span events
 * `gen_ai.content.prompt` / `gen_ai.content.completion`. Messages on the span (`input`, `output`) win.
 */
function eventContent(events: readonly ContentEvent[], input: unknown, output: unknown): EventContent {
  const c: EventContent = { input, output, userText: null, choiceText: null, choiceIndex: Number.POSITIVE_INFINITY };
  for (const e of events) readContentEvent(c, e);
  return c;
}

/** Folds one event into the generation's content (see {@link eventContent}). */
function readContentEvent(c: EventContent, e: ContentEvent): void {
  if (e.name === "gen_ai.client.inference.operation.details") {
    c.input ??= jsonValue(e.attributes["gen_ai.input.messages"]) ?? jsonValue((record(e.body)?.["gen_ai.input.messages"] ?? undefined) as AttrValue | undefined);
    c.output ??= jsonValue(e.attributes["gen_ai.output.messages"]) ?? jsonValue((record(e.body)?.["gen_ai.output.messages"] ?? undefined) as AttrValue | undefined);
  } else if (e.name === "gen_ai.user.message") {
    c.userText = messageText(e.body) ?? messageText(jsonValue(e.attributes["content"])) ?? str(e.attributes, "content") ?? c.userText;
  } else if (e.name === "gen_ai.choice") {
    readChoice(c, e);
  } else if (e.name === "gen_ai.content.prompt") {
    c.input ??= jsonValue(e.attributes["gen_ai.prompt"]);
  } else if (e.name === "gen_ai.content.completion") {
    c.output ??= jsonValue(e.attributes["gen_ai.completion"]);
  }
}

/** A `gen_ai.choice` event: the first choice (lowest index, 0) is the answer. */
function readChoice(c: EventContent, e: ContentEvent): void {
  const body = record(e.body);
  const idx = typeof body?.["index"] === "number" ? body["index"] : (num(e.attributes, "index") ?? 0);
  const text = messageText(body?.["message"] ?? e.body) ?? str(e.attributes, "message.content");
  if (text !== null && idx < c.choiceIndex) {
    c.choiceText = text;
    c.choiceIndex = idx;
  }
}

/** Parses each entry of a string array of JSON values (the AI SDK records lists this way). */
function jsonEntries(v: unknown): unknown[] | null {
  const arr = Array.isArray(v) ? v : null;
  return arr ? arr.map((x) => (typeof x === "string" ? (jsonValue(x) ?? x) : x)) : null;
}

/** AI SDK 6 `ai.rerank.doRerank`, AI SDK 7 `rerank <model>` (@ai-sdk/otel: `gen_ai.operation.name = rerank`, a value of its own, not a GenAI semconv one). */
const AI_SDK6_RERANK = "ai.rerank.doRerank";
const AI_SDK7_RERANK_OP = "rerank";

/** Why an AI SDK rerank span lacks what its reading needs, and how the SDK records it. */
function rerankUncaptured(sdk7: boolean, missing: readonly string[]): string {
  const how = sdk7
    ? "AI SDK 7 records a rerank's documents and ranking only when its OpenTelemetry integration is built with `new OpenTelemetry({ reranking: true })` (@ai-sdk/otel), and recordInputs / recordOutputs are not off"
    : "AI SDK 6 records them only with experimental_telemetry recordInputs and recordOutputs on";
  return `the rerank span records no ${missing.join(" and ")}: ${how}`;
}

/**
 * Vercel AI SDK telemetry: `ai.generateText` / `ai.streamText` spans (AI SDK 6: question from
 * `ai.prompt`, answer `ai.response.text`, total usage); retrieval from an `ai.toolCall` whose result
 * is a document list, or from a rerank span (`ai.documents` reordered by `ai.ranking`): AI SDK 6's
 * `ai.rerank.doRerank`, AI SDK 7's `rerank <model>` (its other spans are OTel GenAI ones, read by
 * {@link otelGenAi}). A rerank span without them is a retrieval whose documents were not recorded.
 */
function vercelAi(spans: readonly StoredSpan[]): { r: RetrievalPart[]; g: GenerationPart[] } {
  const r: RetrievalPart[] = [];
  const g: GenerationPart[] = [];
  for (const s of spans) {
    const op = vercelOp(s);
    if (op === "ai.toolCall") {
      const tool = vercelToolRetrieval(s);
      if (tool !== null) r.push(tool);
    } else if (op === AI_SDK6_RERANK || str(s.attributes, "gen_ai.operation.name") === AI_SDK7_RERANK_OP) {
      const rerank = vercelRerank(s, op);
      if (rerank !== null) r.push(rerank);
    } else if (op === "ai.generateText" || op === "ai.streamText") g.push(vercelGeneration(s, op, spans));
  }
  return { r, g };
}

/** An AI SDK span's operation: `ai.operationId`, else its name. */
const vercelOp = (s: StoredSpan): string => str(s.attributes, "ai.operationId") ?? s.name;

/** An `ai.toolCall` whose result is a document list; null when it is not one. */
function vercelToolRetrieval(s: StoredSpan): RetrievalPart | null {
  const a = s.attributes;
  const docs = documentsOf(jsonValue(a["ai.toolCall.result"] ?? a["ai.toolCall.output"]));
  if (!isDocumentList(docs)) return null;
  return {
    convention: "vercel-ai",
    query: queryText(jsonValue(a["ai.toolCall.args"] ?? a["ai.toolCall.input"])),
    queryIsQuestion: false,
    docs,
    end: endOf(s),
    span_id: s.span_id,
    incomplete: [],
    topK: null,
    guesses: [],
    preferred: true,
  };
}

/**
 * A rerank span: `ai.documents` reordered by `ai.ranking`; null when the ranking names no document.
 * Without either, a retrieval whose documents were not recorded.
 */
function vercelRerank(s: StoredSpan, op: string): RetrievalPart | null {
  const a = s.attributes;
  const documents = jsonEntries(jsonValue(a["ai.documents"]));
  const ranking = jsonEntries(jsonValue(a["ai.ranking"]));
  const part: Omit<RetrievalPart, "docs"> = {
    convention: "vercel-ai",
    query: null,
    queryIsQuestion: false,
    end: endOf(s),
    span_id: s.span_id,
    incomplete: [],
    topK: null,
    guesses: [],
    preferred: true,
  };
  if (documents && ranking) {
    const docs = rankedDocuments(documents, ranking);
    return docs.length > 0 ? { ...part, docs } : null;
  }
  // AI SDK 7's operation span holds the candidates only; its provider call's span, the ranking too.
  const missing = [...(documents ? [] : ["documents (ai.documents)"]), ...(ranking ? [] : ["ranking (ai.ranking)"])];
  return { ...part, docs: [], uncaptured: rerankUncaptured(op !== AI_SDK6_RERANK, missing) };
}

/** Ranking entries `{index, relevanceScore}` in rank order, each the document at its index with its score (a bare text document has no id: null). */
function rankedDocuments(documents: readonly unknown[], ranking: readonly unknown[]): RawDocument[] {
  const docs: RawDocument[] = [];
  for (const entry of ranking) {
    const e = record(entry);
    const idx = typeof e?.["index"] === "number" ? e["index"] : null;
    const d = idx !== null ? documentOf(documents[idx]) : null;
    if (d === null) continue;
    docs.push({ ...d, score: typeof e?.["relevanceScore"] === "number" ? e["relevanceScore"] : d.score });
  }
  return docs;
}

/** An `ai.generateText` / `ai.streamText` span: question from `ai.prompt`, answer `ai.response.text`, total usage. */
function vercelGeneration(s: StoredSpan, op: string, spans: readonly StoredSpan[]): GenerationPart {
  const a = s.attributes;
  const prompt = record(jsonValue(a["ai.prompt"]));
  const question =
    (typeof prompt?.["prompt"] === "string" ? prompt["prompt"] : null) ?? lastMessageText(prompt?.["messages"], "user") ?? lastMessageText(prompt?.["prompt"], "user");
  // The outer span names the model asked for; the provider's answer is on the last step.
  const steps = spans.filter((c) => c.parent_span_id === s.span_id && (vercelOp(c) === `${op}.doGenerate` || vercelOp(c) === `${op}.doStream`));
  const lastStep = latest(steps.map((c) => ({ s: c, end: endOf(c) })))?.s ?? null;
  return {
    convention: "vercel-ai",
    question,
    answer: str(a, "ai.response.text") ?? (a["ai.response.text"] === "" ? "" : null),
    model: str(a, "ai.response.model") ?? (lastStep ? stepModel(lastStep) : null) ?? str(a, "ai.model.id"),
    input_tokens: uint(a, "ai.usage.inputTokens") ?? uint(a, "ai.usage.promptTokens"),
    output_tokens: uint(a, "ai.usage.outputTokens") ?? uint(a, "ai.usage.completionTokens"),
    end: endOf(s),
    span_id: s.span_id,
    span_name: s.name,
    question_attribute: "ai.prompt",
    incomplete: [],
  };
}

/** The model that answered on a provider-call step. */
const stepModel = (step: StoredSpan): string | null => str(step.attributes, "ai.response.model") ?? str(step.attributes, "gen_ai.response.model");

function attrAnywhere(spans: readonly StoredSpan[], key: string): string | null {
  for (const s of spans) {
    const v = str(s.attributes, key) ?? str(s.resource_attributes, key);
    if (v !== null) return v;
  }
  return null;
}

/**
 * Builds the interaction of one trace from its spans and log records (design §2, §4). For each of
 * retrieval and generation, the first convention in precedence order (OTel GenAI with ragmeter
 * extras, OpenInference, OpenLLMetry, Vercel AI SDK) that has it wins; within a convention the
 * latest-ending span that found documents is used (a reranker after a retriever), a retrieval read
 * from bare texts only when there is no other. The question: {@link questionOf}. Run id, golden id
 * and pipeline version come from `ragmeter.*` attributes (baggage copied to spans) or the resource.
 */
export function extractInteraction(traceId: string, spans: readonly StoredSpan[], logs: readonly StoredLog[] = []): Interaction {
  const genai = otelGenAi(spans, logs);
  const oi = openInference(spans);
  const ol = openLlmetry(spans);
  const va = vercelAi(spans);
  const retrievals = [genai.r, oi.r, ol.r, va.r].map(bestRetrieval).filter((x): x is RetrievalPart => x !== null);
  const retrieval = retrievals.find((x) => x.preferred) ?? retrievals[0] ?? null;
  const generation = latest(genai.g) ?? latest(oi.g) ?? latest(ol.g) ?? latest(va.g);
  const runId = attrAnywhere(spans, "ragmeter.run.id");
  const goldenId = attrAnywhere(spans, "ragmeter.golden.id");
  const truncated = spans.some((s) => s.attributes["ragmeter.content.truncated"] === true || s.attributes["ragmeter.content.truncated"] === "true");
  const resource = spans[0]?.resource_attributes ?? {};
  const question = questionOf(retrieval, generation, [oi.templateQuestion, oi.chainQuestion, ol.workflowQuestion]);
  return {
    trace_id: traceId,
    source: sourceOf(goldenId, runId),
    run_id: runId,
    golden_id: goldenId,
    pipeline_version: attrAnywhere(spans, "ragmeter.pipeline.version"),
    service_name: spans.find((s) => s.service_name !== "")?.service_name ?? "",
    deployment_environment: str(resource, "deployment.environment.name") ?? str(resource, "deployment.environment") ?? "",
    question: question?.text ?? null,
    ...retrievalFields(retrieval, spans),
    ...generationFields(generation),
    truncated,
    incomplete: [...(retrieval?.incomplete ?? []), ...(generation?.incomplete ?? [])],
    top_k: retrieval?.topK ?? null,
    guesses: [...(question?.guess ? [question.guess] : []), ...(retrieval?.guesses.filter((x) => x.field === "retrieval") ?? [])],
    conventions: { retrieval: retrieval?.convention ?? null, generation: generation?.convention ?? null },
    spans: { retrieval: retrieval?.span_id ?? null, generation: generation?.span_id ?? null, root: rootSpan(spans) },
  };
}

/** `golden` with a golden id, `replay` with a run id only, else `live`. */
function sourceOf(goldenId: string | null, runId: string | null): Interaction["source"] {
  if (goldenId !== null) return "golden";
  return runId !== null ? "replay" : "live";
}

/** The interaction's fields read from the used retrieval: its documents, or why they were not recorded. */
function retrievalFields(retrieval: RetrievalPart | null, spans: readonly StoredSpan[]): Pick<Interaction, "retrieved" | "retrieval_uncaptured"> {
  if (retrieval === null) return { retrieved: null, retrieval_uncaptured: null };
  return {
    retrieved: retrieval.uncaptured === undefined ? retrieval.docs : null,
    retrieval_uncaptured: retrieval.uncaptured !== undefined ? { span: `${spanName(spans, retrieval.span_id)} (${retrieval.span_id})`, reason: retrieval.uncaptured } : null,
  };
}

/** The interaction's fields read from the used generation: answer, model, tokens. */
function generationFields(generation: GenerationPart | null): Pick<Interaction, "answer" | "has_generation" | "generator_model" | "input_tokens" | "output_tokens"> {
  if (generation === null) return { answer: null, has_generation: false, generator_model: null, input_tokens: null, output_tokens: null };
  return {
    answer: generation.answer ?? null,
    has_generation: true,
    generator_model: generation.model ?? null,
    input_tokens: generation.input_tokens ?? null,
    output_tokens: generation.output_tokens ?? null,
  };
}

/** The name of a span of the trace by id ("" when absent). */
function spanName(spans: readonly StoredSpan[], id: string): string {
  return spans.find((s) => s.span_id === id)?.name ?? "";
}

/** The trace's root span: no parent, or a parent outside the trace (the caller's); the earliest such; null without spans. */
function rootSpan(spans: readonly StoredSpan[]): string | null {
  const ids = new Set(spans.map((s) => s.span_id));
  let best: StoredSpan | null = null;
  for (const s of spans) {
    if (s.parent_span_id !== "" && ids.has(s.parent_span_id)) continue;
    if (best === null || timeOf(s.start_time_unix_nano) < timeOf(best.start_time_unix_nano)) best = s;
  }
  return best?.span_id ?? spans[0]?.span_id ?? null;
}

/**
 * Retrieved items for scoring: a document id defaults to the chunk id; an item without a chunk id
 * has id `""` (stored so; recall then tells items apart by document id and text); null when any
 * text is missing.
 */
export function retrievedItems(i: Interaction): RetrievedItem[] | null {
  if (i.retrieved === null) return null;
  if (i.retrieved.some((d) => d.text === null)) return null;
  return i.retrieved.map((d) => ({ id: d.id ?? "", document_id: d.document_id ?? d.id ?? "", text: d.text as string, score: d.score }));
}
