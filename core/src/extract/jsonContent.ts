import type { AttrValue } from "../domain/spans.js";

/** A JSON-content attribute that could not be read whole: cut off or unparseable (design §4). */
export interface IncompleteContent {
  readonly attribute: string;
  readonly reason: string;
}

/** Lengths an attribute value is commonly capped at (SDK and vendor limits). */
const COMMON_CAPS = new Set([128, 256, 512, 1000, 1024, 2000, 2048, 4000, 4096, 8000, 8192, 10000, 16384, 32000, 32768, 65536]);

/**
 * Whether a string attribute meant to hold JSON was cut off or does not parse: it does not parse
 * (its first non-blank character is `[`, `{` or `"`), or it parses but its length reaches the
 * attribute value length limit the resource declares (`otel.attribute_value_length_limit`), or it
 * equals a common cap and the JSON has an unterminated string. Null when it reads whole.
 */
export function incompleteJson(v: AttrValue | undefined, attribute: string, limit: number | null = null): IncompleteContent | null {
  if (typeof v !== "string") return null;
  const t = v.trimStart();
  if (!(t.startsWith("[") || t.startsWith("{"))) return null;
  let parsed = true;
  try {
    JSON.parse(v);
  } catch {
    parsed = false;
  }
  // Characters (code points), counted only where a message or the limit needs them: spreading every
  // JSON attribute into an array was the scorer's costliest function (4.5 % of its main thread in
  // bench:scorer). A string's UTF-16 length is never below its code points, so under the limit it is
  // under the limit in characters too.
  const chars = (): number => [...v].length;
  if (!parsed) {
    const len = chars();
    return {
      attribute,
      reason: `${attribute} is not valid JSON (${len} characters${limit !== null && len >= limit ? `, at the attribute length limit ${limit}` : COMMON_CAPS.has(len) ? ", a common length cap" : ""}): cut off upstream?`,
    };
  }
  if (limit !== null && v.length >= limit && chars() >= limit) return { attribute, reason: `${attribute} reaches the attribute length limit ${limit}: its content may be capped` };
  return null;
}
