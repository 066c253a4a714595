import { diag } from "@opentelemetry/api";
import type { ContentKind, RedactHook } from "./types.js";

/** Result of preparing one captured text: the text to export, or undefined to drop it. */
export interface PreparedText {
  text: string | undefined;
  truncated: boolean;
}

/**
 * Caps `text` at `max` Unicode code points without splitting a surrogate pair.
 * `max <= 0` or non-finite means no cap. Returns the same string when under the cap.
 */
export function capCodePoints(text: string, max: number): { text: string; truncated: boolean } {
  if (!(max > 0) || !Number.isFinite(max)) return { text, truncated: false };
  // A string of at most `max` UTF-16 units has at most `max` code points.
  if (text.length <= max) return { text, truncated: false };
  let units = 0;
  let points = 0;
  while (units < text.length && points < max) {
    const code = text.charCodeAt(units);
    const isHighSurrogate = code >= 0xd800 && code <= 0xdbff;
    const next = units + 1 < text.length ? text.charCodeAt(units + 1) : 0;
    units += isHighSurrogate && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    points += 1;
  }
  if (units >= text.length) return { text, truncated: false };
  return { text: text.slice(0, units), truncated: true };
}

/**
 * Applies the redaction hook (errors reported through `diag`, content dropped) and
 * then the cap. Non-string input (a caller bug at run time) is dropped too.
 */
export function prepareText(text: unknown, kind: ContentKind, redact: RedactHook | undefined, max: number): PreparedText {
  if (typeof text !== "string") return { text: undefined, truncated: false };
  let value = text;
  if (redact !== undefined) {
    try {
      const out: unknown = redact(text, kind);
      if (typeof out !== "string") {
        diag.error(`@ragmeter/instrumentation: redact hook returned ${typeof out} for ${kind}; content dropped`);
        return { text: undefined, truncated: false };
      }
      value = out;
    } catch (err) {
      diag.error(`@ragmeter/instrumentation: redact hook threw for ${kind}; content dropped`, err);
      return { text: undefined, truncated: false };
    }
  }
  return capCodePoints(value, max);
}

/** `true` when an OTel boolean environment value is `true` (case-insensitive, trimmed). */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && value.trim().toLowerCase() === "true";
}

/**
 * Reads one key from an `OTEL_RESOURCE_ATTRIBUTES` value (`k1=v1,k2=v2`, values
 * percent-encoded per the OTel spec). Returns undefined when absent or malformed.
 */
export function resourceAttributeFromEnv(raw: string | undefined, key: string): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  for (const pair of raw.split(",")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() !== key) continue;
    const value = pair.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}
