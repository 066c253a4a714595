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
  const walk = (v: unknown, depth: number): void => {
    if (depth > 4) return;
    if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isObject(v)) {
      if (isMissing(v) && Array.isArray(v["loc"])) {
        const loc = (v["loc"] as unknown[]).filter((k, i) => !(i === 0 && typeof k === "string" && REQUEST_PARTS.has(k)));
        const name = loc[0];
        if (loc.length === 1 && typeof name === "string" && !found.includes(name)) found.push(name);
        return;
      }
      for (const x of Object.values(v)) walk(x, depth + 1);
    }
  };
  walk(json, 0);
  return found;
}
