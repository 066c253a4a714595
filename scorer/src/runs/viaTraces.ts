import { type CollectorDeps, loadCollectorConfig, type RunningCollector, startCollector } from "@ragmeter/collector";
import type { EvaluatedSpans } from "@ragmeter/core/domain/evaluation";
import type { QuestionResult } from "@ragmeter/core/domain/result";
import { failedQuestion } from "@ragmeter/core/scoring/score";
import type { ScoredTrace } from "@ragmeter/core/scoring/trace";
import type { GoldenItem } from "@ragmeter/golden";
import type { KafkaSecurity } from "@ragmeter/kafka";
import type { Logger } from "@ragmeter/runtime";
import type { Store } from "@ragmeter/store/client";
import { passBatchSize } from "@ragmeter/stream/loop";
import { startScorerService } from "@ragmeter/stream/service";
import pLimit from "p-limit";
import { type EvalOptions, goldenOf } from "./eval.js";
import { askTarget, openRun } from "./recorder.js";
import { digestResults, type EvalOutcome } from "./summary.js";

/** Options of {@link runEvalViaTraces}: those of a direct eval plus where the spans come from. */
export interface ViaTracesOptions extends Omit<EvalOptions, "store"> {
  /** The open store (the spans' consumer needs it from the start). */
  readonly store: Store;
  /**
   * Where the target's spans arrive:
   * - `otlp`: this process serves OTLP/HTTP on `port` (the target's `OTEL_EXPORTER_OTLP_ENDPOINT`)
   *   and hands spans to its scorer in process (embedded mode);
   * - `kafka`: the target exports to a `ragmeter collector`; this process consumes the topic
   *   (from its latest offset, in a consumer group of its own) and scores.
   */
  readonly spans:
    | { readonly kind: "otlp"; readonly port: number; readonly host: string }
    | { readonly kind: "kafka"; readonly brokers: readonly string[]; readonly security?: KafkaSecurity; readonly topic: string };
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
  const { spec, store } = o;
  const { ks, pipelineVersion } = spec;
  const golden = goldenOf(spec, true);
  // The answer source of this run is the target's own spans: the stream service writes the scored
  // rows of each trace; the recorder writes those of questions without spans.
  const recorder = await openRun(spec, { store, judge: o.judge, ...(o.now ? { now: o.now } : {}), evaluations: o.evaluations ?? null });
  const { run, judge } = recorder;

  const byTrace = new Map<string, QuestionResult>();
  const waiting = new Map<string, { item: GoldenItem; answeredAt: number }>();
  const warnings = new Set<string>();
  const service = await startScorerService({
    store,
    stream: streamSettings(o, run.run_id),
    consume: o.spans.kind === "kafka",
    consumer: { fromBeginning: false, maxWaitTimeMs: 250 },
    log: o.log,
    scoring: { judge, ks, quietMs: o.quietMs, liveSampleRate: 1, concurrency: 8, batchSize: passBatchSize(judge), evaluations: o.evaluations ?? null },
    intervalMs: Math.min(250, Math.max(50, Math.floor(o.quietMs / 4))),
    onScored: (scored: readonly ScoredTrace[]) => {
      for (const s of scored) {
        if (s.interaction.run_id !== run.run_id || !waiting.has(s.interaction.trace_id)) continue;
        const warning = versionWarning(s, pipelineVersion);
        if (warning !== null) warnings.add(warning);
        byTrace.set(s.interaction.trace_id, s.result);
      }
    },
  });
  let receiver: RunningCollector | null = null;
  try {
    receiver = await startReceiver(o, service.sink);
    const failed = new Map<string, QuestionResult>();
    const limit = pLimit(Math.max(1, o.concurrency));
    const sent: Sent[] = [];
    let done = 0;
    const progress = (): void => o.onProgress?.(Math.min(golden.items.length, done + byTrace.size), golden.items.length);
    await Promise.all(
      golden.items.map((item) =>
        limit(async () => {
          const { traceId, spans, result: res } = await askTarget(o.target, run, item.id, item.question);
          sent.push({ item, traceId, spans });
          if (!res.ok) {
            failed.set(traceId, failedQuestion(item, traceId, "target_error", res.reason, res.latency_ms));
            done++;
          } else waiting.set(traceId, { item, answeredAt: Date.now() });
          progress();
        }),
      ),
    );
    await waitForTraces(waiting, byTrace, o.traceTimeoutMs + o.quietMs, progress);
    const results = sent.map(({ item, traceId }) => resultOf(item, traceId, failed.get(traceId) ?? byTrace.get(traceId), o.traceTimeoutMs));
    // Failed and timed-out questions are stored too, so the run's stored metrics match the summary.
    const spansOf = new Map(sent.map((s) => [s.traceId, s.spans] as const));
    for (const q of results) if (q.status !== "ok") await recorder.record(q, spansOf.get(q.trace_id) ?? null);
    const order = new Map(golden.items.map((it, i) => [it.id, i] as const));
    results.sort((a, b) => (order.get(a.golden_id) ?? 0) - (order.get(b.golden_id) ?? 0));
    return await recorder.complete({ questions: digestResults(results, ks, golden.items), results, warnings: [...warnings] });
  } finally {
    if (receiver) await receiver.close();
    await service.stop();
    await recorder.close().catch(() => undefined);
  }
}

/** A question sent to the target: its trace and the spans its evaluations are parented to. */
interface Sent {
  readonly item: GoldenItem;
  readonly traceId: string;
  readonly spans: EvaluatedSpans;
}

/** The stream settings of the run's scorer: the collector's topic in `kafka` mode (a consumer group of the run's own), in-process spans in `otlp` mode. */
function streamSettings(o: ViaTracesOptions, runId: string) {
  return {
    brokers: o.spans.kind === "kafka" ? o.spans.brokers : null,
    ...(o.spans.kind === "kafka" && o.spans.security !== undefined ? { security: o.spans.security } : {}),
    topic: o.spans.kind === "kafka" ? o.spans.topic : "ragmeter.spans",
    quietMs: o.quietMs,
    liveSampleRate: 1,
    groupId: `ragmeter-eval-${runId}`,
    sessionTimeoutMs: 10_000,
    concurrency: 8,
  };
}

/** The warning when the target's spans report another pipeline version than the run's, else null. */
function versionWarning(s: ScoredTrace, pipelineVersion: string): string | null {
  const reported = s.interaction.pipeline_version;
  if (reported === null || reported === pipelineVersion) return null;
  return `the target's spans report pipeline version "${reported}"; recorded as "${pipelineVersion}" (--pipeline-version wins)`;
}

/** In `otlp` mode, the OTLP/HTTP receiver that hands the target's spans to the scorer (its URL given to `onReceiver`); null in `kafka` mode. */
async function startReceiver(o: ViaTracesOptions, sink: CollectorDeps["sink"]): Promise<RunningCollector | null> {
  if (o.spans.kind !== "otlp") return null;
  const receiver = await startCollector(loadCollectorConfig({}, { port: o.spans.port, host: o.spans.host }), {
    logger: o.log,
    sink,
    listener: { host: "--otlp-host", token: null },
  });
  o.onReceiver?.(receiver.url);
  return receiver;
}

/** Waits until every answered question's trace is scored, or `timeoutMs` passed since the last answer still waiting. */
async function waitForTraces(
  waiting: ReadonlyMap<string, { readonly answeredAt: number }>,
  byTrace: ReadonlyMap<string, QuestionResult>,
  timeoutMs: number,
  progress: () => void,
): Promise<void> {
  for (;;) {
    const pending = [...waiting.keys()].filter((t) => !byTrace.has(t));
    progress();
    if (pending.length === 0) return;
    const latest = Math.max(...pending.map((t) => waiting.get(t)?.answeredAt ?? 0));
    if (Date.now() - latest > timeoutMs) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A question's result under its golden item's tags and question: failed, scored, or `trace_timeout` when its spans never arrived. */
function resultOf(item: GoldenItem, traceId: string, r: QuestionResult | undefined, traceTimeoutMs: number): QuestionResult {
  if (r) return { ...r, tags: item.tags, question: item.question };
  return failedQuestion(item, traceId, "trace_timeout", `no spans of trace ${traceId} arrived within ${traceTimeoutMs} ms of the answer`, 0);
}
