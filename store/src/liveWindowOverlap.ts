import { jaccard } from "@ragmeter/core/domain/overlap";
import { entry, type KeptMinute, type KeptPair, type KeptQuestion, type LiveWindow, type LiveWindowCache, later, question } from "./liveWindow.js";
import type { LiveWindowRow } from "./liveWindowRead.js";

/** Two versions of a service: the questions both answered in the window and the sum of their Jaccard indexes (as ./live.ts's liveOverlap). */
export interface LiveWindowOverlap {
  readonly service_name: string;
  readonly version_a: string;
  readonly version_b: string;
  questions: number;
  jaccard_sum: number;
}

/**
 * A service's pairs of versions as one call adds them up: by the pair's number in the cache
 * ({@link LiveWindowCache.pairs}), in the order they were first counted.
 */
class Pairs {
  private readonly questions: number[] = [];
  private readonly sums: number[] = [];
  private readonly order: number[] = [];
  constructor(
    private readonly service: string,
    private readonly numbers: LiveWindowCache["pairs"],
  ) {}

  /** Counts a question both versions of pair `ix` answered, with their Jaccard index `j`. */
  count(ix: number, j: number): void {
    const n = this.questions[ix];
    if (n === undefined) {
      this.order.push(ix);
      this.questions[ix] = 1;
      this.sums[ix] = j;
    } else {
      this.questions[ix] = n + 1;
      (this.sums[ix] as number) += j;
    }
  }

  /** The pairs counted. */
  result(): LiveWindowOverlap[] {
    return this.order.map((ix) => {
      const p = this.numbers.list[ix] as { readonly a: string; readonly b: string };
      return { service_name: this.service, version_a: p.a, version_b: p.b, questions: this.questions[ix] as number, jaccard_sum: this.sums[ix] as number };
    });
  }
}

/** The number of the pair of versions `a` < `b` in the cache (numbered when first seen). */
function pairNumber(numbers: LiveWindowCache["pairs"], a: string, b: string): number {
  let of = numbers.ids.get(a);
  if (of === undefined) {
    of = new Map();
    numbers.ids.set(a, of);
  }
  let ix = of.get(b);
  if (ix === undefined) {
    ix = numbers.list.length;
    numbers.list.push({ a, b });
    of.set(b, ix);
  }
  return ix;
}

/** A pair of rows' Jaccard index: kept in `q` (when given) for the same two rows, or computed (and kept). */
function jaccardOf(q: KeptQuestion | undefined, ix: number, a: LiveWindowRow, b: LiveWindowRow): number {
  const m = q?.jaccard.get(ix);
  if (m !== undefined && m.a === a && m.b === b) return m.j;
  const j = jaccard(a.documents, b.documents);
  q?.jaccard.set(ix, { a, b, j });
  return j;
}

/** The pairs of versions (a < b) of a question's latest rows (`latest`, one per version), with the Jaccard indexes kept in `q` when given. */
function pairsOf(numbers: LiveWindowCache["pairs"], latest: readonly LiveWindowRow[], q: KeptQuestion | undefined): KeptPair[] {
  const out: KeptPair[] = [];
  if (latest.length < 2) return out;
  const vs = [...latest].sort((a, b) => (a.pipeline_version < b.pipeline_version ? -1 : a.pipeline_version > b.pipeline_version ? 1 : 0));
  for (let i = 0; i < vs.length; i++) {
    for (let k = i + 1; k < vs.length; k++) {
      const a = vs[i] as LiveWindowRow;
      const b = vs[k] as LiveWindowRow;
      const ix = pairNumber(numbers, a.pipeline_version, b.pipeline_version);
      out.push({ ix, j: jaccardOf(q, ix, a, b), t: Math.min(a.t, b.t) });
    }
  }
  return out;
}

/** Adds to `out` the pairs of versions of a question's latest rows (`latest`, one per version). */
function addPairs(out: Pairs, numbers: LiveWindowCache["pairs"], latest: readonly LiveWindowRow[], q: KeptQuestion | undefined): void {
  for (const p of pairsOf(numbers, latest, q)) out.count(p.ix, p.j);
}

/** By service and question hash, the latest row of each version among `rows` of `services` that have a question and `keep` accepts. */
function latestOf(rows: Iterable<LiveWindowRow>, services: ReadonlySet<string>, keep: (r: LiveWindowRow) => boolean): Map<string, Map<string, Map<string, LiveWindowRow>>> {
  const out = new Map<string, Map<string, Map<string, LiveWindowRow>>>();
  for (const r of rows) {
    if (r.question_hash === "0" || !services.has(r.service_name) || !keep(r)) continue;
    const of = entry(
      entry(out, r.service_name, () => new Map<string, Map<string, LiveWindowRow>>()),
      r.question_hash,
      () => new Map<string, LiveWindowRow>(),
    );
    const prev = of.get(r.pipeline_version);
    if (prev === undefined || later(r, prev)) of.set(r.pipeline_version, r);
  }
  return out;
}

/** The rows of minutes in time order, one after the other. */
function* each(rows: readonly (readonly LiveWindowRow[])[]): Generator<LiveWindowRow> {
  for (const xs of rows) yield* xs;
}

/** The latest rows per question of the kept minutes again (after a kept minute changed). */
function rebuild(cache: LiveWindowCache): void {
  cache.questions.clear();
  cache.order.clear();
  cache.stale = false;
  for (const m of [...cache.minutes.keys()].sort((a, b) => a - b)) for (const r of (cache.minutes.get(m) as KeptMinute).rows) question(cache, r);
}

/** A kept question's latest row of each version in the window: the kept one or a later one not kept (`over`). */
function latestInWindow(q: KeptQuestion, over: ReadonlyMap<string, LiveWindowRow>, sinceMs: number): LiveWindowRow[] {
  const latest: LiveWindowRow[] = [];
  for (const [v, r] of q.versions) {
    const x = over.get(v);
    const row = x !== undefined && later(x, r) ? x : r;
    if (row.t >= sinceMs) latest.push(row);
  }
  for (const [v, r] of over) if (!q.versions.has(v)) latest.push(r);
  return latest;
}

/** A service's latest rows per question and version, by question hash. */
type Latest = ReadonlyMap<string, ReadonlyMap<string, LiveWindowRow>>;

/** What a service's pairs are computed from besides its kept questions: later rows not kept over them (`fresh`), the questions of superseded rows (`affected`, their hashes) from the window's rows but those (`exact`). */
interface Others {
  readonly fresh: Latest;
  readonly affected: ReadonlySet<string>;
  readonly exact: Latest;
}

/** Adds to `out` the pairs of a kept question `others` changes: from them. */
function addChanged(out: Pairs, numbers: LiveWindowCache["pairs"], sinceMs: number, qh: string, q: KeptQuestion, others: Others): void {
  if (others.affected.has(qh)) addPairs(out, numbers, [...(others.exact.get(qh)?.values() ?? [])], q);
  else addPairs(out, numbers, latestInWindow(q, others.fresh.get(qh) as ReadonlyMap<string, LiveWindowRow>, sinceMs), q);
}

/** The kept questions of a service, their hashes in order and each one's entry ({@link LiveWindowCache.order}). */
function ordered(
  cache: LiveWindowCache,
  service: string,
  kept: ReadonlyMap<string, KeptQuestion>,
): { readonly keys: readonly string[]; readonly questions: readonly KeptQuestion[] } {
  let o = cache.order.get(service);
  if (o === undefined) {
    const keys = [...kept.keys()].sort();
    o = { keys, questions: keys.map((qh) => kept.get(qh) as KeptQuestion) };
    cache.order.set(service, o);
  }
  return o;
}

/**
 * Adds to `out` the pairs of a service's questions, by question hash (the same order, so the same
 * sums, whatever the cache's history): those kept (`kept`; the pairs of a question nothing in
 * `others` changes are kept with it, and count when both rows are in the window), and those `others`
 * holds that are not kept.
 */
function addService(out: Pairs, service: string, sinceMs: number, cache: LiveWindowCache, others: Others): void {
  const kept = cache.questions.get(service) ?? new Map<string, KeptQuestion>();
  const { keys, questions } = ordered(cache, service, kept);
  const { extra, at, changed } = placed(keys, kept, others);
  const numbers = cache.pairs;
  const addExtra = (qh: string) => addPairs(out, numbers, [...((others.affected.has(qh) ? others.exact.get(qh) : others.fresh.get(qh))?.values() ?? [])], undefined);
  let k = 0;
  for (let i = 0, c = 0; i < keys.length; i++) {
    for (; k < extra.length && at[k] === i; k++) addExtra(extra[k] as string);
    const q = questions[i] as KeptQuestion;
    if (changed[c] === i) {
      addChanged(out, numbers, sinceMs, keys[i] as string, q, others);
      c++;
      continue;
    }
    q.pairs ??= pairsOf(numbers, [...q.versions.values()], q);
    for (const p of q.pairs) if (p.t >= sinceMs) out.count(p.ix, p.j);
  }
  for (; k < extra.length; k++) addExtra(extra[k] as string);
}

/**
 * The questions `others` names among a service's kept ones (`keys`, in order): those not kept, in
 * order, with where each goes (`at`: the index of the first kept one after it), and the indexes of
 * the kept ones they change, ascending (found by halves: no string compared, no lookup, per kept
 * question).
 */
function placed(keys: readonly string[], kept: ReadonlyMap<string, KeptQuestion>, others: Others): { extra: string[]; at: number[]; changed: number[] } {
  const named = [...new Set([...others.fresh.keys(), ...others.exact.keys(), ...others.affected])];
  const extra = named.filter((qh) => !kept.has(qh) && (others.fresh.has(qh) || others.exact.has(qh))).sort();
  const changed = named
    .filter((qh) => kept.has(qh))
    .map((qh) => before(keys, qh))
    .sort((a, b) => a - b);
  return { extra, at: extra.map((qh) => before(keys, qh)), changed };
}

/** The index of the first of the ordered `keys` after `qh`. */
function before(keys: readonly string[], qh: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string) < qh) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The retrieval overlap of the versions of `services` over the window (design §3, as ./live.ts's
 * liveOverlap computes it in the engine): per service and question (its hash), the latest row (by
 * time, then trace id) of each version, and per pair of versions the questions both answered and the
 * sum of the Jaccard indexes of their documents. From the cache's latest rows per question (the
 * latest of a question in the kept minutes is its latest in the window when it is in the window at
 * all) and the window's rows not kept; the questions of rows later scorings superseded from every
 * row of the window but those (a superseded row may be the latest kept of its question and version).
 */
export function liveWindowOverlap(cache: LiveWindowCache, window: LiveWindow, sinceMs: number, services: ReadonlySet<string>): LiveWindowOverlap[] {
  const rows = window.rows;
  if (services.size === 0 || rows === null) return [];
  const out: LiveWindowOverlap[] = [];
  const gone = new Set(window.superseded?.keys ?? []);
  // The questions of superseded rows: their latest rows from every row of the window but those.
  const affected = new Set(gone.size > 0 ? (window.superseded?.questions ?? []) : []);
  const exact = affected.size === 0 ? new Map() : latestOf(each(rows), services, (r) => affected.has(r.question_hash) && !gone.has(`${r.trace_id}:${r.version}`));
  if (cache.stale) rebuild(cache);
  const recent = latestOf(window.unkept ?? [], services, (r) => !affected.has(r.question_hash));
  for (const service of services) {
    const pairs = new Pairs(service, cache.pairs);
    addService(pairs, service, sinceMs, cache, { fresh: recent.get(service) ?? new Map(), affected, exact: exact.get(service) ?? new Map() });
    out.push(...pairs.result());
  }
  return out;
}
