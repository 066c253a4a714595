/** A small structured logger interface; the collector never writes to the console itself. */

/** Severity levels, lowest first. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Structured logger: a message plus optional fields (serialisable values). */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const noop = (): void => {};

/** A logger that drops everything (the default for library use and tests). */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * A logger writing one JSON object per line (`{time, level, msg, component, ...fields}`) to `stream`,
 * dropping entries below `level`.
 */
export function createJsonLogger(stream: NodeJS.WritableStream, level: LogLevel = "info", component = "collector"): Logger {
  const min = ORDER[level];
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>): void => {
    if (ORDER[lvl] < min) return;
    const entry = { time: new Date().toISOString(), level: lvl, component, msg, ...fields };
    stream.write(JSON.stringify(entry, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v instanceof Error ? v.message : v)) + "\n");
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
  };
}
