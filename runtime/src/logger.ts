/**
 * Logging of ragmeter's processes (collector, scorer, CLI): one pino instance per process (or per component in tests), created by
 * the entry point and passed down.
 */
import { type DestinationStream, type Logger as PinoLogger, pino } from "pino";

/** A pino logger. */
export type { PinoLogger };

/** Severity levels the configuration accepts (`RAGMETER_LOG_LEVEL`). */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Lowest level written (default info). */
  level?: LogLevel | "silent";
  /** Component name, written as `component` on every line (default collector). */
  component?: string;
  /** Where JSON lines go (default stderr). */
  destination?: DestinationStream | NodeJS.WritableStream;
}

/**
 * A pino logger writing one JSON object per line (`{level, time, component, msg, ...fields}`),
 * bigint fields as decimal strings, errors through pino's serializer.
 */
export function createLogger(options: LoggerOptions = {}): PinoLogger {
  return pino(
    {
      level: options.level ?? "info",
      base: { component: options.component ?? "collector" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        // pino serialises with JSON.stringify, which throws on bigint: write them as decimal strings.
        logMethod(args, method) {
          const [first, ...rest] = args;
          if (first !== null && typeof first === "object" && !(first instanceof Error)) {
            const safe = JSON.parse(JSON.stringify(first, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v instanceof Error ? v.message : v))) as object;
            method.apply(this, [safe, ...rest] as Parameters<typeof method>);
            return;
          }
          method.apply(this, args);
        },
      },
    },
    (options.destination ?? process.stderr) as DestinationStream,
  );
}

/** A logger that writes nothing (the default for library use and tests). */
export function silentLogger(): PinoLogger {
  return pino({ level: "silent" });
}

/** Message-first logger: the shape the scorer's components log through. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** The pino instance underneath (what the collector logs through). */
  readonly pino: PinoLogger;
}

/** A message-first view of a pino logger. */
export function messageLogger(p: PinoLogger): Logger {
  return {
    debug: (m, f) => p.debug(f ?? {}, m),
    info: (m, f) => p.info(f ?? {}, m),
    warn: (m, f) => p.warn(f ?? {}, m),
    error: (m, f) => p.error(f ?? {}, m),
    pino: p,
  };
}

/**
 * A message-first logger over a new pino instance writing JSON lines to `stream` at `level`, with
 * `component` on every line (used by the scorer's commands).
 */
export function createJsonLogger(stream: NodeJS.WritableStream, level: LogLevel = "info", component = "collector"): Logger {
  return messageLogger(createLogger({ destination: stream, level, component }));
}

/** The pino instance of either kind of logger. */
export function pinoOf(logger: Logger | PinoLogger): PinoLogger {
  return "pino" in logger && typeof logger.pino === "object" ? logger.pino : (logger as PinoLogger);
}
