export { ERROR_EXIT_CODE, type ErrorCode, RagmeterError, type RagmeterErrorOptions } from "./errors.js";
export { COLLECTOR_LISTENER, DEFAULT_LISTEN_HOST, isLoopbackHost, type ListenerSettings, openListenerWarning, readApiRefusal } from "./listen.js";
export { createJsonLogger, createLogger, type Logger, type LoggerOptions, type LogLevel, messageLogger, type PinoLogger, pinoOf, silentLogger } from "./logger.js";
export { type Backoff, type RetryOptions, retry } from "./retry.js";
export * from "./settings/index.js";
export { untilShutdown } from "./shutdown.js";
export {
  readTlsMaterial,
  reloadTlsOnChange,
  type SecureContextHolder,
  TLS_CERT_SETTING,
  TLS_KEY_SETTING,
  type TlsFiles,
  type TlsMaterial,
  TlsSettingsError,
  tlsFilesOf,
} from "./tls.js";
