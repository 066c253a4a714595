import type { Span, Tracer, TracerProvider } from "@opentelemetry/api";

/** Which piece of content a redaction hook is looking at. */
export type ContentKind =
  | "query" // the retrieval query / user question
  | "document" // the text of one retrieved chunk
  | "system" // system instructions given to the model
  | "input" // an input message (the question as sent to the model)
  | "output"; // the model's answer

/**
 * Redaction hook: receives one captured text and returns the text to export.
 * Called only when content capture is on, before capping. If it throws or returns
 * a non-string, that piece of content is dropped from the span (never exported
 * unredacted) and the error is reported through `diag`; the user's call goes on.
 */
export type RedactHook = (text: string, kind: ContentKind) => string;

/** Options of {@link createRagInstrumentation}. Every field is optional. */
export interface RagInstrumentationOptions {
  /** Tracer to use. Wins over `tracerProvider`. */
  tracer?: Tracer;
  /** Provider to get the tracer from; default the global provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /**
   * Pipeline version written as `ragmeter.pipeline.version`. Default: the
   * `ragmeter.pipeline.version` entry of `OTEL_RESOURCE_ATTRIBUTES`, else the
   * same key from incoming baggage (the value `ragmeter eval` sends).
   */
  pipelineVersion?: string;
  /**
   * Capture content (question, chunk texts, answer, messages). Default: true only when
   * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` is `true` (case-insensitive),
   * read once when the instrumentation is created.
   */
  captureContent?: boolean;
  /** Redaction hook applied to every captured text; see {@link RedactHook}. */
  redact?: RedactHook;
  /**
   * Cap of each captured text, in Unicode code points (not UTF-16 units, not bytes);
   * default {@link DEFAULT_MAX_CONTENT_LENGTH}. The cap applies to each value on its
   * own (the query, each chunk, the answer), never cuts a surrogate pair, and a capped
   * value sets `ragmeter.content.truncated = true` on the span. `0` or `Infinity`
   * disables capping.
   */
  maxContentLength?: number;
  /** Also write the OpenInference names (for Phoenix and other OpenInference readers). Default false. */
  openInference?: boolean;
  /** Default `gen_ai.data_source.id` of retrieval spans (per-call value wins). */
  dataSourceId?: string;
  /** Default `gen_ai.provider.name` of generation spans (per-call value wins), e.g. `openai`. */
  providerName?: string;
}

/** Default of {@link RagInstrumentationOptions.maxContentLength}: 16 384 code points. */
export const DEFAULT_MAX_CONTENT_LENGTH = 16_384;

/**
 * One retrieved chunk, in the shape the scorer reads (design §2) — the target's
 * `contexts` entries.
 */
export interface RetrievedItem {
  /** Chunk id (the unit that was ranked). */
  id: string;
  /** Id of the document the chunk comes from, when it differs from `id`. */
  document_id?: string;
  /** camelCase alias of `document_id` (used when `document_id` is absent). */
  documentId?: string;
  /** Chunk text. Exported only when content capture is on. */
  text: string;
  /** Retrieval or reranker score (higher is better; whatever scale the retriever uses). */
  score?: number;
  /** Extra metadata, written only into OpenInference `document.metadata` JSON. */
  metadata?: Record<string, unknown>;
}

/** Description of one retrieval call. */
export interface RetrievalRequest {
  /** The query text (usually the user's question). */
  query: string;
  /** Number of chunks asked for (`gen_ai.retrieval.top_k`). */
  topK?: number;
  /** Index or store queried (`gen_ai.data_source.id`); default the option's `dataSourceId`. */
  dataSourceId?: string;
  /** Embedding model, written as `gen_ai.request.model`. */
  model?: string;
  /** `gen_ai.provider.name` of the retrieval backend. */
  providerName?: string;
}

/** One chat message given to the model. */
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool" | (string & {});
  content: string;
}

/** Description of one generation call. */
export interface GenerationRequest {
  /** Model asked for (`gen_ai.request.model`). */
  model?: string;
  /** The user's question; becomes the `user` input message when `messages` is absent. */
  question?: string;
  /** Full input messages, when the caller has them (wins over `question`). */
  messages?: readonly ChatMessage[];
  /** System instructions (`gen_ai.system_instructions`). */
  systemInstructions?: string;
  /** `gen_ai.provider.name`; default the option's `providerName`. */
  providerName?: string;
  /** `gen_ai.operation.name`; default `chat`. */
  operationName?: "chat" | "text_completion" | "generate_content";
  /** True when the model runs in this process (span kind INTERNAL instead of CLIENT). */
  inProcess?: boolean;
}

/** Token usage reported by the model. Units: tokens. */
export interface TokenUsage {
  input_tokens?: number;
  output_tokens?: number;
}

/** What a generation step returns; extra fields are allowed and passed through. */
export interface GenerationResult {
  /** The answer text. */
  answer: string;
  /** Model that answered (`gen_ai.response.model`); default the request model. */
  model?: string;
  /** Token usage; `null` or absent when the generator reports none (e.g. an extractive answer). */
  usage?: TokenUsage | null;
  /** Why generation stopped (`stop`, `length`, …). */
  finishReason?: string;
  /** Provider's response id. */
  responseId?: string;
}

/** Function wrapped by a `trace*` method; receives the active span to add its own attributes. */
export type Traced<T> = (span: Span) => T | PromiseLike<T>;

/** The object returned by {@link createRagInstrumentation}. */
export interface RagInstrumentation {
  /** Whether content is captured (resolved from the option and the environment). */
  readonly captureContent: boolean;
  /**
   * Runs `fn` inside a retrieval span (`retrieval [data source]`, kind INTERNAL) and
   * records the returned items in rank order. The items are returned unchanged.
   * If `fn` throws or rejects, the error is recorded on the span and rethrown.
   */
  traceRetrieval<T extends readonly RetrievedItem[]>(request: string | RetrievalRequest, fn: Traced<T>): Promise<T>;
  /**
   * Runs `fn` inside a generation span (`chat <model>`, kind CLIENT, or INTERNAL when
   * `inProcess`) and records models, token usage and, when capture is on, the messages.
   * The result is returned unchanged. Errors are recorded and rethrown.
   */
  traceGeneration<R extends GenerationResult>(request: GenerationRequest, fn: Traced<R>): Promise<R>;
  /**
   * Runs `fn` inside a parent span for one RAG request, so that retrieval and
   * generation share one trace even without an incoming `traceparent`. When `headers`
   * are given, the W3C `traceparent`/`baggage` they carry become the parent context
   * (see {@link extractIncomingContext}).
   */
  traceInteraction<T>(fn: Traced<T>, options?: InteractionOptions): Promise<T>;
}

/** Options of {@link RagInstrumentation.traceInteraction}. */
export interface InteractionOptions {
  /** Span name; default `rag.interaction`. */
  name?: string;
  /** Incoming HTTP headers carrying `traceparent` / `baggage`. */
  headers?: IncomingHeaders;
}

/**
 * Incoming headers as Node's `IncomingHttpHeaders` (lower-case keys), a plain
 * record, or a WHATWG `Headers`-like object with `get()`.
 */
export type IncomingHeaders = Readonly<Record<string, string | readonly string[] | undefined>> | { get(name: string): string | null };
