import { isDeepStrictEqual } from "node:util";

/** A fenced code block, ```json … ``` or ``` … ```; group 1 is its content. */
const FENCE = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/gu;

type Parsed = { ok: true; value: unknown } | { ok: false };

function tryParse(text: string): Parsed {
  if (text.length === 0) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Index of the `}` that closes the `{` at `start`, braces inside JSON strings (and escaped quotes in
 * them) not counted; -1 when it never closes.
 */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  for (let k = start; k < text.length; k++) {
    const c = text[k];
    if (c === '"') k = stringEnd(text, k);
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return k;
  }
  return -1;
}

/** Index of the `"` that closes the JSON string opened at `start` (escapes skipped); the text's length when it never closes. */
function stringEnd(text: string, start: number): number {
  for (let k = start + 1; k < text.length; k++) {
    const c = text[k];
    if (c === "\\") k++;
    else if (c === '"') return k;
  }
  return text.length;
}

/**
 * The top-level JSON objects of a stretch of text, in order: each balanced `{…}` that parses (it
 * starts at a `{` followed by a key's quote or by `}`: a `{` of prose starts none). A
 * balanced span that does not parse is passed over whole; one that never closes (a truncated block)
 * holds the rest of the text, so nothing after it is top level.
 */
function topLevelObjects(text: string): unknown[] {
  const out: unknown[] = [];
  const starts = /\{(?=\s*["}])/gu;
  for (let m = starts.exec(text); m !== null; m = starts.exec(text)) {
    const end = closingBrace(text, m.index);
    if (end < 0) break;
    const parsed = tryParse(text.slice(m.index, end + 1));
    if (parsed.ok) out.push(parsed.value);
    starts.lastIndex = end + 1;
  }
  return out;
}

/**
 * Every complete JSON value a model reply holds, in reply order (design §5). A reply that is JSON as
 * a whole is that one value. Else: each fenced code block (```json … ``` or ``` … ```) whose content
 * parses, and the top-level balanced `{…}` objects of the text outside the fences (and of a fence
 * whose content is not JSON as a whole), found by a scanner that skips JSON strings and their escapes;
 * a block opened and never closed is not complete and gives nothing. Deep-equal values are kept once,
 * at their last place.
 */
export function jsonCandidates(reply: string): unknown[] {
  const whole = tryParse(reply.trim());
  if (whole.ok) return [whole.value];
  const found: unknown[] = [];
  let at = 0;
  for (const m of reply.matchAll(FENCE)) {
    found.push(...topLevelObjects(reply.slice(at, m.index)));
    const content = m[1] ?? "";
    const parsed = tryParse(content.trim());
    if (parsed.ok) found.push(parsed.value);
    else found.push(...topLevelObjects(content));
    at = m.index + m[0].length;
  }
  found.push(...topLevelObjects(reply.slice(at)));
  return found.filter((v, i) => !found.slice(i + 1).some((later) => isDeepStrictEqual(v, later)));
}

/**
 * The JSON value of a model reply with no schema to choose by: the last complete one of
 * {@link jsonCandidates} (a model's final block follows its draft). The judge itself chooses with
 * its schema (the last candidate that validates; `readReply`).
 * @returns the parsed value, or undefined when no JSON can be read.
 */
export function extractJson(reply: string): unknown {
  return jsonCandidates(reply).at(-1);
}
