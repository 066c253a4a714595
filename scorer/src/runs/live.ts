import { costUsd, type PriceTable, priceOf } from "../judges/session/cost.js";
import type { Store } from "../store/client.js";
import { type LiveFilter, type LiveInteractionRow, type LiveScoreRow, liveInteractions, liveScores } from "../store/live.js";
import { BOOTSTRAP_RESAMPLES, bootstrapMeanInterval, DEFAULT_SEED, meanOrNull } from "./bootstrap.js";
import { distinct, jaccard } from "./replay/overlap.js";

/** The variable that turns content capture on (named by the content-missing warning). */
export const CAPTURE_CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";

/** Mean of the `ok` values of a metric with its 95% bootstrap interval (null with fewer than 2 values). */
export interface LiveMetric {
  readonly n: number;
  readonly mean: number | null;
  readonly ci: readonly [number, number] | null;
  /** Score rows by status (`ok`, `content_missing`, `not_sampled`, …). */
  readonly statuses: Readonly<Record<string, number>>;
}

/** One time bucket of a group's trend. */
export interface LiveBucket {
  /** Bucket start, ISO-8601 UTC. */
  readonly start: string;
  readonly traces: number;
  readonly grounding: number | null;
  readonly relevance: number | null;
}

/** Live traffic of one service and pipeline version. */
export interface LiveGroup {
  readonly service: string;
  readonly pipeline_version: string;
  /** Live traces settled into an interaction in the window. */
  readonly traces_seen: number;
  /** Traces with at least one `ok` grounding or relevance score. */
  readonly traces_scored: number;
  /** Traces by status: the interaction's when not `ok`, else its grounding score's (else relevance's). */
  readonly statuses: Readonly<Record<string, number>>;
  readonly grounding: LiveMetric;
  readonly relevance: LiveMetric;
  /** Judge calls that spent tokens, their tokens, and their cost (null when no price is known: `cost_reason`). */
  readonly judge: {
    readonly calls: number;
    readonly input_tokens: number;
    readonly output_tokens: number;
    readonly cost_usd: number | null;
    readonly cost_reason?: string;
  };
  readonly buckets: readonly LiveBucket[];
}

/** Retrieval overlap of two versions of a service on the questions both answered. */
export interface LiveOverlap {
  readonly service: string;
  readonly version_a: string;
  readonly version_b: string;
  /** Distinct questions asked of both versions in the window. */
  readonly questions: number;
  /** Mean Jaccard index of the retrieved document ids (latest trace per question and version), as replay. */
  readonly mean_jaccard: number | null;
}

/** What `ragmeter live` shows. */
export interface LiveSummary {
  /** ISO-8601 UTC. */
  readonly generated_at: string;
  /** Window start, ISO-8601 UTC. */
  readonly since: string;
  readonly window_ms: number;
  readonly service: string | null;
  readonly pipeline_version: string | null;
  readonly seed: number;
  readonly resamples: number;
  readonly traces_seen: number;
  readonly content_missing: number;
  readonly groups: readonly LiveGroup[];
  readonly overlap: readonly LiveOverlap[];
  readonly warnings: readonly string[];
}

/** Options of {@link summariseLive}. */
export interface LiveOptions {
  /** Window length, ms. */
  readonly windowMs: number;
  readonly service?: string;
  readonly pipelineVersion?: string;
  readonly now: number;
  readonly seed?: number;
  readonly resamples?: number;
  readonly prices?: PriceTable | null;
  /** Buckets of each group's trend (default 12). */
  readonly buckets?: number;
}

const count = (xs: readonly string[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const x of [...xs].sort()) out[x] = (out[x] ?? 0) + 1;
  return out;
};

/** A trace's status: the interaction's when not `ok`, else that of its grounding score, else of its relevance score. */
function traceStatus(i: LiveInteractionRow, rows: readonly LiveScoreRow[]): string {
  if (i.status !== "ok") return i.status;
  return rows.find((r) => r.metric === "grounding")?.status ?? rows.find((r) => r.metric === "relevance")?.status ?? i.status;
}

function metric(rows: readonly LiveScoreRow[], seed: number, resamples: number): LiveMetric {
  const values = rows.filter((r) => r.status === "ok" && r.value !== null).map((r) => r.value as number);
  const ci = values.length >= 2 ? bootstrapMeanInterval(values, { seed, resamples }) : null;
  return { n: values.length, mean: meanOrNull(values), ci: ci ? [ci.lower, ci.upper] : null, statuses: count(rows.map((r) => r.status)) };
}

/** The content-missing warning when more than half of the window's traces are `content_missing`, else null. */
export function contentMissingWarning(seen: number, missing: number, services: readonly string[]): string | null {
  if (seen === 0 || missing * 2 <= seen) return null;
  return `${missing} of ${seen} live traces are content_missing${services.length > 0 ? ` (${services.join(", ")})` : ""}: grounding and relevance cannot be scored; set ${CAPTURE_CONTENT_ENV}=true in the instrumented service (it then exports questions, chunks and answers)`;
}

/**
 * Summarises live traffic per service and pipeline version: traces seen and scored, statuses,
 * grounding and relevance means with percentile-bootstrap intervals (as compare), judge calls and
 * cost, a trend in equal time buckets, the retrieval overlap of versions of one service on the same
 * questions (Jaccard, as replay), and the content-missing warning.
 */
export function summariseLive(interactions: readonly LiveInteractionRow[], scores: readonly LiveScoreRow[], o: LiveOptions): LiveSummary {
  const seed = o.seed ?? DEFAULT_SEED;
  const resamples = o.resamples ?? BOOTSTRAP_RESAMPLES;
  const since = o.now - o.windowMs;
  const nBuckets = o.buckets ?? 12;
  const width = o.windowMs / nBuckets;
  const scoresOf = new Map<string, LiveScoreRow[]>();
  for (const s of scores) scoresOf.set(s.trace_id, [...(scoresOf.get(s.trace_id) ?? []), s]);
  const key = (i: LiveInteractionRow) => `${i.service_name}\u0000${i.pipeline_version}`;
  const byGroup = new Map<string, LiveInteractionRow[]>();
  for (const i of interactions) byGroup.set(key(i), [...(byGroup.get(key(i)) ?? []), i]);

  const groups: LiveGroup[] = [...byGroup.values()]
    .map((is): LiveGroup => {
      const first = is[0] as LiveInteractionRow;
      const rows = is.flatMap((i) => scoresOf.get(i.trace_id) ?? []);
      const spent = rows.filter((r) => r.judge_input_tokens + r.judge_output_tokens > 0);
      const input_tokens = spent.reduce((a, r) => a + r.judge_input_tokens, 0);
      const output_tokens = spent.reduce((a, r) => a + r.judge_output_tokens, 0);
      const models = distinct(spent.map((r) => r.judge_model));
      const unpriced = models.filter((m) => priceOf(o.prices, m) === null);
      const cost =
        spent.length === 0
          ? { cost_usd: 0 }
          : unpriced.length > 0
            ? { cost_usd: null, cost_reason: `no price for judge model ${unpriced.join(", ")} (RAGMETER_PRICES)` }
            : { cost_usd: spent.reduce((a, r) => a + costUsd(priceOf(o.prices, r.judge_model)!, r.judge_input_tokens, r.judge_output_tokens), 0) };
      const buckets: LiveBucket[] = Array.from({ length: nBuckets }, (_, b) => {
        const lo = since + b * width;
        const inBucket = is.filter((i) => (b === nBuckets - 1 ? i.t >= lo : i.t >= lo && i.t < lo + width));
        const vals = (m: string) =>
          inBucket.flatMap((i) => (scoresOf.get(i.trace_id) ?? []).filter((r) => r.metric === m && r.status === "ok" && r.value !== null).map((r) => r.value as number));
        return { start: new Date(lo).toISOString(), traces: inBucket.length, grounding: meanOrNull(vals("grounding")), relevance: meanOrNull(vals("relevance")) };
      });
      return {
        service: first.service_name,
        pipeline_version: first.pipeline_version,
        traces_seen: is.length,
        traces_scored: is.filter((i) => (scoresOf.get(i.trace_id) ?? []).some((r) => r.status === "ok")).length,
        statuses: count(is.map((i) => traceStatus(i, scoresOf.get(i.trace_id) ?? []))),
        grounding: metric(
          rows.filter((r) => r.metric === "grounding"),
          seed,
          resamples,
        ),
        relevance: metric(
          rows.filter((r) => r.metric === "relevance"),
          seed,
          resamples,
        ),
        judge: { calls: spent.length, input_tokens, output_tokens, ...cost },
        buckets,
      };
    })
    .sort((a, b) => a.service.localeCompare(b.service) || a.pipeline_version.localeCompare(b.pipeline_version));

  // Overlap: per service, each pair of versions, on the questions both answered (latest trace each).
  const overlap: LiveOverlap[] = [];
  for (const service of distinct(groups.map((g) => g.service))) {
    const versions = groups.filter((g) => g.service === service).map((g) => g.pipeline_version);
    const latest = new Map<string, Map<string, readonly string[]>>();
    for (const i of interactions.filter((x) => x.service_name === service && x.question !== "")) {
      const m = latest.get(i.pipeline_version) ?? new Map<string, readonly string[]>();
      m.set(i.question, i.documents); // oldest first: the last write is the latest trace
      latest.set(i.pipeline_version, m);
    }
    for (let a = 0; a < versions.length; a++) {
      for (let b = a + 1; b < versions.length; b++) {
        const qa = latest.get(versions[a] as string) ?? new Map<string, readonly string[]>();
        const qb = latest.get(versions[b] as string) ?? new Map<string, readonly string[]>();
        const common = [...qa.keys()].filter((q) => qb.has(q));
        overlap.push({
          service,
          version_a: versions[a] as string,
          version_b: versions[b] as string,
          questions: common.length,
          mean_jaccard: meanOrNull(common.map((q) => jaccard(distinct(qa.get(q) ?? []), distinct(qb.get(q) ?? [])))),
        });
      }
    }
  }

  // A trace lacks content when its interaction or one of its judged scores says content_missing.
  const missing = interactions.filter((i) => i.status === "content_missing" || (scoresOf.get(i.trace_id) ?? []).some((r) => r.status === "content_missing"));
  const warning = contentMissingWarning(interactions.length, missing.length, distinct(missing.map((i) => i.service_name)).sort());
  return {
    generated_at: new Date(o.now).toISOString(),
    since: new Date(since).toISOString(),
    window_ms: o.windowMs,
    service: o.service ?? null,
    pipeline_version: o.pipelineVersion ?? null,
    seed,
    resamples,
    traces_seen: interactions.length,
    content_missing: missing.length,
    groups,
    overlap,
    warnings: warning ? [warning] : [],
  };
}

/** Reads the window's live interactions and scores from the store and summarises them. */
export async function loadLiveSummary(store: Store, o: LiveOptions): Promise<LiveSummary> {
  const f: LiveFilter = {
    sinceMs: o.now - o.windowMs,
    ...(o.service !== undefined ? { service: o.service } : {}),
    ...(o.pipelineVersion !== undefined ? { pipelineVersion: o.pipelineVersion } : {}),
  };
  const [interactions, scores] = await Promise.all([liveInteractions(store, f), liveScores(store, f)]);
  return summariseLive(interactions, scores, o);
}
