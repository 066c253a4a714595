export { createRagInstrumentation } from './instrumentation.js';
export { extractIncomingContext, withIncomingContext, incomingHeadersGetter } from './propagation.js';
export { capCodePoints } from './content.js';
export * from './semconv.js';
export {
  DEFAULT_MAX_CONTENT_LENGTH,
  type ChatMessage,
  type ContentKind,
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
} from './types.js';
export { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
