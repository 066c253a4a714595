import type { RetrievedItem } from "@ragmeter/core/domain/metrics/recall";
import { z } from "zod";
import { inlineTargetClient, type TargetClient } from "./targetClient.js";

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
  /**
   * Calls this target runs at once, queuing the others (its client thread); absent: every call at
   * once. A caller may then hand it more questions than it wants in flight (eval asks ahead).
   */
  readonly inFlight?: number;
  /** `cancel` aborted (the run failed): a question not sent yet is not sent, one in flight is given up (`target_error`). */
  ask(question: string, headers: TraceHeaders, request?: TargetRequest, cancel?: AbortSignal): Promise<TargetResult>;
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

/**
 * An HTTP target: `POST url` with JSON `{question}` and the trace headers. HTTP errors, timeouts,
 * bodies that are not JSON or lack `answer`/`contexts` come back as `{ok: false, reason}`.
 * @param timeoutMs per-request timeout, ms.
 * @param client how requests are sent (default: on the calling thread, all at once); its owner
 *   closes it.
 */
export function httpTarget(url: string, timeoutMs: number, client: TargetClient = inlineTargetClient()): Target {
  return {
    description: url,
    ...(client.inFlight !== null ? { inFlight: client.inFlight } : {}),
    async ask(question, headers, _request, cancel) {
      const got = await client.fetchText(
        url,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json", traceparent: headers.traceparent, baggage: headers.baggage },
          body: JSON.stringify({ question }),
        },
        timeoutMs,
        200,
        cancel,
      );
      const latency = got.latency_ms;
      if (!got.ok) return { ok: false, reason: got.reason, latency_ms: latency };
      let body: unknown;
      try {
        body = JSON.parse(got.text);
      } catch {
        return { ok: false, reason: "reply is not JSON", latency_ms: latency };
      }
      const r = parseTargetReply(body);
      return r.ok ? { ok: true, reply: r.reply, latency_ms: latency } : { ok: false, reason: r.reason, latency_ms: latency };
    },
  };
}
