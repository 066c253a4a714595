/** Base class of store errors; `retriable` tells the retry helper whether to try again. */
export class StoreError extends Error {
  override readonly name: string = "StoreError";
  constructor(
    message: string,
    readonly retriable = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The embedded store is owned by another live process (design §3, single-owner rule). */
export class StoreInUseError extends StoreError {
  override readonly name = "StoreInUseError";
  constructor(readonly pid: number) {
    super(`store in use by PID ${pid}: stop that process first, or use a ClickHouse server (CLICKHOUSE_URL) for several processes`);
  }
}

/** The embedded engine (`chdb`, an optional dependency) is not installed. */
export class EmbeddedEngineMissingError extends StoreError {
  override readonly name = "EmbeddedEngineMissingError";
  constructor(cause: unknown) {
    super("the embedded ClickHouse engine (npm package chdb) is not installed: run `npm i chdb`, or set CLICKHOUSE_URL to a ClickHouse server", false, { cause });
  }
}
