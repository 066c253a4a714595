/**
 * The live metrics' scores of a minute as the live view's window cache keeps them (./liveWindow.ts,
 * design §3): the minute's `live_scores` rows (FINAL, a status set) column by column, in the key's
 * order (time, trace id, metric), and their totals per kind of score. A kind ({@link ScoreKind}) is
 * what the view groups scores by: service, pipeline version, metric, status, whether the judge spent
 * tokens, judge model; each row holds the number of its kind instead of those six strings. The view
 * adds up a minute wholly in one trend bucket from its totals and any other minute (cut by a bucket
 * start, the window's first, holding rows a later scoring superseded) from its rows: both in the
 * same order, so a minute gives the same sums whichever way it is read.
 */

/** What the live view groups a score by. */
interface ScoreKind {
  readonly service_name: string;
  readonly pipeline_version: string;
  readonly metric: string;
  readonly status: string;
  /** The judge spent tokens on it (input + output > 0). */
  readonly spent: boolean;
  readonly judge_model: string;
}

/** The kinds of score seen by a window cache, numbered in the order they were first seen (a handful per service and version). */
export interface ScoreKinds {
  readonly list: ScoreKind[];
  readonly index: Map<string, number>;
}

/** No kinds yet. */
export const scoreKinds = (): ScoreKinds => ({ list: [], index: new Map() });

/** A minute's score rows, column by column (row i of each), in key order. */
export interface MinuteScores {
  readonly n: number;
  /** `created_at`, ms since the epoch. */
  readonly t: Float64Array;
  readonly trace: readonly string[];
  /** The scoring's version (µs since the epoch: exact as a double). */
  readonly version: Float64Array;
  /** The row's {@link ScoreKind}, its number in the cache's {@link ScoreKinds}. */
  readonly kind: Uint32Array;
  /** NaN when null (no value). */
  readonly value: Float64Array;
  readonly input: Float64Array;
  readonly output: Float64Array;
}

/** Scores of one kind over some rows: how many, how many with a value and their sum, the judge's tokens. */
export interface ScoreTotal {
  readonly kind: number;
  scores: number;
  values: number;
  sum: number;
  input: number;
  output: number;
}

/** The number of a kind in `kinds`, added when new. */
function kindOf(kinds: ScoreKinds, k: ScoreKind): number {
  const key = `${k.service_name}\u0000${k.pipeline_version}\u0000${k.metric}\u0000${k.status}\u0000${k.spent ? 1 : 0}\u0000${k.judge_model}`;
  let n = kinds.index.get(key);
  if (n === undefined) {
    n = kinds.list.length;
    kinds.list.push(k);
    kinds.index.set(key, n);
  }
  return n;
}

/** A score row as read: trace id, time (ms), version, service, pipeline version, metric, status, value (null: none), judge model, input and output tokens. */
export interface ScoreRowIn {
  readonly trace_id: string;
  readonly t: number;
  readonly version: number;
  readonly service_name: string;
  readonly pipeline_version: string;
  readonly metric: string;
  readonly status: string;
  readonly value: number | null;
  readonly judge_model: string;
  readonly input: number;
  readonly output: number;
}

/** Collects a minute's score rows in key order, then gives them column by column ({@link MinuteScores}). */
export class MinuteScoresBuilder {
  private readonly t: number[] = [];
  private readonly trace: string[] = [];
  private readonly version: number[] = [];
  private readonly kind: number[] = [];
  private readonly value: number[] = [];
  private readonly input: number[] = [];
  private readonly output: number[] = [];

  constructor(private readonly kinds: ScoreKinds) {}

  /** Adds a row (`trace`: its trace id, the string of its trace's row when the caller has it). */
  push(r: ScoreRowIn, trace: string): void {
    this.t.push(r.t);
    this.trace.push(trace);
    this.version.push(r.version);
    const spent = r.input + r.output > 0;
    this.kind.push(
      kindOf(this.kinds, {
        service_name: r.service_name,
        pipeline_version: r.pipeline_version,
        metric: r.metric,
        status: r.status,
        spent,
        judge_model: r.judge_model,
      }),
    );
    this.value.push(r.value ?? Number.NaN);
    this.input.push(r.input);
    this.output.push(r.output);
  }

  /** Adds row `i` of rows built before with the same kinds. */
  pushKept(s: MinuteScores, i: number): void {
    this.t.push(s.t[i] as number);
    this.trace.push(s.trace[i] as string);
    this.version.push(s.version[i] as number);
    this.kind.push(s.kind[i] as number);
    this.value.push(s.value[i] as number);
    this.input.push(s.input[i] as number);
    this.output.push(s.output[i] as number);
  }

  /** The rows pushed, column by column. */
  build(): MinuteScores {
    return {
      n: this.t.length,
      t: Float64Array.from(this.t),
      trace: this.trace,
      version: Float64Array.from(this.version),
      kind: Uint32Array.from(this.kind),
      value: Float64Array.from(this.value),
      input: Float64Array.from(this.input),
      output: Float64Array.from(this.output),
    };
  }
}

/** No score rows. */
export const NO_SCORES: MinuteScores = {
  n: 0,
  t: new Float64Array(0),
  trace: [],
  version: new Float64Array(0),
  kind: new Uint32Array(0),
  value: new Float64Array(0),
  input: new Float64Array(0),
  output: new Float64Array(0),
};

/**
 * The totals by kind of the rows `from` to `to` (excluded) of a minute, in the order their kinds
 * first appear, leaving out those whose key (`trace_id:version`) is in `gone` (rows a later scoring
 * of their trace superseded).
 */
export function scoreTotals(s: MinuteScores, from: number, to: number, gone?: ReadonlySet<string>): ScoreTotal[] {
  const out: ScoreTotal[] = [];
  // By kind number (a few hundred at most): an array, not a map.
  const at: (ScoreTotal | undefined)[] = [];
  for (let i = from; i < to; i++) {
    if (gone?.has(`${s.trace[i]}:${s.version[i]}`)) continue;
    const kind = s.kind[i] as number;
    let x = at[kind];
    if (x === undefined) {
      x = { kind, scores: 0, values: 0, sum: 0, input: 0, output: 0 };
      at[kind] = x;
      out.push(x);
    }
    x.scores++;
    const v = s.value[i] as number;
    if (!Number.isNaN(v)) {
      x.values++;
      x.sum += v;
    }
    x.input += s.input[i] as number;
    x.output += s.output[i] as number;
  }
  return out;
}

/** The first row at or after time `ms` of a minute's rows (time order), `n` when none. */
export function firstAt(s: MinuteScores, ms: number): number {
  let lo = 0;
  let hi = s.n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((s.t[mid] as number) < ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
