import { type Dispatcher, request } from "undici";
import { z } from "zod";
import type { RetrievedItem } from "../domain/metrics/recall.js";

/** A reply of a target (contract of `ragmeter eval`): the answer and the contexts in rank order. */
export interface TargetReply {
  readonly answer: string;
  readonly contexts: readonly RetrievedItem[];
  /** Generator model when the target reports it. */
  readonly model: string | null;
  /** Pipeline version when the target reports it (a mismatch with `--pipeline-version` is warned). */
  readonly pipeline_version: string | null;
}

/** Result of asking a target: a reply, or the reason it failed (`target_error`). */
export type TargetResult =
  | { readonly ok: true; readonly reply: TargetReply; readonly latency_ms: number }
  | { readonly ok: false; readonly reason: string; readonly latency_ms: number };

/** Trace context sent with each golden question (W3C `traceparent` and `baggage` headers). */
export interface TraceHeaders {
  readonly traceparent: string;
  readonly baggage: string;
}

/** Which question of which run is asked (placeholders `{{golden_id}}`, `{{run_id}}` of a target config). */
export interface TargetRequest {
  readonly golden_id: string;
  readonly run_id: string;
}

/** Something that answers questions: an HTTP target or an in-process pipeline. */
export interface Target {
  /** Printable description (URL or `in-process sample v1`). */
  readonly description: string;
  ask(question: string, headers: TraceHeaders, request?: TargetRequest): Promise<TargetResult>;
}

/** Target reply body schema: `{answer, contexts:[{id, document_id, text, score}]}`. */
export const targetReplySchema = z.object({
  answer: z.string(),
  contexts: z.array(
    z.object({
      id: z.union([z.string(), z.number()]).transform(String),
      document_id: z.union([z.string(), z.number()]).transform(String).optional(),
      text: z.string(),
      score: z.number().nullable().optional(),
    }),
  ),
  model: z.string().optional(),
  pipeline_version: z.string().optional(),
});

/** Validates a parsed target body into a {@link TargetReply}; returns the reason on failure. */
export function parseTargetReply(body: unknown): { ok: true; reply: TargetReply } | { ok: false; reason: string } {
  const parsed = targetReplySchema.safeParse(body);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return { ok: false, reason: `reply field "${i?.path.join(".") || "(body)"}": ${i?.message ?? "invalid"}` };
  }
  const d = parsed.data;
  return {
    ok: true,
    reply: {
      answer: d.answer,
      contexts: d.contexts.map((c) => ({ id: c.id, document_id: c.document_id ?? c.id, text: c.text, score: c.score ?? null })),
      model: d.model ?? null,
      pipeline_version: d.pipeline_version ?? null,
    },
  };
}

/** What {@link fetchTargetText} sends: method, headers and an optional body. */
export interface TargetRequestInit {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * One request to a target and its body as text: a network error, a timeout, an unreadable body or an
 * HTTP error status comes back as `{ok: false, reason}` (the error body's first `bodyStart` characters).
 * Sent with undici's `request` (keep-alive pool, no WHATWG streams): for `eval` the client side of a
 * question costs a fraction of `fetch`'s CPU and garbage (issue 12).
 */
export async function fetchTargetText(
  url: string | URL,
  init: TargetRequestInit,
  timeoutMs: number,
  bodyStart = 200,
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = (err: unknown): boolean => signal.aborted || (err as Error | undefined)?.name === "TimeoutError";
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method: init.method as Dispatcher.HttpMethod,
      headers: { ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
      signal,
      maxRedirections: 20,
    });
  } catch (err) {
    const e = err as Error;
    return {
      ok: false,
      reason: timedOut(err) ? `timeout after ${timeoutMs} ms` : `request failed: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}`,
    };
  }
  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    return { ok: false, reason: timedOut(err) ? `timeout after ${timeoutMs} ms` : `reading the body failed: ${(err as Error).message}` };
  }
  if (res.statusCode < 200 || res.statusCode > 299) return { ok: false, reason: `HTTP ${res.statusCode}${text ? `: ${text.slice(0, bodyStart)}` : ""}` };
  return { ok: true, text };
}

/**
 * An HTTP target: `POST url` with JSON `{question}` and the trace headers. HTTP errors, timeouts,
 * bodies that are not JSON or lack `answer`/`contexts` come back as `{ok: false, reason}`.
 * @param timeoutMs per-request timeout, ms.
 */
export function httpTarget(url: string, timeoutMs: number): Target {
  return {
    description: url,
    async ask(question, headers) {
      const t0 = performance.now();
      const elapsed = (): number => performance.now() - t0;
      const got = await fetchTargetText(
        url,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json", traceparent: headers.traceparent, baggage: headers.baggage },
          body: JSON.stringify({ question }),
        },
        timeoutMs,
      );
      if (!got.ok) return { ok: false, reason: got.reason, latency_ms: elapsed() };
      const text = got.text;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return { ok: false, reason: "reply is not JSON", latency_ms: elapsed() };
      }
      const r = parseTargetReply(body);
      return r.ok ? { ok: true, reply: r.reply, latency_ms: elapsed() } : { ok: false, reason: r.reason, latency_ms: elapsed() };
    },
  };
}
