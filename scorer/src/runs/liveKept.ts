import type { LiveMetricAggregate, LiveTraceAggregate } from "@ragmeter/store/live";
import type { KeptMinute, LiveWindow } from "@ragmeter/store/liveWindow";
import type { LiveWindowRow } from "@ragmeter/store/liveWindowRead";
import { firstAt, type MinuteScores, type ScoreKinds, type ScoreTotal, scoreTotals } from "@ragmeter/store/liveWindowScores";

/**
 * The live view's aggregates from the rows the read API's reader keeps between calls
 * (@ragmeter/store/liveWindow, design §3), in place of the aggregates' statement: the traces' and
 * the live metrics' aggregates by service, version and trend bucket, and the intervals' samples (the
 * latest values). A minute kept, wholly in the window, cut by no bucket start and holding no row a
 * later scoring superseded counts by its totals; any other minute by its rows.
 */

/** Whether the filter of the view takes a service and version. */
type Wanted = (service: string, version: string) => boolean;
/** The keys (`trace_id:version`) of the window's rows later scorings superseded, and their minutes (s). */
interface Superseded {
  readonly keys: readonly string[];
  readonly minutes: readonly number[];
}

/** The trend bucket of a trace at `t`: the last bucket start at or before it (`bounds`: the starts after the first). */
export const bucketOf = (bounds: readonly number[], t: number): number => {
  let b = 0;
  while (b < bounds.length && (bounds[b] as number) <= t) b++;
  return b;
};

/** Whether a bucket start falls inside the minute starting at `ms`. */
const cut = (bounds: readonly number[], ms: number): boolean => bounds.some((b) => b > ms && b < ms + 60_000);

/** What the view counts a trace as, and how many. */
type TraceCount = Omit<LiveWindowRow, "t" | "trace_id" | "question_hash" | "documents" | "version"> & { readonly traces: number };

/**
 * A kept minute's rows from the window's start on (`xs`: the end of its kept rows) counted by what
 * the view counts them as and by trend bucket, from the index of each row's count.
 */
function countRows(kept: KeptMinute, xs: readonly LiveWindowRow[], bounds: readonly number[], add: (c: TraceCount, bucket: number) => void): void {
  const n = kept.views.length;
  const counts = new Float64Array(n * (bounds.length + 1));
  const offset = kept.rows.length - xs.length;
  xs.forEach((r, i) => {
    const at = bucketOf(bounds, r.t) * n + (kept.viewOf[offset + i] as number);
    counts[at] = (counts[at] as number) + 1;
  });
  counts.forEach((traces, k) => {
    if (traces > 0) add({ ...(kept.views[k % n] as TraceCount), traces }, Math.floor(k / n));
  });
}

/**
 * The traces' aggregates ({@link LiveTraceAggregate}) from the window's rows: a kept minute wholly
 * in the window, cut by no bucket start and holding no superseded row by its counts, any other kept
 * minute without a superseded row by its rows' counts per bucket, every other minute by its rows
 * (those not superseded: `known`), each in the bucket of its time; of the services and versions
 * `wanted`.
 */
export function traceAggregates(window: LiveWindow, bounds: readonly number[], wanted: Wanted, known: Superseded): LiveTraceAggregate[] {
  const gone = new Set(known.keys);
  const goneMinutes = new Set(known.minutes);
  const out: LiveTraceAggregate[] = [];
  const add = (r: TraceCount, bucket: number): void => {
    if (wanted(r.service_name, r.pipeline_version)) {
      out.push({
        service_name: r.service_name,
        pipeline_version: r.pipeline_version,
        bucket,
        view_status: r.view_status,
        scored: r.scored === 1,
        content_missing: r.content_missing === 1,
        traces: r.traces,
      });
    }
  };
  (window.rows ?? []).forEach((xs, k) => {
    const minute = window.minutes?.[k] as number;
    const kept = goneMinutes.has(minute) ? null : (window.kept?.[k] ?? null);
    if (kept === null) eachRow(xs, gone, (r) => add({ ...r, traces: 1 }, bucketOf(bounds, r.t)));
    else if (xs.length === kept.rows.length && !cut(bounds, minute * 1000)) {
      for (const c of kept.views) add(c, bucketOf(bounds, minute * 1000));
    } else countRows(kept, xs, bounds, add);
  });
  return out;
}

/** Each of `xs` but those a later scoring superseded (their keys in `gone`). */
function eachRow(xs: readonly LiveWindowRow[], gone: ReadonlySet<string>, f: (r: LiveWindowRow) => void): void {
  for (const r of xs) if (gone.size === 0 || !gone.has(`${r.trace_id}:${r.version}`)) f(r);
}

/** A minute's rows from the window's start on, in runs of one trend bucket each: `[from, to)` row indexes. */
function runs(s: MinuteScores, bounds: readonly number[], sinceMs: number, ms: number): [number, number][] {
  const out: [number, number][] = [];
  let from = firstAt(s, sinceMs);
  for (const b of bounds) {
    if (!(b > ms && b < ms + 60_000)) continue;
    const to = firstAt(s, b);
    if (to > from) out.push([from, to]);
    from = Math.max(from, to);
  }
  if (s.n > from) out.push([from, s.n]);
  return out;
}

/**
 * The live metrics' aggregates ({@link LiveMetricAggregate}) from the window's score rows: a kept
 * minute wholly in the window, cut by no bucket start and holding no superseded row by its totals,
 * every other minute by its rows from the window's start on (those not superseded: `known`), run by
 * run of one bucket; of the services and versions `wanted` (`kinds`: the cache's kinds of score).
 */
export function metricAggregates(window: LiveWindow, kinds: ScoreKinds, bounds: readonly number[], sinceMs: number, wanted: Wanted, known: Superseded): LiveMetricAggregate[] {
  const gone = new Set(known.keys);
  const goneMinutes = new Set(known.minutes);
  const out: LiveMetricAggregate[] = [];
  const emit = (totals: readonly ScoreTotal[], bucket: number): void => {
    for (const x of totals) {
      const k = kinds.list[x.kind];
      if (k === undefined || !wanted(k.service_name, k.pipeline_version)) continue;
      out.push({
        service_name: k.service_name,
        pipeline_version: k.pipeline_version,
        bucket,
        status: k.status,
        metric: k.metric,
        spent: k.spent,
        judge_model: k.judge_model,
        scores: x.scores,
        values: x.values,
        sum: x.sum,
        input_tokens: x.input,
        output_tokens: x.output,
      });
    }
  };
  (window.scores ?? []).forEach((s, i) => {
    const minute = window.minutes?.[i] as number;
    const totals = minute * 1000 >= sinceMs ? window.kept?.[i]?.totals : undefined;
    const skip = goneMinutes.has(minute) ? gone : undefined;
    if (totals !== undefined && skip === undefined && !cut(bounds, minute * 1000)) {
      emit(totals, bucketOf(bounds, minute * 1000));
      return;
    }
    for (const [from, to] of runs(s, bounds, sinceMs, minute * 1000)) emit(scoreTotals(s, from, to, skip), bucketOf(bounds, s.t[from] as number));
  });
  return out;
}

/** A sample being filled: its values (the latest first) and how many it takes. */
export interface SampleTarget {
  readonly sample: number[];
  readonly want: number;
}

/** Takes a minute's values into their samples, the latest first; returns how many samples it filled. */
function takeLatest(s: MinuteScores, sinceMs: number, skip: ReadonlySet<string> | undefined, targets: readonly (SampleTarget | undefined)[]): number {
  let filled = 0;
  for (let i = s.n - 1; i >= 0 && (s.t[i] as number) >= sinceMs; i--) {
    const x = targets[s.kind[i] as number];
    const v = s.value[i] as number;
    if (x === undefined || x.sample.length >= x.want || Number.isNaN(v)) continue;
    if (skip?.has(`${s.trace[i]}:${s.version[i]}`)) continue;
    x.sample.push(v);
    if (x.sample.length === x.want) filled++;
  }
  return filled;
}

/**
 * Fills each sample with the latest values of the window (by time, then trace id, the latest first,
 * as `live_scores`' key read from its end), rows later scorings superseded left out (`known`):
 * `targets`, by kind of score, the sample its values go to (one sample may take several kinds; none
 * for a kind not sampled, whose status is not `ok`). Reads the minutes from the latest back until
 * every sample holds what it takes.
 */
export function latestValues(window: LiveWindow, sinceMs: number, known: Superseded, targets: readonly (SampleTarget | undefined)[]): void {
  let left = new Set(targets.filter((x): x is SampleTarget => x !== undefined && x.want > x.sample.length)).size;
  const gone = new Set(known.keys);
  const goneMinutes = new Set(known.minutes);
  const scores = window.scores ?? [];
  for (let k = scores.length - 1; k >= 0 && left > 0; k--) {
    left -= takeLatest(scores[k] as MinuteScores, sinceMs, goneMinutes.has(window.minutes?.[k] as number) ? gone : undefined, targets);
  }
}
