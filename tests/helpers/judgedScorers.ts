// Streaming scorers fed in process (no Kafka) with the LLM judge (the real `openai` client) against the
// scripted OpenAI-compatible server: 2 requests per judged RAG trace (grounding, relevance), 120 tokens
// each. The judge budget tests of a scorer group use them (tests/integration/group-budget*).

import { createLlmJudge } from "../../core/src/judges/llm/llmJudge.js";
import { JudgeBudget } from "../../core/src/scoring/budget.js";
import type { Store } from "../../store/src/client.js";
import { type ScorerService, startScorerService } from "../../stream/src/service.js";
import { type ScriptedReply, startFakeOpenAI } from "./openaiServer.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "./ragTrace.js";
import { DOCS as docs, rows, waitFor } from "./streaming.js";

const QUIET = 300;
const ANSWER = "PostgreSQL listens on port 5432.";
const GOOD = JSON.stringify({ verdicts: [{ verdict: "SUPPORTED", chunk_ids: ["kb/ports.md#1"] }] });
const script = (system: string): ScriptedReply => (system.startsWith("You rate") ? { content: '{"score": 4, "reason": "answers it"}' } : { content: GOOD });

/** The scripted judge endpoint: every reply good. */
export const startGoodJudge = () => startFakeOpenAI((req) => script(req.body.messages[0]?.content ?? ""));

/** A budget of `calls` judge requests per hour for service `service` (no other cap). */
export const capOf = (service: string, calls: number): JudgeBudget =>
  new JudgeBudget({ calls: { perService: null, byService: { [service]: calls } }, tokens: { perService: null } });

/** A scorer on `store` fed in process, scoring only what it wrote (no full scan after its start); stats written every 300 ms. */
export function startJudgedScorer(store: Store, judgeURL: string, budget: JudgeBudget, warnings: string[] = []): Promise<ScorerService> {
  return startScorerService({
    store,
    stream: { brokers: null, topic: "unused", quietMs: QUIET, liveSampleRate: 1, groupId: "unused", sessionTimeoutMs: 6000, concurrency: 4 },
    consume: false,
    log: { info() {}, warn: (m) => warnings.push(m), error() {} },
    scoring: {
      judge: createLlmJudge({ baseURL: judgeURL, apiKey: "test", model: "judge-1", timeoutMs: 5_000, maxRetries: 0 }),
      ks: [1, 5],
      quietMs: QUIET,
      liveSampleRate: 1,
      budget,
      concurrency: 4,
      batchSize: 100,
    },
    intervalMs: 100,
    fullScanIntervalMs: 3_600_000,
    statsIntervalMs: 300,
  });
}

/** Hands `n` RAG traces of `service` to a scorer; returns their ids. */
export async function send(svc: ScorerService, service: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let k = 0; k < n; k++) {
    const id = traceId();
    const { retrieval, generation } = ragSpans({ traceId: id, question: "Which port does Postgres listen on?", docs, answer: ANSWER });
    await svc.sink.send("traces", [{ key: id, value: protobufOf(traceRequest([retrieval, generation], service)), items: 2 }], {});
    ids.push(id);
  }
  return ids;
}

/** A trace's grounding and relevance status and the grounding reason. */
export interface TraceStatus {
  readonly grounding: string;
  readonly relevance: string;
  readonly reason: string;
}

/** Per trace of `ids`, in order: its statuses (scores FINAL in `store`), once all are scored. */
export async function scoredStatuses(store: Store, ids: readonly string[]): Promise<TraceStatus[]> {
  const read = () =>
    rows<{ trace_id: string; metric: string; status: string; reason: string }>(
      store,
      "SELECT trace_id, metric, status, reason FROM DB.scores FINAL WHERE metric IN ('grounding', 'relevance') AND trace_id IN {ids:Array(String)}",
      { ids },
    );
  await waitFor(async () => (await read()).length === 2 * ids.length, 30_000);
  const by = new Map<string, TraceStatus>();
  for (const x of await read()) {
    const cur = by.get(x.trace_id) ?? { grounding: "", relevance: "", reason: "" };
    by.set(x.trace_id, x.metric === "grounding" ? { ...cur, grounding: x.status, reason: x.reason } : { ...cur, relevance: x.status });
  }
  return ids.map((id) => by.get(id) ?? { grounding: "", relevance: "", reason: "" });
}

/** Both metrics judged `ok`. */
export const judged = (s: TraceStatus): boolean => s.grounding === "ok" && s.relevance === "ok";
/** Both metrics `budget_exhausted`. */
export const exhausted = (s: TraceStatus): boolean => s.grounding === "budget_exhausted" && s.relevance === "budget_exhausted";
