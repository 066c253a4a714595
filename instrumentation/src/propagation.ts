import { type Context, context, propagation, type TextMapGetter } from "@opentelemetry/api";
import type { IncomingHeaders } from "./types.js";

function hasGet(headers: IncomingHeaders): headers is { get(name: string): string | null } {
  return typeof (headers as { get?: unknown }).get === "function";
}

/** TextMapGetter over Node `IncomingHttpHeaders`, plain records and WHATWG `Headers`. */
export const incomingHeadersGetter: TextMapGetter<IncomingHeaders> = {
  keys(carrier) {
    if (hasGet(carrier)) {
      const entries = (carrier as { keys?: () => Iterable<string> }).keys;
      return typeof entries === "function" ? [...entries.call(carrier)] : [];
    }
    return Object.keys(carrier);
  },
  get(carrier, key) {
    if (hasGet(carrier)) return carrier.get(key) ?? undefined;
    const record = carrier as Readonly<Record<string, string | readonly string[] | undefined>>;
    const value = record[key] ?? record[key.toLowerCase()];
    if (value === undefined) return undefined;
    return typeof value === "string" ? value : [...value];
  },
};

/**
 * Returns the context carried by incoming HTTP headers (`traceparent`, `tracestate`,
 * `baggage`), on top of `base` (default the active context).
 *
 * Uses the global propagator of `@opentelemetry/api`: `startTracing()` (or any
 * NodeSDK) registers W3C Trace Context + Baggage by default. Without a registered
 * propagator this is a no-op and returns `base` unchanged. Never throws.
 */
export function extractIncomingContext(headers: IncomingHeaders, base: Context = context.active()): Context {
  return propagation.extract(base, headers, incomingHeadersGetter);
}

/**
 * Runs `fn` with the context carried by incoming HTTP headers as the active context,
 * so spans started inside (retrieval, generation) join the caller's trace and see its
 * baggage (`ragmeter.run.id`, `ragmeter.golden.id`). Returns what `fn` returns.
 */
export function withIncomingContext<T>(headers: IncomingHeaders, fn: () => T): T {
  return context.with(extractIncomingContext(headers), fn);
}
