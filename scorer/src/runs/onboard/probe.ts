// `ragmeter init`: asks a service one real question, trying the request bodies services commonly
// take (and, when a refusal names a missing field, the same bodies inside that field), and keeps the
// first reply that maps onto an answer.
import { RagmeterError } from "@ragmeter/runtime";
import { fetchTargetText } from "../targetFetch.js";
import { missingFields } from "./refusal.js";
import { proposeMapping, type ReplyMapping } from "./replyShape.js";

/** Why `init` could not read the service: one line, exit 2. */
export class InitError extends RagmeterError {
  override readonly name = "InitError";
  constructor(message: string, code: "unavailable" | "input" | "usage" = "input") {
    super(message, { code });
  }
}

/** The question keys tried, in order (`{"question": …}` is ragmeter's own contract). */
const QUESTION_KEYS = ["question", "query", "input", "message", "q", "prompt", "text"] as const;

/** A request body as written in the target config: the question as `{{question}}`, `top_k` as `{{k}}`; one level may nest. */
export type BodyTemplate = { readonly [key: string]: string | BodyTemplate };

/** One request `init` sent and what came back. */
interface ProbeAttempt {
  readonly body: BodyTemplate;
  /** null: it worked. */
  readonly failure: string | null;
}

/** A reply that maps: the body that worked, the reply and its proposed mapping. */
export interface ProbeResult {
  readonly body: BodyTemplate;
  readonly text: string;
  readonly json: unknown;
  readonly mapping: ReplyMapping;
  readonly attempts: readonly ProbeAttempt[];
}

const BODY_START = 200;
/** Characters of an error body read for the fields it names as missing. */
const ERROR_BODY = 8000;
/** Fields named missing whose wrapped bodies are tried (a refusal may name other required fields too). */
const MAX_ENVELOPES = 2;

/** Every body tried: each key alone, then each with `top_k` (services that require it answer 400 without). */
export function candidateBodies(): BodyTemplate[] {
  return [...QUESTION_KEYS.map((k) => ({ [k]: "{{question}}" })), ...QUESTION_KEYS.map((k) => ({ [k]: "{{question}}", top_k: "{{k}}" }))];
}

/** The bodies tried inside a field a refusal named missing (`{"input": {"input": …}}` for a service that takes its input in `input`). */
export function wrappedBodies(field: string): BodyTemplate[] {
  return candidateBodies().map((b) => ({ [field]: b }));
}

/** The body sent for a template: `{{question}}` and `{{k}}` filled in. */
export function fillBody(t: BodyTemplate, question: string, k: number): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(t).map(([name, v]) => [name, typeof v !== "string" ? fillBody(v, question, k) : v === "{{question}}" ? question : v === "{{k}}" ? k : v]),
  );
}

/** Where a template puts the question, as a dotted path (`input.input`), and whether it sends `top_k`. */
export function questionField(t: BodyTemplate): { readonly path: string; readonly topK: boolean } {
  for (const [name, v] of Object.entries(t)) {
    if (v === "{{question}}") return { path: name, topK: Object.values(t).includes("{{k}}") };
    if (typeof v !== "string") {
      const inner = questionField(v);
      if (inner.path !== "") return { path: `${name}.${inner.path}`, topK: inner.topK };
    }
  }
  return { path: "", topK: false };
}

/**
 * Sends `question` to `url` (POST JSON), first as `{"question"}`, then with the other common keys
 * and with `top_k`, until a reply maps onto an answer; when none does and the refusals named a
 * missing top-level field (a FastAPI/pydantic validation error: `{"detail": [{"type": "missing",
 * "loc": ["body", "input"]}]}`), the same bodies inside that field (`{"input": {"question": …}}`, …;
 * the first two fields named). A network failure or timeout stops at once (unreachable); a 2xx
 * reply that is not JSON stops at once; an HTTP error or a JSON reply without answer-like text moves
 * on to the next body.
 * @throws InitError: unreachable (`unavailable`), not JSON, or no body gave a reply with an answer.
 */
export async function probeService(url: string, question: string, opts: { readonly k: number; readonly timeoutMs: number }): Promise<ProbeResult> {
  const attempts: ProbeAttempt[] = [];
  let lastNoAnswer: string | null = null;
  const queue = candidateBodies();
  const envelopes: string[] = [];
  let wrapped = false;
  for (;;) {
    const body = queue.shift();
    if (body === undefined) {
      // the flat bodies all refused: the same inside each field the refusals named missing, once
      if (wrapped || envelopes.length === 0) break;
      wrapped = true;
      queue.push(...envelopes.flatMap(wrappedBodies));
      continue;
    }
    const got = await fetchTargetText(
      url,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(fillBody(body, question, opts.k)) },
      opts.timeoutMs,
      ERROR_BODY,
    );
    if (!got.ok) {
      const errorBody = httpRefusal(url, got.reason, body, attempts);
      if (!wrapped) addEnvelopes(envelopes, missingFields(errorBody));
      continue;
    }
    const json = parseReply(url, got.text);
    const m = proposeMapping(json, { question });
    if (!m.ok) {
      lastNoAnswer = `${m.reason}; the reply starts ${JSON.stringify(got.text.slice(0, BODY_START))}`;
      attempts.push({ body, failure: m.reason });
      continue;
    }
    attempts.push({ body, failure: null });
    return { body, text: got.text, json, mapping: m.mapping, attempts };
  }
  throw noAnswer(url, lastNoAnswer, attempts, envelopes);
}

/**
 * A failed request: a network failure or timeout throws (unreachable); an HTTP error is recorded as
 * the body's attempt. Returns the error body (read for the fields it names missing).
 */
function httpRefusal(url: string, reason: string, body: BodyTemplate, attempts: ProbeAttempt[]): string {
  if (!reason.startsWith("HTTP ")) throw new InitError(`init: ${url} is unreachable: ${reason}`, "unavailable");
  const status = /^HTTP \d+/u.exec(reason)?.[0] ?? "HTTP error";
  const errorBody = reason.slice(status.length + 2);
  attempts.push({ body, failure: errorBody === "" ? status : `${status}: ${errorBody.slice(0, BODY_START)}` });
  return errorBody;
}

/** Adds the fields not yet listed, up to {@link MAX_ENVELOPES}. */
function addEnvelopes(envelopes: string[], fields: readonly string[]): void {
  for (const f of fields) if (!envelopes.includes(f) && envelopes.length < MAX_ENVELOPES) envelopes.push(f);
}

/** A 2xx reply's JSON; a reply that is not JSON stops the probe. */
function parseReply(url: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InitError(`init: ${url} answered, but the reply is not JSON; it starts ${JSON.stringify(text.slice(0, BODY_START))}`);
  }
}

/** Why no body gave an answer: the last JSON reply without one, else the refusals (the bodies tried and the first failure). */
function noAnswer(url: string, lastNoAnswer: string | null, attempts: readonly ProbeAttempt[], envelopes: readonly string[]): InitError {
  if (lastNoAnswer !== null) return new InitError(`init: ${url}: the reply has ${lastNoAnswer}`);
  const first = attempts[0]?.failure ?? "no reply";
  const inside = envelopes.length > 0 ? `, and each inside ${envelopes.map((f) => `"${f}"`).join(" and ")}` : "";
  return new InitError(
    `init: ${url} refused every request body tried (${QUESTION_KEYS.map((k) => `{"${k}"}`).join(", ")}, each also with "top_k"${inside}): first answer ${first}`,
  );
}
