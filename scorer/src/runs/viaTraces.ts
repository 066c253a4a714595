import type { GoldenItem } from "@ragmeter/golden";
import { loadCollectorConfig, startCollector, type Logger, type RunningCollector } from "@ragmeter/collector";
import pLimit from "p-limit";
import { storeJudgeCache } from "../store/judgeCache.js";
import { createJudgeSession } from "../judges/session/session.js";
import { saveGoldenSet } from "../store/golden.js";
import { saveResults } from "../store/results.js";
import { startScorerService } from "../stream/service.js";
import type { ScoredTrace } from "../scoring/trace.js";
import { resultRows } from "../scoring/rows.js";
import type { QuestionResult } from "../domain/result.js";
import { failedQuestion } from "../scoring/score.js";
import { completeRun, startRun, type EvalOptions, type EvalOutcome } from "./eval.js";
import { baggage, newTraceIds, traceparent } from "./traceContext.js";

/** Options of {@link runEvalViaTraces}: those of a direct eval plus where the spans come from. */
export interface ViaTracesOptions extends EvalOptions {
  /**
   * Where the target's spans arrive:
   * - `otlp`: this process serves OTLP/HTTP on `port` (the target's `OTEL_EXPORTER_OTLP_ENDPOINT`)
   *   and hands spans to its scorer in process (embedded mode);
   * - `kafka`: the target exports to a `ragmeter collector`; this process consumes the topic
   *   (from its latest offset, in a consumer group of its own) and scores.
   */
  readonly spans: { readonly kind: "otlp"; readonly port: number; readonly host: string } | { readonly kind: "kafka"; readonly brokers: readonly string[]; readonly topic: string };
  /** Quiet window after a trace's last span, ms. */
  readonly quietMs: number;
  /** How long to wait for a question's spans after it was answered, ms; then `trace_timeout`. */
  readonly traceTimeoutMs: number;
  readonly log: Logger;
  /** Called with the OTLP URL once the receiver listens (`otlp` mode). */
  readonly onReceiver?: (url: string) => void;
}

/**
 * Golden replay through the target's own spans (`eval --via-traces`, design §2): each question is
 * sent with `traceparent` and `baggage`; the instrumented target's spans reach the scorer, which
 * builds the interaction from them and scores it exactly as the direct mode scores a reply.
 * Questions whose target call fails are `target_error`; those whose spans do not arrive within
 * `traceTimeoutMs` are `trace_timeout`. Prints and stores the same summary as the direct mode.
 */
export async function runEvalViaTraces(o: ViaTracesOptions): Promise<EvalOutcome> {
  const { golden, store, ks } = o;
  const repeat = 1;
  const useCache = o.cache ?? true;
  const session = createJudgeSession(o.judge, { cache: useCache ? storeJudgeCache(store) : null, prices: o.prices ?? null, maxCostUsd: o.maxCostUsd ?? null });
  const judge = session.judge;
  const now = o.now ?? Date.now;
  await saveGoldenSet(store, golden);
  const run = await startRun(store, { source: "golden", pipelineVersion: o.pipelineVersion, goldenSetHash: golden.sha256, goldenSetPath: golden.path, judge, ks, target: `${o.target.description} (via traces)`, startedAt: now() });

  const byTrace = new Map<string, QuestionResult>();
  const waiting = new Map<string, { item: GoldenItem; answeredAt: number }>();
  const warnings = new Set<string>();
  const service = await startScorerService({
    store,
    stream: {
      brokers: o.spans.kind === "kafka" ? o.spans.brokers : null,
      topic: o.spans.kind === "kafka" ? o.spans.topic : "ragmeter.spans",
      quietMs: o.quietMs,
      liveSampleRate: 1,
      groupId: `ragmeter-eval-${run.run_id}`,
      sessionTimeoutMs: 10_000,
      concurrency: 8,
    },
    consume: o.spans.kind === "kafka",
    consumer: { fromBeginning: false, maxWaitTimeMs: 250 },
    log: o.log,
    scoring: { judge, ks, quietMs: o.quietMs, liveSampleRate: 1, concurrency: 8, batchSize: 500 },
    intervalMs: Math.min(250, Math.max(50, Math.floor(o.quietMs / 4))),
    onScored: (scored: readonly ScoredTrace[]) => {
      for (const s of scored) {
        if (s.interaction.run_id !== run.run_id || !waiting.has(s.interaction.trace_id)) continue;
        if (s.interaction.pipeline_version !== null && s.interaction.pipeline_version !== o.pipelineVersion) {
          warnings.add(`the target's spans report pipeline version "${s.interaction.pipeline_version}"; recorded as "${o.pipelineVersion}" (--pipeline-version wins)`);
        }
        byTrace.set(s.interaction.trace_id, s.result);
      }
    },
  });
  let receiver: RunningCollector | null = null;
  try {
    if (o.spans.kind === "otlp") {
      receiver = await startCollector(loadCollectorConfig({}, { port: o.spans.port, host: o.spans.host }), { logger: o.log, sink: service.sink });
      o.onReceiver?.(receiver.url);
    }
    const failed = new Map<string, QuestionResult>();
    const limit = pLimit(Math.max(1, o.concurrency));
    const sent: { item: GoldenItem; traceId: string }[] = [];
    let done = 0;
    const progress = (): void => o.onProgress?.(Math.min(golden.items.length, done + byTrace.size), golden.items.length);
    await Promise.all(
      golden.items.map((item) =>
        limit(async () => {
          const ids = newTraceIds();
          sent.push({ item, traceId: ids.traceId });
          const res = await o.target.ask(item.question, { traceparent: traceparent(ids), baggage: baggage(run.run_id, item.id, o.pipelineVersion) });
          if (!res.ok) {
            failed.set(ids.traceId, failedQuestion(item, ids.traceId, "target_error", res.reason, res.latency_ms));
            done++;
          } else waiting.set(ids.traceId, { item, answeredAt: Date.now() });
          progress();
        }),
      ),
    );
    // Wait until every answered question's trace is scored, or its timeout passes.
    for (;;) {
      const pending = [...waiting.keys()].filter((t) => !byTrace.has(t));
      progress();
      if (pending.length === 0) break;
      const latest = Math.max(...pending.map((t) => waiting.get(t)?.answeredAt ?? 0));
      if (Date.now() - latest > o.traceTimeoutMs + o.quietMs) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const results: QuestionResult[] = sent.map(({ item, traceId }) => {
      const r = failed.get(traceId) ?? byTrace.get(traceId);
      if (r) return { ...r, tags: item.tags, question: item.question };
      return failedQuestion(item, traceId, "trace_timeout", `no spans of trace ${traceId} arrived within ${o.traceTimeoutMs} ms of the answer`, 0);
    });
    // Failed and timed-out questions are stored too, so the run's stored metrics match the summary.
    const unscored = results.filter((q) => q.status !== "ok");
    if (unscored.length > 0) {
      const rows = unscored.map((q) => resultRows(run, q, judge, ks));
      await saveResults(store, { interactions: rows.map((r) => r.interaction), scores: rows.flatMap((r) => r.scores), claims: rows.flatMap((r) => r.claims) });
    }
    const order = new Map(golden.items.map((it, i) => [it.id, i] as const));
    results.sort((a, b) => (order.get(a.golden_id) ?? 0) - (order.get(b.golden_id) ?? 0));
    return await completeRun({ store, run, results, ks, judge, stats: session.stats(), repeat, useCache, warnings: [...warnings], now });
  } finally {
    if (receiver) await receiver.close();
    await service.stop();
  }
}
