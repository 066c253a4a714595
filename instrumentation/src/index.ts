export { capCodePoints } from "./content.js";
export { createRagInstrumentation } from "./instrumentation.js";
export { extractIncomingContext, incomingHeadersGetter, withIncomingContext } from "./propagation.js";
export * from "./semconv.js";
export {
  type ChatMessage,
  type ContentKind,
  DEFAULT_MAX_CONTENT_LENGTH,
  type GenerationRequest,
  type GenerationResult,
  type IncomingHeaders,
  type InteractionOptions,
  type RagInstrumentation,
  type RagInstrumentationOptions,
  type RedactHook,
  type RetrievalRequest,
  type RetrievedItem,
  type TokenUsage,
  type Traced,
} from "./types.js";
export { PACKAGE_NAME, PACKAGE_VERSION } from "./version.js";
