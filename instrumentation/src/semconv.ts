/**
 * Attribute, baggage and environment names written or read by this package.
 *
 * The OpenTelemetry GenAI names are still "Development" (incubating) in the
 * semantic conventions, so — as opentelemetry-js-contrib does — they are copied
 * here as constants instead of being imported at run time from
 * `@opentelemetry/semantic-conventions/incubating`.
 *
 * Sources:
 * - OTel GenAI: semantic-conventions-genai v0.1.0 (`docs/gen-ai/retrieval.md`,
 *   `docs/gen-ai/client-inference.md`, attribute registry `gen_ai.*`), the
 *   successor of semantic-conventions v1.41.0 `docs/gen-ai/`.
 * - OpenInference: Arize-ai/openinference `spec/semantic_conventions.md`.
 * - ragmeter: design §4 and §10.
 */

// ---------------------------------------------------------------------------
// OpenTelemetry GenAI (incubating)
// ---------------------------------------------------------------------------

/** `gen_ai.operation.name` — string; `retrieval` or `chat` on the spans of this package. */
export const ATTR_GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
/** `gen_ai.provider.name` — string, e.g. `openai`; set when the caller names the provider. */
export const ATTR_GEN_AI_PROVIDER_NAME = "gen_ai.provider.name";
/** `gen_ai.data_source.id` — string; the store or index queried by a retrieval. */
export const ATTR_GEN_AI_DATA_SOURCE_ID = "gen_ai.data_source.id";
/** `gen_ai.retrieval.query.text` — string; the query text (content: opt-in). */
export const ATTR_GEN_AI_RETRIEVAL_QUERY_TEXT = "gen_ai.retrieval.query.text";
/**
 * `gen_ai.retrieval.documents` — JSON string of an array of
 * `{id: string, score?: number, content?: string, document_id?: string}` in rank
 * order. `id` and `score` are always written; `content` only when content capture
 * is on; `document_id` (ragmeter extra, design §10) only when it differs from `id`.
 */
export const ATTR_GEN_AI_RETRIEVAL_DOCUMENTS = "gen_ai.retrieval.documents";
/** `gen_ai.retrieval.top_k` — int; number of documents requested. */
export const ATTR_GEN_AI_RETRIEVAL_TOP_K = "gen_ai.retrieval.top_k";
/** `gen_ai.request.model` — string; model asked for (embedding model on a retrieval span). */
export const ATTR_GEN_AI_REQUEST_MODEL = "gen_ai.request.model";
/** `gen_ai.response.model` — string; model that actually answered. */
export const ATTR_GEN_AI_RESPONSE_MODEL = "gen_ai.response.model";
/** `gen_ai.response.id` — string; provider's completion id. */
export const ATTR_GEN_AI_RESPONSE_ID = "gen_ai.response.id";
/** `gen_ai.response.finish_reasons` — string[]. */
export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons";
/** `gen_ai.usage.input_tokens` — int; prompt tokens. */
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens";
/** `gen_ai.usage.output_tokens` — int; completion tokens. */
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
/**
 * `gen_ai.input.messages` — JSON string, `[{role, parts: [{type: "text", content}]}]`
 * (content: opt-in).
 */
export const ATTR_GEN_AI_INPUT_MESSAGES = "gen_ai.input.messages";
/**
 * `gen_ai.output.messages` — JSON string,
 * `[{role: "assistant", parts: [{type: "text", content}], finish_reason}]` (content: opt-in).
 */
export const ATTR_GEN_AI_OUTPUT_MESSAGES = "gen_ai.output.messages";
/** `gen_ai.system_instructions` — JSON string, `[{type: "text", content}]` (content: opt-in). */
export const ATTR_GEN_AI_SYSTEM_INSTRUCTIONS = "gen_ai.system_instructions";
/** `error.type` — string; the error class name when the wrapped call threw. */
export const ATTR_ERROR_TYPE = "error.type";

/** Values of `gen_ai.operation.name` written by this package. */
export const GEN_AI_OPERATION_NAME_VALUE_RETRIEVAL = "retrieval";
/** Chat-completion generation (the default generation operation). */
export const GEN_AI_OPERATION_NAME_VALUE_CHAT = "chat";
/** Plain text completion. */
export const GEN_AI_OPERATION_NAME_VALUE_TEXT_COMPLETION = "text_completion";
/** Gemini-style `generate_content`. */
export const GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT = "generate_content";

// ---------------------------------------------------------------------------
// ragmeter extras (design §10)
// ---------------------------------------------------------------------------

/** `ragmeter.pipeline.version` — resource/span attribute and baggage key. */
export const ATTR_RAGMETER_PIPELINE_VERSION = "ragmeter.pipeline.version";
/** `ragmeter.run.id` — baggage key copied to span attributes. */
export const ATTR_RAGMETER_RUN_ID = "ragmeter.run.id";
/** `ragmeter.golden.id` — baggage key copied to span attributes. */
export const ATTR_RAGMETER_GOLDEN_ID = "ragmeter.golden.id";
/**
 * `ragmeter.content.truncated` — boolean; true when any captured value on the span
 * was capped at `maxContentLength`. The scorer then reports `context_incomplete`.
 */
export const ATTR_RAGMETER_CONTENT_TRUNCATED = "ragmeter.content.truncated";
/** Key of the chunk's document id inside OpenInference `document.metadata` JSON. */
export const RAGMETER_DOCUMENT_ID_KEY = "document_id";

/** Baggage keys read from the incoming context (same strings as the attributes). */
export const BAGGAGE_RAGMETER_RUN_ID = ATTR_RAGMETER_RUN_ID;
/** Baggage key of the golden item id. */
export const BAGGAGE_RAGMETER_GOLDEN_ID = ATTR_RAGMETER_GOLDEN_ID;
/** Baggage key of the pipeline version sent by `ragmeter eval`. */
export const BAGGAGE_RAGMETER_PIPELINE_VERSION = ATTR_RAGMETER_PIPELINE_VERSION;

// ---------------------------------------------------------------------------
// OpenInference (written when `openInference: true`)
// ---------------------------------------------------------------------------

/** `openinference.span.kind` — `RETRIEVER`, `LLM`, `CHAIN`. */
export const ATTR_OPENINFERENCE_SPAN_KIND = "openinference.span.kind";
/** OpenInference span kind of a retrieval span. */
export const OPENINFERENCE_SPAN_KIND_RETRIEVER = "RETRIEVER";
/** OpenInference span kind of a generation span. */
export const OPENINFERENCE_SPAN_KIND_LLM = "LLM";
/** OpenInference span kind of an interaction (request) span. */
export const OPENINFERENCE_SPAN_KIND_CHAIN = "CHAIN";
/** `input.value` — string (content: opt-in). */
export const ATTR_OI_INPUT_VALUE = "input.value";
/** `input.mime_type` — `text/plain` here. */
export const ATTR_OI_INPUT_MIME_TYPE = "input.mime_type";
/** `output.value` — string (content: opt-in). */
export const ATTR_OI_OUTPUT_VALUE = "output.value";
/** `output.mime_type` — `text/plain` here. */
export const ATTR_OI_OUTPUT_MIME_TYPE = "output.mime_type";
/** `llm.model_name` — string. */
export const ATTR_OI_LLM_MODEL_NAME = "llm.model_name";
/** `llm.provider` — string. */
export const ATTR_OI_LLM_PROVIDER = "llm.provider";
/** `llm.token_count.prompt` — int. */
export const ATTR_OI_LLM_TOKEN_COUNT_PROMPT = "llm.token_count.prompt";
/** `llm.token_count.completion` — int. */
export const ATTR_OI_LLM_TOKEN_COUNT_COMPLETION = "llm.token_count.completion";
/** `llm.token_count.total` — int. */
export const ATTR_OI_LLM_TOKEN_COUNT_TOTAL = "llm.token_count.total";
/** Prefix of the flattened `retrieval.documents.<i>.document.*` list. */
export const OI_RETRIEVAL_DOCUMENTS_PREFIX = "retrieval.documents";
/** Prefix of the flattened `llm.input_messages.<i>.message.*` list. */
export const OI_LLM_INPUT_MESSAGES_PREFIX = "llm.input_messages";
/** Prefix of the flattened `llm.output_messages.<i>.message.*` list. */
export const OI_LLM_OUTPUT_MESSAGES_PREFIX = "llm.output_messages";

/** `retrieval.documents.<i>.document.id` */
export function oiDocumentIdKey(i: number): string {
  return `${OI_RETRIEVAL_DOCUMENTS_PREFIX}.${i}.document.id`;
}
/** `retrieval.documents.<i>.document.content` */
export function oiDocumentContentKey(i: number): string {
  return `${OI_RETRIEVAL_DOCUMENTS_PREFIX}.${i}.document.content`;
}
/** `retrieval.documents.<i>.document.score` */
export function oiDocumentScoreKey(i: number): string {
  return `${OI_RETRIEVAL_DOCUMENTS_PREFIX}.${i}.document.score`;
}
/** `retrieval.documents.<i>.document.metadata` (JSON string) */
export function oiDocumentMetadataKey(i: number): string {
  return `${OI_RETRIEVAL_DOCUMENTS_PREFIX}.${i}.document.metadata`;
}
/** `llm.input_messages.<i>.message.role|content` */
export function oiInputMessageKey(i: number, field: "role" | "content"): string {
  return `${OI_LLM_INPUT_MESSAGES_PREFIX}.${i}.message.${field}`;
}
/** `llm.output_messages.<i>.message.role|content` */
export function oiOutputMessageKey(i: number, field: "role" | "content"): string {
  return `${OI_LLM_OUTPUT_MESSAGES_PREFIX}.${i}.message.${field}`;
}

// ---------------------------------------------------------------------------
// Environment
// ---------------------------------------------------------------------------

/** `true` (case-insensitive) turns content capture on when the option is not given. */
export const ENV_CAPTURE_MESSAGE_CONTENT = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";
/** Standard resource attributes list; `ragmeter.pipeline.version=…` is read from it. */
export const ENV_OTEL_RESOURCE_ATTRIBUTES = "OTEL_RESOURCE_ATTRIBUTES";
/** Standard service name variable (read by `startTracing`). */
export const ENV_OTEL_SERVICE_NAME = "OTEL_SERVICE_NAME";
