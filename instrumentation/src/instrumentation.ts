import { type Attributes, type Context, context, diag, propagation, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import { envFlag, prepareText, resourceAttributeFromEnv } from "./content.js";
import type { DocumentEntry, InputMessageEntry, OutputMessageEntry, SpanState } from "./internal-types.js";
import { extractIncomingContext } from "./propagation.js";
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_DATA_SOURCE_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_RETRIEVAL_DOCUMENTS,
  ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT,
  ATTR_GEN_AI_RETRIEVAL_TOP_K,
  ATTR_GEN_AI_SYSTEM_INSTRUCTIONS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_OI_INPUT_MIME_TYPE,
  ATTR_OI_INPUT_VALUE,
  ATTR_OI_LLM_MODEL_NAME,
  ATTR_OI_LLM_PROVIDER,
  ATTR_OI_LLM_TOKEN_COUNT_COMPLETION,
  ATTR_OI_LLM_TOKEN_COUNT_PROMPT,
  ATTR_OI_LLM_TOKEN_COUNT_TOTAL,
  ATTR_OI_OUTPUT_MIME_TYPE,
  ATTR_OI_OUTPUT_VALUE,
  ATTR_OPENINFERENCE_SPAN_KIND,
  ATTR_RAGMETER_CONTENT_TRUNCATED,
  ATTR_RAGMETER_GOLDEN_ID,
  ATTR_RAGMETER_PIPELINE_VERSION,
  ATTR_RAGMETER_RUN_ID,
  BAGGAGE_RAGMETER_GOLDEN_ID,
  BAGGAGE_RAGMETER_PIPELINE_VERSION,
  BAGGAGE_RAGMETER_RUN_ID,
  ENV_CAPTURE_MESSAGE_CONTENT,
  ENV_OTEL_RESOURCE_ATTRIBUTES,
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL,
  OPENINFERENCE_SPAN_KIND_CHAIN,
  OPENINFERENCE_SPAN_KIND_LLM,
  OPENINFERENCE_SPAN_KIND_RETRIEVER,
  oiDocumentContentKey,
  oiDocumentIdKey,
  oiDocumentMetadataKey,
  oiDocumentScoreKey,
  oiInputMessageKey,
  oiOutputMessageKey,
  RAGMETER_DOCUMENT_ID_KEY,
} from "./semconv.js";
import {
  type ChatMessage,
  DEFAULT_MAX_CONTENT_LENGTH,
  type GenerationRequest,
  type GenerationResult,
  type InteractionOptions,
  type RagInstrumentation,
  type RagInstrumentationOptions,
  type RetrievalRequest,
  type RetrievedItem,
  type Traced,
} from "./types.js";
import { PACKAGE_NAME, PACKAGE_VERSION } from "./version.js";

const TEXT_PLAIN = "text/plain";
const LOG_PREFIX = "@ragmeter/instrumentation:";

/**
 * Creates the span helpers for the retrieval and generation steps of a RAG service.
 *
 * Spans follow the OpenTelemetry GenAI conventions (retrieval: `gen_ai.operation.name =
 * retrieval`; generation: `chat`), carry the ragmeter extras of design §10
 * (`ragmeter.pipeline.version`, `ragmeter.run.id` and `ragmeter.golden.id` from incoming
 * baggage, `ragmeter.content.truncated`), and optionally the OpenInference names.
 *
 * The options and `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` /
 * `OTEL_RESOURCE_ATTRIBUTES` are read once here. Creating several instances is fine
 * (no module state). Without a registered tracer provider every span is a no-op.
 *
 * Errors thrown by the wrapped functions are recorded and rethrown unchanged; errors in
 * this package's own recording or in the redaction hook are reported through OTel's
 * `diag` logger and never reach the caller.
 */
export function createRagInstrumentation(options: RagInstrumentationOptions = {}): RagInstrumentation {
  const tracer: Tracer = options.tracer ?? (options.tracerProvider ?? trace.getTracerProvider()).getTracer(PACKAGE_NAME, PACKAGE_VERSION);
  const captureContent = options.captureContent ?? envFlag(process.env[ENV_CAPTURE_MESSAGE_CONTENT]);
  const maxContentLength = options.maxContentLength ?? DEFAULT_MAX_CONTENT_LENGTH;
  const redact = options.redact;
  const openInference = options.openInference === true;
  const ownPipelineVersion = options.pipelineVersion ?? resourceAttributeFromEnv(process.env[ENV_OTEL_RESOURCE_ATTRIBUTES], ATTR_RAGMETER_PIPELINE_VERSION);

  /** ragmeter extras from the option/environment and the context's baggage. */
  function ragmeterAttributes(ctx: Context, attributes: Attributes): void {
    const bag = propagation.getBaggage(ctx);
    const pipelineVersion = ownPipelineVersion ?? bag?.getEntry(BAGGAGE_RAGMETER_PIPELINE_VERSION)?.value;
    if (pipelineVersion !== undefined && pipelineVersion !== "") {
      attributes[ATTR_RAGMETER_PIPELINE_VERSION] = pipelineVersion;
    }
    if (bag === undefined) return;
    const runId = bag.getEntry(BAGGAGE_RAGMETER_RUN_ID)?.value;
    if (runId !== undefined && runId !== "") attributes[ATTR_RAGMETER_RUN_ID] = runId;
    const goldenId = bag.getEntry(BAGGAGE_RAGMETER_GOLDEN_ID)?.value;
    if (goldenId !== undefined && goldenId !== "") attributes[ATTR_RAGMETER_GOLDEN_ID] = goldenId;
  }

  /** Captures one text (redact + cap); updates the span state's truncation flag. */
  function capture(text: unknown, kind: Parameters<typeof prepareText>[1], state: SpanState): string | undefined {
    const prepared = prepareText(text, kind, redact, maxContentLength);
    if (prepared.truncated) state.truncated = true;
    return prepared.text;
  }

  /**
   * Runs `fn` in an active span; `onResult` records what it returned. Recording errors
   * are caught and reported through diag; `fn`'s own errors are recorded and rethrown.
   */
  async function run<T>(
    name: string,
    kind: SpanKind,
    ctx: Context,
    attributes: Attributes,
    state: SpanState,
    fn: Traced<T>,
    onResult: ((span: Span, result: T) => void) | undefined,
  ): Promise<T> {
    return tracer.startActiveSpan(name, { kind, attributes }, ctx, async (span) => {
      let result: T;
      try {
        result = await fn(span);
      } catch (err) {
        safely(() => recordError(span, err, state));
        span.end();
        throw err;
      }
      // A span nobody records (no SDK, or sampled out) needs no attributes: skip the serialising.
      if (onResult !== undefined && span.isRecording()) safely(() => onResult(span, result));
      safely(() => {
        if (state.truncated) span.setAttribute(ATTR_RAGMETER_CONTENT_TRUNCATED, true);
      });
      span.end();
      return result;
    });
  }

  function traceRetrieval<T extends readonly RetrievedItem[]>(request: string | RetrievalRequest, fn: Traced<T>): Promise<T> {
    const state: SpanState = { truncated: false };
    const ctx = context.active();
    const attributes: Attributes = { [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL };
    let name = GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL;
    safely(() => {
      const req: RetrievalRequest = typeof request === "string" ? { query: request } : request;
      name = retrievalRequestAttributes(req, options.dataSourceId, attributes);
      ragmeterAttributes(ctx, attributes);
      if (openInference) attributes[ATTR_OPENINFERENCE_SPAN_KIND] = OPENINFERENCE_SPAN_KIND_RETRIEVER;
      if (captureContent) queryAttributes(capture(req.query, "query", state), openInference, attributes);
    });
    return run(name, SpanKind.INTERNAL, ctx, attributes, state, fn, (span, items) => recordDocuments(span, items, state));
  }

  function recordDocuments(span: Span, items: readonly RetrievedItem[], state: SpanState): void {
    if (!Array.isArray(items)) {
      diag.warn(`${LOG_PREFIX} retrieval function returned ${typeof items}, not an array; no documents recorded`);
      return;
    }
    const captureText = (text: unknown): string | undefined => (captureContent ? capture(text, "document", state) : undefined);
    const { entries, oi } = documentAttributes(items, captureText, openInference);
    span.setAttribute(ATTR_GEN_AI_RETRIEVAL_DOCUMENTS, JSON.stringify(entries));
    if (openInference) span.setAttributes(oi);
  }

  function traceGeneration<R extends GenerationResult>(request: GenerationRequest, fn: Traced<R>): Promise<R> {
    const state: SpanState = { truncated: false };
    const ctx = context.active();
    const operation = request.operationName ?? GEN_AI_OPERATION_NAME_VALUE_CHAT;
    const attributes: Attributes = { [ATTR_GEN_AI_OPERATION_NAME]: operation };
    let name: string = operation;
    safely(() => {
      if (request.model !== undefined && request.model !== "") {
        attributes[ATTR_GEN_AI_REQUEST_MODEL] = request.model;
        name = `${operation} ${request.model}`;
      }
      providerAttributes(request.providerName ?? options.providerName, openInference, attributes);
      ragmeterAttributes(ctx, attributes);
      if (openInference) attributes[ATTR_OPENINFERENCE_SPAN_KIND] = OPENINFERENCE_SPAN_KIND_LLM;
      if (captureContent) recordInput(request, attributes, state);
    });
    const kind = request.inProcess === true ? SpanKind.INTERNAL : SpanKind.CLIENT;
    return run(name, kind, ctx, attributes, state, fn, (span, result) => recordOutput(span, request, result, state));
  }

  function recordInput(request: GenerationRequest, attributes: Attributes, state: SpanState): void {
    if (request.systemInstructions !== undefined) {
      const system = capture(request.systemInstructions, "system", state);
      if (system !== undefined) attributes[ATTR_GEN_AI_SYSTEM_INSTRUCTIONS] = JSON.stringify([{ type: "text", content: system }]);
    }
    const messages: readonly ChatMessage[] = request.messages ?? (request.question !== undefined ? [{ role: "user", content: request.question }] : []);
    if (messages.length === 0) return;
    inputMessageAttributes(messages, (text, kind) => capture(text, kind, state), openInference, attributes);
  }

  function recordOutput(span: Span, request: GenerationRequest, result: GenerationResult, state: SpanState): void {
    if (result === null || typeof result !== "object") {
      diag.warn(`${LOG_PREFIX} generation function returned ${typeof result}, not an object; nothing recorded`);
      return;
    }
    const out: Attributes = {};
    responseModelAttributes(result.model ?? request.model, openInference, out);
    if (result.responseId !== undefined) out[ATTR_GEN_AI_RESPONSE_ID] = result.responseId;
    if (result.finishReason !== undefined) out[ATTR_GEN_AI_RESPONSE_FINISH_REASONS] = [result.finishReason];
    usageAttributes(result.usage?.input_tokens, result.usage?.output_tokens, openInference, out);
    if (captureContent) answerAttributes(capture(result.answer, "output", state), result.finishReason, openInference, out);
    span.setAttributes(out);
  }

  function traceInteraction<T>(fn: Traced<T>, interaction: InteractionOptions = {}): Promise<T> {
    const state: SpanState = { truncated: false };
    let ctx = context.active();
    const attributes: Attributes = {};
    safely(() => {
      if (interaction.headers !== undefined) ctx = extractIncomingContext(interaction.headers, ctx);
      ragmeterAttributes(ctx, attributes);
      if (openInference) attributes[ATTR_OPENINFERENCE_SPAN_KIND] = OPENINFERENCE_SPAN_KIND_CHAIN;
    });
    const kind = interaction.headers !== undefined ? SpanKind.SERVER : SpanKind.INTERNAL;
    return run(interaction.name ?? "rag.interaction", kind, ctx, attributes, state, fn, undefined);
  }

  return { captureContent, traceRetrieval, traceGeneration, traceInteraction };
}

/**
 * The retrieval request's GenAI attributes (data source, top-k, model, provider) into `attributes`;
 * returns the span's name (`retrieval`, or `retrieval <data source>`).
 */
function retrievalRequestAttributes(req: RetrievalRequest, defaultDataSourceId: string | undefined, attributes: Attributes): string {
  let name = GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL;
  const dataSourceId = req.dataSourceId ?? defaultDataSourceId;
  if (dataSourceId !== undefined && dataSourceId !== "") {
    attributes[ATTR_GEN_AI_DATA_SOURCE_ID] = dataSourceId;
    name = `${GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL} ${dataSourceId}`;
  }
  if (isCount(req.topK)) attributes[ATTR_GEN_AI_RETRIEVAL_TOP_K] = req.topK;
  if (req.model !== undefined) attributes[ATTR_GEN_AI_REQUEST_MODEL] = req.model;
  if (req.providerName !== undefined) attributes[ATTR_GEN_AI_PROVIDER_NAME] = req.providerName;
  return name;
}

/** The captured query text (GenAI, and OpenInference's input value) into `attributes`. */
function queryAttributes(query: string | undefined, openInference: boolean, attributes: Attributes): void {
  if (query === undefined) return;
  attributes[ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT] = query;
  if (openInference) {
    attributes[ATTR_OI_INPUT_VALUE] = query;
    attributes[ATTR_OI_INPUT_MIME_TYPE] = TEXT_PLAIN;
  }
}

/** The provider's name (GenAI, and OpenInference's) into `attributes`. */
function providerAttributes(provider: string | undefined, openInference: boolean, attributes: Attributes): void {
  if (provider === undefined) return;
  attributes[ATTR_GEN_AI_PROVIDER_NAME] = provider;
  if (openInference) attributes[ATTR_OI_LLM_PROVIDER] = provider;
}

/** A retrieved item's entry of `gen_ai.retrieval.documents`, and its document id when it differs from the chunk id. */
function documentEntry(item: RetrievedItem, content: string | undefined): { entry: DocumentEntry; distinctDocumentId: string | undefined } {
  const id = String(item.id);
  const entry: DocumentEntry = { id };
  const documentId = item.document_id ?? item.documentId;
  const distinctDocumentId = documentId !== undefined && documentId !== null && String(documentId) !== id ? String(documentId) : undefined;
  if (distinctDocumentId !== undefined) entry.document_id = distinctDocumentId;
  const score = item.score;
  if (typeof score === "number" && Number.isFinite(score)) entry.score = score;
  if (content !== undefined) entry.content = content;
  return { entry, distinctDocumentId };
}

/** The OpenInference attributes of the `i`th retrieved document into `oi`. */
function oiDocumentAttributes(oi: Attributes, i: number, entry: DocumentEntry, metadata: string | undefined): void {
  oi[oiDocumentIdKey(i)] = entry.id;
  if (entry.score !== undefined) oi[oiDocumentScoreKey(i)] = entry.score;
  if (entry.content !== undefined) oi[oiDocumentContentKey(i)] = entry.content;
  if (metadata !== undefined) oi[oiDocumentMetadataKey(i)] = metadata;
}

/** The retrieved items' `gen_ai.retrieval.documents` entries and their OpenInference attributes; items that are not objects are skipped. */
function documentAttributes(
  items: readonly RetrievedItem[],
  captureText: (text: unknown) => string | undefined,
  openInference: boolean,
): { entries: DocumentEntry[]; oi: Attributes } {
  const entries: DocumentEntry[] = [];
  const oi: Attributes = {};
  for (let i = 0; i < items.length; i++) {
    const item: RetrievedItem | undefined = items[i];
    if (item === null || typeof item !== "object") continue;
    const { entry, distinctDocumentId } = documentEntry(item, captureText(item.text));
    entries.push(entry);
    if (openInference) oiDocumentAttributes(oi, i, entry, documentMetadata(item, distinctDocumentId));
  }
  return { entries, oi };
}

/** The input messages (GenAI, and OpenInference's per message and the last user text as input value) into `attributes`. */
function inputMessageAttributes(
  messages: readonly ChatMessage[],
  captureText: (text: unknown, kind: "system" | "input") => string | undefined,
  openInference: boolean,
  attributes: Attributes,
): void {
  const entries: InputMessageEntry[] = [];
  let lastUser: string | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message === undefined) continue;
    const text = captureText(message.content, message.role === "system" ? "system" : "input");
    entries.push({ role: message.role, parts: text === undefined ? [] : [{ type: "text", content: text }] });
    if (message.role === "user" && text !== undefined) lastUser = text;
    if (openInference) oiInputMessageAttributes(attributes, i, message.role, text);
  }
  attributes[ATTR_GEN_AI_INPUT_MESSAGES] = JSON.stringify(entries);
  if (openInference && lastUser !== undefined) {
    attributes[ATTR_OI_INPUT_VALUE] = lastUser;
    attributes[ATTR_OI_INPUT_MIME_TYPE] = TEXT_PLAIN;
  }
}

/** The model that answered (GenAI, and OpenInference's model name) into `out`. */
function responseModelAttributes(model: string | undefined, openInference: boolean, out: Attributes): void {
  if (model === undefined || model === "") return;
  out[ATTR_GEN_AI_RESPONSE_MODEL] = model;
  if (openInference) out[ATTR_OI_LLM_MODEL_NAME] = model;
}

/** The OpenInference attributes of the `i`th input message into `attributes`. */
function oiInputMessageAttributes(attributes: Attributes, i: number, role: string, text: string | undefined): void {
  attributes[oiInputMessageKey(i, "role")] = role;
  if (text !== undefined) attributes[oiInputMessageKey(i, "content")] = text;
}

/** Token counts (GenAI, and OpenInference's with their total) into `out`; counts that are not counts are left out. */
function usageAttributes(input: unknown, output: unknown, openInference: boolean, out: Attributes): void {
  if (isCount(input)) out[ATTR_GEN_AI_USAGE_INPUT_TOKENS] = input;
  if (isCount(output)) out[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS] = output;
  if (!openInference) return;
  if (isCount(input)) out[ATTR_OI_LLM_TOKEN_COUNT_PROMPT] = input;
  if (isCount(output)) out[ATTR_OI_LLM_TOKEN_COUNT_COMPLETION] = output;
  if (isCount(input) && isCount(output)) out[ATTR_OI_LLM_TOKEN_COUNT_TOTAL] = input + output;
}

/** The captured answer as the output message (GenAI, and OpenInference's output value and message) into `out`. */
function answerAttributes(answer: string | undefined, finishReason: string | undefined, openInference: boolean, out: Attributes): void {
  if (answer === undefined) return;
  const message: OutputMessageEntry = { role: "assistant", parts: [{ type: "text", content: answer }], finish_reason: finishReason ?? "stop" };
  out[ATTR_GEN_AI_OUTPUT_MESSAGES] = JSON.stringify([message]);
  if (!openInference) return;
  out[ATTR_OI_OUTPUT_VALUE] = answer;
  out[ATTR_OI_OUTPUT_MIME_TYPE] = TEXT_PLAIN;
  out[oiOutputMessageKey(0, "role")] = "assistant";
  out[oiOutputMessageKey(0, "content")] = answer;
}

/** OpenInference `document.metadata` JSON: the item's metadata plus `document_id`. */
function documentMetadata(item: RetrievedItem, documentId: string | undefined): string | undefined {
  const hasMetadata = item.metadata !== undefined && item.metadata !== null && typeof item.metadata === "object";
  if (!hasMetadata && documentId === undefined) return undefined;
  const metadata: Record<string, unknown> = hasMetadata ? { ...item.metadata } : {};
  if (documentId !== undefined) metadata[RAGMETER_DOCUMENT_ID_KEY] = documentId;
  try {
    return JSON.stringify(metadata);
  } catch (err) {
    diag.warn(`${LOG_PREFIX} document metadata of ${item.id} is not JSON-serialisable; metadata dropped`, err);
    return documentId === undefined ? undefined : JSON.stringify({ [RAGMETER_DOCUMENT_ID_KEY]: documentId });
  }
}

function recordError(span: Span, err: unknown, state: SpanState): void {
  const error = err instanceof Error ? err : undefined;
  span.recordException(error ?? String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error?.message ?? String(err) });
  span.setAttribute(ATTR_ERROR_TYPE, error?.constructor?.name || "_OTHER");
  if (state.truncated) span.setAttribute(ATTR_RAGMETER_CONTENT_TRUNCATED, true);
}

/** Non-negative safe integer (token counts, top-k). */
function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** Runs this package's own recording code; any error goes to diag, never to the caller. */
function safely(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    diag.error(`${LOG_PREFIX} failed to record span data`, err);
  }
}
