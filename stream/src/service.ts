import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { RecordSink, TraceRecord } from "@ragmeter/collector";
import type { ScoredTrace } from "@ragmeter/core/scoring/trace";
import { deadLetterTopic, type Signal } from "@ragmeter/otlp";
import { retry } from "@ragmeter/runtime";
import type { Store } from "@ragmeter/store/client";
import { storeFailure } from "@ragmeter/store/errors";
import { LIVE_MINUTES_REFRESH_MS, refreshLiveMinutes } from "@ragmeter/store/liveMinutes";
import type { StreamConfig } from "./config.js";
import { type ConsumerLogger, type ConsumerSettings, type SpanConsumer, startSpanConsumer } from "./consumer.js";
import { droppedAttributesWarning } from "./droppedAttributes.js";
import { connectGroupBudget } from "./groupBudget.js";
import { HeldTraces } from "./held.js";
import { type DecodedRecord, decodeRecord, type IngestResult, writeRecords } from "./ingest.js";
import type { ScoringSettings } from "./loop.js";
import { createScoringPasses } from "./pass.js";
import { IngestionStats, type StreamTotals } from "./stats.js";
import { createWriteBatcher, DEFAULT_WRITE_BATCH, type WriteBatchLimits } from "./writeBatcher.js";

/**
 * Retries of a failed in-process write before the requests it held fail (the whole batch again:
 * rows carry a new version, one row per key after FINAL); 200 ms doubling, about 1.4–2.8 s in all.
 */
const SINK_WRITE_RETRIES = 3;

/**
 * Traces held in memory between their write and their scoring, at most (see {@link HeldTraces}): it
 * covers the traces written in one quiet window at 2,000 traces/s. A trace beyond it is read back.
 */
const HELD_TRACES = 10_000;

/**
 * Text of the held traces, at most (characters, {@link HeldTraces}): a production-shaped trace
 * (bench:phoenix's: 5–10 chunks of 500–2,000 characters, the answer twice; 17 KB of OTLP) counts
 * ≈ 12,300 and takes ≈ 19 KiB of heap held (2,000 of them decoded and held, heap measured after a
 * GC; issue 38), so the bound is ≈ 2,700 such traces and ≈ 50 MiB of heap, where the count alone
 * let a backlog hold 10,000 (≈ 190 MiB).
 */
const HELD_TEXT = 32 * 1024 * 1024;

/** A record handed to the in-process sink: decoded, with its OTLP bytes (the write batch's size estimate). */
interface SinkItem {
  readonly record: DecodedRecord;
  readonly bytes: number;
}

/** A running scorer: consumer (optional), scoring loop and ingestion stats. */
export interface ScorerService {
  /** In-process hand-off for `serve` without Kafka: a collector record sink writing straight to the store. */
  readonly sink: RecordSink;
  /**
   * What the stream counted since its start: spans, traces scored, judge calls skipped by status
   * (`budget_exhausted` included), judge failures by kind, the judge's own traces, spans with
   * dropped attributes by service.
   */
  stats(): StreamTotals;
  /** Runs one scoring pass now; resolves to the number of traces scored. */
  scoreNow(): Promise<number>;
  /** Stops the loop and the consumer, flushes the stats. */
  stop(): Promise<void>;
}

/** Options of {@link startScorerService}. */
export interface ScorerServiceOptions {
  readonly store: Store;
  readonly scoring: ScoringSettings;
  readonly stream: StreamConfig;
  /** Consume Kafka (`stream.brokers` must be set); otherwise only the in-process sink feeds the store. */
  readonly consume: boolean;
  readonly log: ConsumerLogger;
  /** Scoring pass interval, ms (default: a quarter of the quiet window, between 100 and 1000). */
  readonly intervalMs?: number;
  /** Consumer settings that override the defaults derived from `stream` (tests: fetch wait, seams). */
  readonly consumer?: Partial<ConsumerSettings>;
  /**
   * Interval of the full scan for settled, unscored traces (ms, default 30,000; also run at start).
   * Between scans the loop scores the traces this instance wrote, once their quiet window passed,
   * without scanning the spans table.
   */
  readonly fullScanIntervalMs?: number;
  /** Called with the traces each pass scored (eval --via-traces collects its results here). */
  readonly onScored?: (scored: readonly ScoredTrace[]) => void;
  /**
   * Interval of the `ingestion_stats` writes and of the judge budget's read of the group's spend, ms
   * (default 10,000): what the other scorers spent reaches this one's budget within two of them.
   */
  readonly statsIntervalMs?: number;
}

/** The progress log's judge failures, judge-own traces and dropped-attribute counts since start, when there are any. */
function judgeHealth(t: StreamTotals): Record<string, unknown> {
  return {
    ...(Object.keys(t.judge_errors).length > 0 ? { judge_errors: t.judge_errors } : {}),
    ...(t.judge_own_traces > 0 ? { judge_own_traces: t.judge_own_traces } : {}),
    ...(Object.keys(t.spans_attributes_dropped).length > 0 ? { spans_attributes_dropped: t.spans_attributes_dropped } : {}),
  };
}

/** The span consumer's settings from the stream's (`o.consumer` overrides them); `pending` reads the traces written and not yet scored. */
function consumerSettings(o: ScorerServiceOptions, brokers: readonly string[], pending: () => number): ConsumerSettings {
  return {
    brokers,
    ...(o.stream.security !== undefined ? { security: o.stream.security } : {}),
    topic: o.stream.topic,
    dlqTopic: deadLetterTopic(o.stream.topic),
    ...(o.stream.limits !== undefined ? { limits: o.stream.limits } : {}),
    ...(o.stream.topics !== undefined ? { topics: o.stream.topics } : {}),
    topicPolicy: { create: o.stream.createTopics ?? true, partitions: o.stream.partitions ?? 3 },
    ...(o.stream.writeBatch !== undefined ? { writeBatch: o.stream.writeBatch } : {}),
    maxPending: o.stream.maxPending ?? 50_000,
    pending,
    groupId: o.stream.groupId,
    clientId: "ragmeter-scorer",
    sessionTimeoutMs: o.stream.sessionTimeoutMs,
    heartbeatIntervalMs: Math.max(100, Math.floor(o.stream.sessionTimeoutMs / 10)),
    ...o.consumer,
  };
}

type Totals = ReturnType<IngestionStats["totals"]>;

/** The progress line's fields since the last line (`logged`), or null when nothing was written, scored or dropped since. */
function progressFields(stats: IngestionStats, totals: Totals, logged: Totals, pending: number, lag: number | null): Record<string, unknown> | null {
  if (totals.spans === logged.spans && totals.scored === logged.scored && totals.forgotten === logged.forgotten) return null;
  return {
    spans_written: totals.spans - logged.spans,
    traces_scored: totals.scored - logged.scored,
    pending_traces: pending,
    ...(totals.forgotten !== logged.forgotten ? { spans_dropped_forgotten: totals.forgotten - logged.forgotten } : {}),
    judge_calls_skipped: stats.skippedTotals(),
    ...judgeHealth(stats.snapshot()),
    ...(lag !== null ? { consumer_lag: lag } : {}),
  };
}

/** This scorer's `scorer_id` in `ingestion_stats`: host, process id and a random part (a restarted container's pid 1 is another scorer). */
const newScorerId = (): string => `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;

/**
 * The live view's aggregates of the minutes whose writes have settled (migration 12), computed every
 * {@link LIVE_MINUTES_REFRESH_MS} off the write path (one statement every few seconds instead of one per
 * batch), one refresh at a time; a failure is logged (the first, then every 50th) and retried. Returns
 * its timer.
 */
function refreshLiveMinutesEvery(store: Store, log: Pick<ScorerServiceOptions["log"], "warn">): ReturnType<typeof setInterval> {
  let refreshing = false;
  let failures = 0;
  const timer = setInterval(() => {
    if (refreshing) return;
    refreshing = true;
    void refreshLiveMinutes(store, Date.now())
      .then(
        () => {
          failures = 0;
        },
        (err: unknown) => {
          if (failures++ % 50 === 0) log.warn("live minutes not computed; will retry", { error: (err as Error).message, failures });
        },
      )
      .finally(() => {
        refreshing = false;
      });
  }, LIVE_MINUTES_REFRESH_MS);
  return timer;
}

/**
 * `serve`'s in-process hand-off without Kafka: a collector record sink writing the requests' records
 * together across callers (one insert per table for all of them), within the write batch limits
 * (`RAGMETER_SCORER_WRITE_MAX_*`, ./writeBatcher.ts); each request's 200 waits for the write
 * holding it (design §6). `drain` writes what is pending at once.
 */
function inProcessSink(
  ingest: Store,
  o: ScorerServiceOptions,
  stopped: () => boolean,
  stored: (w: IngestResult, at: number) => void,
): { sink: RecordSink; drain: () => Promise<void> } {
  const limits: WriteBatchLimits = o.stream.writeBatch ?? DEFAULT_WRITE_BATCH;
  const batcher = createWriteBatcher<SinkItem>(
    async (items) => {
      const records = items.map((i) => i.record);
      const w = await retry(() => writeRecords(ingest, records, { partition: -1, offset: "-1" }, Date.now()).catch((err: unknown) => Promise.reject(storeFailure(err))), {
        retries: SINK_WRITE_RETRIES,
        keepGoing: () => !stopped(),
        onError: (err, attempt) => o.log.warn("span write failed; retrying the batch", { attempt, requests: items.length, error: (err as Error).message }),
      });
      stored(w, Date.now());
    },
    { limits, count: (i) => i.record.spans.length + i.record.logs.length, bytes: (i) => i.bytes },
  );
  const sink: RecordSink = {
    async send(signal: Signal, records: TraceRecord[]) {
      // All decoded before any is written, within the limits the receiver applied (the same settings).
      const items = records.map((r): SinkItem => ({ record: decodeRecord(signal, r.value, o.stream.limits), bytes: r.value.byteLength }));
      await Promise.all(items.map((i) => batcher.add(i)));
    },
    ready: async () => true,
    degraded: () => false,
    close: async () => {},
  };
  return { sink, drain: () => batcher.drain() };
}

/**
 * Starts the streaming scorer (design §6): consumes `ragmeter.spans` (when `consume`), stores spans,
 * and runs the scoring loop over settled traces; writes `ingestion_stats` every 10 s, and reads
 * there what the group's judges spent (the judge budget of the whole group, ./groupBudget.ts). The process's
 * runtime tuning (V8's heap growth, `stream.heapGrowthPercent`) is its starter's: @ragmeter/runtime runtimeTuning.
 */
export async function startScorerService(o: ScorerServiceOptions): Promise<ScorerService> {
  const stats = new IngestionStats(newScorerId());
  const readGroupSpend = await connectGroupBudget(o.store, o.scoring.budget ?? null, stats, o.log);
  // Spans are written through a connection of their own, so a batch's write never waits behind the
  // scoring loop's statements (nor they behind it): bench:scorer at 30,000 traces, 3,314–3,419 →
  // 3,497–3,610 traces/s, peak RSS +30–40 MiB (issue 15).
  const ingest: Store = { ...o.store, client: await o.store.secondClient() };
  // Traces this instance wrote and has not scored since: trace id → when its last span was written.
  const dirty = new Map<string, number>();
  // Their decoded spans, scored from memory when the store has no other rows of them.
  const held = new HeldTraces(HELD_TRACES, HELD_TEXT);
  // Services already warned about dropped attributes: one warning line per service and process.
  const warnedDropped = new Set<string>();
  const written = (w: IngestResult, at: number): void => {
    for (const id of w.traceIds) dirty.set(id, at);
    held.add(w.stored.spans, w.stored.logs);
    const d = w.droppedAttributes;
    if (d === null) return;
    stats.droppedAttributes(d.byService, at);
    for (const [service, first] of Object.entries(d.first)) {
      if (warnedDropped.has(service)) continue;
      warnedDropped.add(service);
      o.log.warn(droppedAttributesWarning(service, first), { service, setting: "OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT" });
    }
  };
  // What a scored batch adds to the stats: judge calls skipped, judge failures (the first of each
  // kind warned, with its reason: a failing judge is never silent), the judge's own traces.
  const warnedFailures = new Set<string>();
  const counted = (scored: readonly ScoredTrace[]): void => {
    const now = Date.now();
    for (const t of scored) {
      stats.skipped(t.skipped, now);
      stats.judgeFailures(t.judgeFailures, now);
      for (const [kind, reason] of Object.entries(t.judgeFailureReasons)) {
        if (warnedFailures.has(kind)) continue;
        warnedFailures.add(kind);
        o.log.warn(`judge failing (${kind}): ${reason}; counted by kind in the progress log's judge_errors and ingestion_stats.judge_errors`, {
          kind,
          trace_id: t.interaction.trace_id,
        });
      }
    }
    stats.judgeOwn(scored.filter((t) => t.judgeOwn).length, now);
  };
  let consumer: SpanConsumer | null = null;
  if (o.consume) {
    if (o.stream.brokers === null) throw new Error("KAFKA_BROKERS is not set");
    consumer = await startSpanConsumer(
      ingest,
      consumerSettings(o, o.stream.brokers, () => dirty.size),
      stats,
      o.log,
      written,
    );
  }
  let stopped = false;
  const passes = createScoringPasses({
    store: o.store,
    scoring: o.scoring,
    dirty,
    held,
    scored: (scored) => {
      counted(scored);
      if (scored.length > 0) o.onScored?.(scored);
    },
    passed: (total) => {
      if (total > 0) stats.scored(total, Date.now());
    },
    stopped: () => stopped,
    fullScanIntervalMs: o.fullScanIntervalMs ?? 30_000,
  });
  const runPass = (full = false): Promise<number> => passes.run(full);
  const interval = o.intervalMs ?? Math.min(1000, Math.max(100, Math.floor(o.scoring.quietMs / 4)));
  let failures = 0;
  const timer = setInterval(() => {
    void runPass(false).then(
      () => {
        failures = 0;
      },
      (err: unknown) => {
        // Log the first failure and then every 50th, so a store outage does not flood the log.
        if (failures++ % 50 === 0) o.log.error("scoring pass failed; will retry", { error: (err as Error).message, failures });
      },
    );
  }, interval);
  const minutesTimer = refreshLiveMinutesEvery(o.store, o.log);
  let logged = { spans: 0, scored: 0, forgotten: 0 };
  const statsTimer = setInterval(() => {
    void (async () => {
      await readGroupSpend(Date.now()); // never throws: a failed read keeps the last figures
      const lag = consumer ? await consumer.lag() : null;
      if (lag !== null) stats.lag(lag, Date.now());
      const totals = stats.totals();
      const fields = progressFields(stats, totals, logged, dirty.size, lag);
      if (fields !== null) {
        o.log.info("progress", fields);
        logged = totals;
      }
      await stats.flush(o.store, Date.now());
    })().catch((err: unknown) => o.log.warn("ingestion stats not written", { error: (err as Error).message }));
  }, o.statsIntervalMs ?? 10_000);

  const { sink, drain } = inProcessSink(
    ingest,
    o,
    () => stopped,
    (w, at) => {
      stats.spans(w.spans, at);
      stats.forgotten(w.dropped, at);
      written(w, at);
    },
  );
  return {
    sink,
    stats: () => stats.snapshot(),
    scoreNow: () => runPass(true),
    async stop() {
      // The requests handed in are written first (their callers wait for it), without their wait.
      await drain();
      stopped = true;
      for (const t of [timer, statsTimer, minutesTimer]) clearInterval(t);
      await passes.current().catch(() => 0);
      if (consumer) await consumer.stop();
      await stats.flush(o.store, Date.now()).catch(() => undefined);
    },
  };
}
