// `ragmeter init`: what a service's refusal (an HTTP 4xx error body) says its request body lacks.
// Pure: the error body's text in, the names of the missing top-level fields out.

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Where a validation error's `loc` starts with the part of the request, not a field name. */
const REQUEST_PARTS = new Set(["body", "query", "path", "header", "cookie"]);

/** A validation error of a missing field: pydantic 2 (`missing`), pydantic 1 (`value_error.missing`), or its message. */
const isMissing = (e: Record<string, unknown>): boolean =>
  e["type"] === "missing" || e["type"] === "value_error.missing" || (typeof e["msg"] === "string" && /^field required$/iu.test(e["msg"]));

/**
 * The top-level request fields a refusal names as required and missing, in the order named: the
 * validation errors of the OpenAPI/pydantic kind every FastAPI service (and the serving layers
 * built on it) answers with, `{"detail": [{"type": "missing", "loc": ["body", "input"], …}]}`,
 * wherever they sit in the error body. A field inside another (`loc` of two names or more) is not
 * one. Empty when the body is not JSON or names none.
 */
export function missingFields(errorBody: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(errorBody);
  } catch {
    return [];
  }
  const found: string[] = [];
  walkMissing(json, 0, found);
  return found;
}

/** Adds the top-level fields named missing in `v` (at any depth up to 4) to `found`, once each. */
function walkMissing(v: unknown, depth: number, found: string[]): void {
  if (depth > 4) return;
  if (Array.isArray(v)) for (const x of v) walkMissing(x, depth + 1, found);
  else if (isObject(v)) {
    if (isMissing(v) && Array.isArray(v["loc"])) {
      const name = topLevelField(v["loc"] as unknown[]);
      if (name !== null && !found.includes(name)) found.push(name);
      return;
    }
    for (const x of Object.values(v)) walkMissing(x, depth + 1, found);
  }
}

/** The field a `loc` names when it is a top-level one (after the request part, `body`, …); null for a field inside another. */
function topLevelField(loc: readonly unknown[]): string | null {
  const rest = loc.filter((k, i) => !(i === 0 && typeof k === "string" && REQUEST_PARTS.has(k)));
  const name = rest[0];
  return rest.length === 1 && typeof name === "string" ? name : null;
}
