import type { Logger, LogLevel } from "@ragmeter/collector";
import { pino } from "pino";

/**
 * The process's logger (pino): one JSON object per line (`{level, time, component, …fields, msg}`)
 * to `stream`, entries below `level` dropped. Created once per command and passed down (no global).
 */
export function createLogger(stream: NodeJS.WritableStream, level: LogLevel, component: string): Logger {
  const p = pino(
    {
      level,
      base: { component },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err },
    },
    stream,
  );
  return {
    debug: (msg, fields) => p.debug(fields ?? {}, msg),
    info: (msg, fields) => p.info(fields ?? {}, msg),
    warn: (msg, fields) => p.warn(fields ?? {}, msg),
    error: (msg, fields) => p.error(fields ?? {}, msg),
  };
}
