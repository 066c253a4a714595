import type { Store } from "../../store/src/client.js";
import { rows } from "./streaming.js";

export const DAY = 86_400_000;

/** Trace ids of the seeded traces, in sort order A1 < A2 < B1 < R1. */
export const traceIds = {
  /** Service svc-a, stored 40 days ago. */
  oldA: ["a1".repeat(16), "a2".repeat(16)] as readonly string[],
  /** Service svc-b, stored 40 days ago. */
  oldB: ["b1".repeat(16)] as readonly string[],
  /** Service svc-a, stored 1 day ago. */
  recent: ["c1".repeat(16)] as readonly string[],
};

/**
 * Seeds one hand-countable store (raw inserts, independent of the repositories under test):
 * - A1 (svc-a, 40 days old): spans `retrieval kb` (written twice, two versions) and `chat gen-1`, 1 log record, 1 interaction, claims SUPPORTED + UNSUPPORTED, scores grounding + relevance;
 * - A2 (svc-a, 40 days old): span `chat gen-1`, no log, 1 interaction, claim SUPPORTED, 2 scores;
 * - B1 (svc-b, 40 days old): 1 span, 1 interaction, no claim, 1 score;
 * - R1 (svc-a, 1 day old): 2 spans, 1 log, 1 interaction, 1 claim, 2 scores;
 * - judge cache entries `old` (40 days) and `recent` (now).
 */
export async function seed(store: Store, now: number): Promise<void> {
  const [a1, a2] = traceIds.oldA as [string, string];
  const [b1] = traceIds.oldB as [string];
  const [r1] = traceIds.recent as [string];
  const old = now - 40 * DAY;
  const recent = now - DAY;
  const span = (trace: string, id: string, name: string, service: string, at: number, version: number, start: number) => ({
    trace_id: trace,
    span_id: id,
    parent_span_id: "",
    name,
    kind: 1,
    start_time_unix_nano: String(start),
    end_time_unix_nano: String(start + 500),
    status_code: 0,
    attributes: JSON.stringify({ "gen_ai.operation.name": name.startsWith("chat") ? "chat" : "retrieval", "gen_ai.retrieval.query.text": "How long is the refund window?" }),
    resource_attributes: JSON.stringify({ "service.name": service }),
    scope_name: "test",
    events: JSON.stringify([{ name: "gen_ai.content.prompt", attributes: { "gen_ai.prompt": "secret" } }]),
    service_name: service,
    received_at: at,
    kafka_partition: 0,
    kafka_offset: "0",
    version,
  });
  const insert = (table: string, values: unknown[]) => store.client.insert({ table: `${store.database}.${table}`, values, format: "JSONEachRow" });
  await insert("spans", [
    span(a1, "1".repeat(16), "retrieval kb", "svc-a", old, 1, 1000),
    span(a1, "1".repeat(16), "retrieval kb", "svc-a", old, 2, 1000),
    span(a1, "2".repeat(16), "chat gen-1", "svc-a", old, 1, 2000),
    span(a2, "3".repeat(16), "chat gen-1", "svc-a", old, 1, 2000),
    span(b1, "4".repeat(16), "chat gen-1", "svc-b", old, 1, 2000),
    span(r1, "5".repeat(16), "retrieval kb", "svc-a", recent, 1, 1000),
    span(r1, "6".repeat(16), "chat gen-1", "svc-a", recent, 1, 2000),
  ]);
  const log = (trace: string, at: number) => ({
    trace_id: trace,
    span_id: "2".repeat(16),
    record_id: `r-${trace.slice(0, 4)}`,
    event_name: "gen_ai.user.message",
    time_unix_nano: "1500",
    body: JSON.stringify({ content: "How long is the refund window?" }),
    attributes: JSON.stringify({ "gen_ai.system": "openai" }),
    received_at: at,
    version: 1,
  });
  await insert("logs", [log(a1, old), log(r1, recent)]);
  const interaction = (trace: string, service: string, at: number) => ({
    trace_id: trace,
    run_id: "live",
    golden_id: "",
    source: "live",
    service_name: service,
    deployment_environment: "",
    pipeline_version: "v1",
    question: "How long is the refund window?",
    answer: "Refunds are possible within 30 days.",
    retrieved: [{ id: "kb/refunds.md#1", document_id: "kb/refunds.md", text: "Refunds are possible within 30 days of the payment.", score: 1.5, rank: 1 }],
    generator_model: "gen-1",
    input_tokens: "12",
    output_tokens: "5",
    abstained: 0,
    status: "ok",
    reason: "",
    latency_ms: 10,
    created_at: at,
    version: 1,
    judge_prompt_version: "p",
  });
  await insert("interactions", [interaction(a1, "svc-a", old), interaction(a2, "svc-a", old), interaction(b1, "svc-b", old), interaction(r1, "svc-a", recent)]);
  const claim = (trace: string, index: number, verdict: string, at: number) => ({
    run_id: "live",
    trace_id: trace,
    judge_prompt_version: "p",
    repeat_index: 0,
    claim_index: index,
    golden_id: "",
    claim: `Refunds are possible within ${30 + index} days.`,
    verdict,
    chunk_ids: ["kb/refunds.md#1"],
    judge_model: "heuristic",
    pipeline_version: "v1",
    created_at: at,
    version: 1,
  });
  await insert("claims", [claim(a1, 0, "SUPPORTED", old), claim(a1, 1, "UNSUPPORTED", old), claim(a2, 0, "SUPPORTED", old), claim(r1, 0, "SUPPORTED", recent)]);
  const score = (trace: string, metric: string, value: number, at: number) => ({
    run_id: "live",
    trace_id: trace,
    metric,
    judge_prompt_version: "p",
    repeat_index: 0,
    golden_id: "",
    value,
    status: "ok",
    reason: "",
    judge_kind: "heuristic",
    judge_model: "heuristic",
    pipeline_version: "v1",
    source: "live",
    created_at: at,
    judge_input_tokens: "0",
    judge_output_tokens: "0",
    latency_ms: 1,
    version: 1,
  });
  await insert("scores", [
    score(a1, "grounding", 0.5, old),
    score(a1, "relevance", 4, old),
    score(a2, "grounding", 1, old),
    score(a2, "relevance", 3, old),
    score(b1, "relevance", 2, old),
    score(r1, "grounding", 1, recent),
    score(r1, "relevance", 4, recent),
  ]);
  const cache = (key: string, at: number) => ({
    cache_key: key,
    judge_model: "m",
    judge_prompt_version: "p",
    result: '{"claims":["Refunds are possible within 30 days."]}',
    created_at: at,
    version: 1,
  });
  await insert("judge_cache", [cache("old", old), cache("recent", now)]);
}

/** Content columns (and a few kept ones) of the given traces, as reads see them (FINAL), in key order. */
export async function contentOf(store: Store, ids: readonly string[]) {
  const p = { ids: [...ids] };
  return {
    spans: await rows<{ attributes: string; events: string; name: string; service_name: string }>(
      store,
      "SELECT attributes, events, name, service_name FROM DB.spans FINAL WHERE trace_id IN {ids:Array(String)} ORDER BY trace_id, name",
      p,
    ),
    logs: await rows<{ body: string; attributes: string; event_name: string }>(
      store,
      "SELECT body, attributes, event_name FROM DB.logs FINAL WHERE trace_id IN {ids:Array(String)} ORDER BY trace_id, record_id",
      p,
    ),
    interactions: await rows<{ question: string; answer: string | null; n_retrieved: string; status: string; pipeline_version: string; input_tokens: string }>(
      store,
      "SELECT question, answer, toString(length(retrieved)) AS n_retrieved, status, pipeline_version, toString(input_tokens) AS input_tokens FROM DB.interactions FINAL WHERE trace_id IN {ids:Array(String)} ORDER BY trace_id",
      p,
    ),
    claims: await rows<{ claim: string; verdict: string }>(
      store,
      "SELECT claim, verdict FROM DB.claims FINAL WHERE trace_id IN {ids:Array(String)} ORDER BY trace_id, claim_index",
      p,
    ),
  };
}
