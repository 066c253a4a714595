import { type ErrorCode, RagmeterError } from "@ragmeter/runtime";

/** Base class of store errors; `retriable` tells the retry helper whether to try again. */
export class StoreError extends RagmeterError {
  override readonly name: string = "StoreError";
  constructor(message: string, retriable = false, options?: { cause?: unknown; code?: ErrorCode }) {
    super(message, { code: options?.code ?? "unavailable", retriable, cause: options?.cause });
  }
}

/** The embedded store is owned by another live process (design §3, single-owner rule). */
export class StoreInUseError extends StoreError {
  override readonly name = "StoreInUseError";
  constructor(readonly pid: number) {
    super(`store in use by PID ${pid}: stop that process first, or use a ClickHouse server (CLICKHOUSE_URL) for several processes`, false, { code: "environment" });
  }
}

/** The embedded engine (`chdb`, an optional dependency) is not installed. */
export class EmbeddedEngineMissingError extends StoreError {
  override readonly name = "EmbeddedEngineMissingError";
  constructor(cause: unknown) {
    super("the embedded ClickHouse engine (npm package chdb) is not installed: run `npm i chdb`, or set CLICKHOUSE_URL to a ClickHouse server", false, {
      cause,
      code: "environment",
    });
  }
}

/**
 * ClickHouse error types that the same statement meets again however long one waits: a statement
 * or schema that does not fit, data it cannot read, a user it refuses. Every other failure (the
 * server or engine unreachable, a timeout, too many parts or queries, memory) can pass.
 */
const PERMANENT_TYPES: ReadonlySet<string> = new Set([
  "SYNTAX_ERROR",
  "UNKNOWN_TABLE",
  "UNKNOWN_DATABASE",
  "UNKNOWN_IDENTIFIER",
  "NO_SUCH_COLUMN_IN_TABLE",
  "TYPE_MISMATCH",
  "ILLEGAL_TYPE_OF_ARGUMENT",
  "CANNOT_PARSE_TEXT",
  "CANNOT_PARSE_INPUT_ASSERTION_FAILED",
  "INCORRECT_DATA",
  "AUTHENTICATION_FAILED",
  "ACCESS_DENIED",
  "READONLY",
]);

/**
 * A failure of a store call as a {@link StoreError}, for the retry helper: a ClickHouse error of a
 * type in {@link PERMANENT_TYPES} is not retriable, anything else is (the cause keeps the original).
 */
export function storeFailure(err: unknown): StoreError {
  if (err instanceof StoreError) return err;
  const type = (err as { type?: unknown } | null)?.type;
  const permanent = typeof type === "string" && PERMANENT_TYPES.has(type);
  return new StoreError((err as Error)?.message ?? String(err), !permanent, { cause: err, code: permanent ? "input" : "unavailable" });
}
