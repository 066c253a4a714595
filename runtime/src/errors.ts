/**
 * The one root of ragmeter's errors (design §14). Every error class of every workspace extends
 * {@link RagmeterError}, so one exit path reads its exit code and one retry helper reads whether
 * trying again can succeed, with no list of classes anywhere.
 */

/**
 * What kind of failure an error is, by what the person who meets it does about it:
 * - `usage`: a flag or argument of the command line is wrong or missing;
 * - `config`: a setting (environment variable, configuration file field) is wrong or missing;
 * - `input`: data given to ragmeter (a golden set, a review file, an OTLP body, a Kafka record) is wrong;
 * - `environment`: the machine lacks something (an optional package, a browser) or another process holds it;
 * - `unavailable`: a service ragmeter talks to (Kafka, ClickHouse, the judge or target endpoint, the
 *   owner's read API) failed, refused or could not be reached;
 * - `internal`: a part of ragmeter itself failed (a thread or worker that died).
 */
export type ErrorCode = "usage" | "config" | "input" | "environment" | "unavailable" | "internal";

/** Exit code of the CLI for an error (design §5: 0 done, 1 gate failed, 2 usage, configuration or infrastructure). */
export const ERROR_EXIT_CODE = 2;

/** What a {@link RagmeterError} is, besides its message. */
export interface RagmeterErrorOptions {
  /** The kind of failure (see {@link ErrorCode}). */
  readonly code: ErrorCode;
  /** True when doing the same thing again later may succeed (read by {@link retry}); default false. */
  readonly retriable?: boolean;
  /** Exit code of the CLI when this error ends a command; default {@link ERROR_EXIT_CODE}. */
  readonly exitCode?: number;
  /** The error this one explains (a client's error, a parse failure). */
  readonly cause?: unknown;
  /**
   * True when the CLI's line puts the class name before the message (`ragmeter: KafkaError: …`):
   * for errors whose message is mostly another system's words. Default false (`ragmeter: …`).
   */
  readonly named?: boolean;
  /** The server asked to wait this long before trying again, ms (an HTTP `Retry-After`); default null. */
  readonly retryAfterMs?: number | null;
}

/** Base class of every ragmeter error: a message naming what is wrong, and the fields the exit path and the retry helper read. */
export class RagmeterError extends Error {
  /** The kind of failure. */
  readonly code: ErrorCode;
  /** True when doing the same thing again later may succeed. */
  readonly retriable: boolean;
  /** Exit code of the CLI when this error ends a command. */
  readonly exitCode: number;
  /** The server's requested wait before a retry, ms, or null. */
  readonly retryAfterMs: number | null;
  readonly #named: boolean;

  constructor(message: string, options: RagmeterErrorOptions) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.code = options.code;
    this.retriable = options.retriable ?? false;
    this.exitCode = options.exitCode ?? ERROR_EXIT_CODE;
    this.retryAfterMs = options.retryAfterMs ?? null;
    this.#named = options.named ?? false;
  }

  /** The error as the CLI's one line says it, without the `ragmeter: ` prefix. */
  toLine(): string {
    return this.#named ? `${this.name}: ${this.message}` : this.message;
  }
}

/** True for a {@link RagmeterError} that says trying again may succeed; false for anything else. */
export function isRetriable(err: unknown): boolean {
  return err instanceof RagmeterError && err.retriable;
}
