// `ragmeter init`: asks a service one real question, trying the request bodies services commonly
// take, and keeps the first reply that maps onto an answer.
import { RagmeterError } from "@ragmeter/runtime";
import { fetchTargetText } from "../targetFetch.js";
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

/** A request body as written in the target config: the question as `{{question}}`, `top_k` as `{{k}}`. */
export type BodyTemplate = Readonly<Record<string, string>>;

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

/** Every body tried: each key alone, then each with `top_k` (services that require it answer 400 without). */
export function candidateBodies(): BodyTemplate[] {
  return [...QUESTION_KEYS.map((k) => ({ [k]: "{{question}}" })), ...QUESTION_KEYS.map((k) => ({ [k]: "{{question}}", top_k: "{{k}}" }))];
}

/** The body sent for a template: `{{question}}` and `{{k}}` filled in. */
export function fillBody(t: BodyTemplate, question: string, k: number): Record<string, unknown> {
  return Object.fromEntries(Object.entries(t).map(([name, v]) => [name, v === "{{question}}" ? question : v === "{{k}}" ? k : v]));
}

/**
 * Sends `question` to `url` (POST JSON), first as `{"question"}`, then with the other common keys
 * and with `top_k`, until a reply maps onto an answer. A network failure or timeout stops at once
 * (unreachable); a 2xx reply that is not JSON stops at once; an HTTP error or a JSON reply without
 * answer-like text moves on to the next body.
 * @throws InitError: unreachable (`unavailable`), not JSON, or no body gave a reply with an answer.
 */
export async function probeService(url: string, question: string, opts: { readonly k: number; readonly timeoutMs: number }): Promise<ProbeResult> {
  const attempts: ProbeAttempt[] = [];
  let lastNoAnswer: string | null = null;
  for (const body of candidateBodies()) {
    const got = await fetchTargetText(
      url,
      { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(fillBody(body, question, opts.k)) },
      opts.timeoutMs,
      BODY_START,
    );
    if (!got.ok) {
      if (!got.reason.startsWith("HTTP ")) throw new InitError(`init: ${url} is unreachable: ${got.reason}`, "unavailable");
      attempts.push({ body, failure: got.reason });
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(got.text);
    } catch {
      throw new InitError(`init: ${url} answered, but the reply is not JSON; it starts ${JSON.stringify(got.text.slice(0, BODY_START))}`);
    }
    const m = proposeMapping(json);
    if (!m.ok) {
      lastNoAnswer = `${m.reason}; the reply starts ${JSON.stringify(got.text.slice(0, BODY_START))}`;
      attempts.push({ body, failure: m.reason });
      continue;
    }
    attempts.push({ body, failure: null });
    return { body, text: got.text, json, mapping: m.mapping, attempts };
  }
  if (lastNoAnswer !== null) throw new InitError(`init: ${url}: the reply has ${lastNoAnswer}`);
  const first = attempts[0]?.failure ?? "no reply";
  throw new InitError(`init: ${url} refused every request body tried (${QUESTION_KEYS.map((k) => `{"${k}"}`).join(", ")}, each also with "top_k"): first answer ${first}`);
}
