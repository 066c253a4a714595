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

/** A service's pairs of versions, by their key (`a`, then `b`). */
type Pairs = Map<string, LiveWindowOverlap>;

/** Counts a question of `service` both versions of a pair answered, with their Jaccard index `j`. */
function count(out: Pairs, service: string, pk: string, a: string, b: string, j: number): void {
  let x = out.get(pk);
  if (x === undefined) {
    x = { service_name: service, version_a: a, version_b: b, questions: 0, jaccard_sum: 0 };
    out.set(pk, x);
  }
  x.questions++;
  x.jaccard_sum += j;
}

/** A pair of rows' Jaccard index: kept in `q` (when given) for the same two rows, or computed (and kept). */
function jaccardOf(q: KeptQuestion | undefined, pk: string, a: LiveWindowRow, b: LiveWindowRow): number {
  const m = q?.jaccard.get(pk);
  if (m !== undefined && m.a === a && m.b === b) return m.j;
  const j = jaccard(a.documents, b.documents);
  q?.jaccard.set(pk, { a, b, j });
  return j;
}

/** The pairs of versions (a < b) of a question's latest rows (`latest`, one per version), with the Jaccard indexes kept in `q` when given. */
function pairsOf(latest: readonly LiveWindowRow[], q: KeptQuestion | undefined): KeptPair[] {
  const out: KeptPair[] = [];
  if (latest.length < 2) return out;
  const vs = [...latest].sort((a, b) => (a.pipeline_version < b.pipeline_version ? -1 : a.pipeline_version > b.pipeline_version ? 1 : 0));
  for (let i = 0; i < vs.length; i++) {
    for (let k = i + 1; k < vs.length; k++) {
      const a = vs[i] as LiveWindowRow;
      const b = vs[k] as LiveWindowRow;
      const pk = `${a.pipeline_version}\u0000${b.pipeline_version}`;
      out.push({ pk, a: a.pipeline_version, b: b.pipeline_version, j: jaccardOf(q, pk, a, b), t: Math.min(a.t, b.t) });
    }
  }
  return out;
}

/** Adds to `out` the pairs of versions of a question's latest rows (`latest`, one per version). */
function addPairs(out: Pairs, service: string, latest: readonly LiveWindowRow[], q: KeptQuestion | undefined): void {
  for (const p of pairsOf(latest, q)) count(out, service, p.pk, p.a, p.b, p.j);
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

/** Adds to `out` the pairs of a kept question: from `others` when they change it, else its kept pairs in the window. */
function addKept(out: Pairs, service: string, sinceMs: number, qh: string, q: KeptQuestion, others: Others): void {
  const over = others.fresh.get(qh);
  if (others.affected.has(qh)) addPairs(out, service, [...(others.exact.get(qh)?.values() ?? [])], q);
  else if (over !== undefined) addPairs(out, service, latestInWindow(q, over, sinceMs), q);
  else {
    q.pairs ??= pairsOf([...q.versions.values()], q);
    for (const p of q.pairs) if (p.t >= sinceMs) count(out, service, p.pk, p.a, p.b, p.j);
  }
}

/** The kept questions' hashes of a service in order ({@link LiveWindowCache.order}). */
function ordered(cache: LiveWindowCache, service: string, kept: ReadonlyMap<string, KeptQuestion>): readonly string[] {
  let keys = cache.order.get(service);
  if (keys === undefined) {
    keys = [...kept.keys()].sort();
    cache.order.set(service, keys);
  }
  return keys;
}

/**
 * Adds to `out` the pairs of a service's questions, by question hash (the same order, so the same
 * sums, whatever the cache's history): those kept (`kept`; the pairs of a question nothing in
 * `others` changes are kept with it, and count when both rows are in the window), and those `others`
 * holds that are not kept.
 */
function addService(out: Pairs, service: string, sinceMs: number, cache: LiveWindowCache, others: Others): void {
  const kept = cache.questions.get(service) ?? new Map<string, KeptQuestion>();
  const keys = ordered(cache, service, kept);
  const extra = [...new Set([...others.fresh.keys(), ...others.exact.keys()])].filter((qh) => !kept.has(qh)).sort();
  // Where each question not kept goes among the kept ones (found by halves: no string compared per kept question).
  const at = extra.map((qh) => before(keys, qh));
  for (let i = 0, k = 0; i <= keys.length; i++) {
    for (; k < extra.length && at[k] === i; k++) {
      const qh = extra[k] as string;
      addPairs(out, service, [...((others.affected.has(qh) ? others.exact.get(qh) : others.fresh.get(qh))?.values() ?? [])], undefined);
    }
    const qh = keys[i];
    if (qh !== undefined) addKept(out, service, sinceMs, qh, kept.get(qh) as KeptQuestion, others);
  }
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
    const pairs: Pairs = new Map();
    addService(pairs, service, sinceMs, cache, { fresh: recent.get(service) ?? new Map(), affected, exact: exact.get(service) ?? new Map() });
    out.push(...pairs.values());
  }
  return out;
}
