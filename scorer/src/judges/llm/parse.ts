/**
 * Pulls a JSON value out of a model reply: the whole reply, else the first fenced code block
 * (```json … ``` or ``` … ```), else the text from the first `{` to the last `}`.
 * @returns the parsed value, or undefined when no JSON can be read.
 */
export function extractJson(reply: string): unknown {
  const attempts: string[] = [reply.trim()];
  for (const m of reply.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/gu)) attempts.push((m[1] ?? "").trim());
  const first = reply.indexOf("{");
  const last = reply.lastIndexOf("}");
  if (first >= 0 && last > first) attempts.push(reply.slice(first, last + 1));
  for (const a of attempts) {
    if (a.length === 0) continue;
    try {
      return JSON.parse(a) as unknown;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}
