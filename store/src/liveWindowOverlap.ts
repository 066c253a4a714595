import { jaccard } from "@ragmeter/core/domain/overlap";
import { entry, type KeptMinute, type KeptQuestion, type LiveWindow, type LiveWindowCache, later, question } from "./liveWindow.js";
import type { LiveWindowRow } from "./liveWindowRead.js";

/** Two versions of a service: the questions both answered in the window and the sum of their Jaccard indexes (as ./live.ts's liveOverlap). */
export interface LiveWindowOverlap {
  readonly service_name: string;
  readonly version_a: string;
  readonly version_b: string;
  questions: number;
  jaccard_sum: number;
}

type Pairs = Map<string, LiveWindowOverlap>;

/** Adds to `out` the pairs of versions of a question's latest rows (`latest`, one per version), with the Jaccard indexes kept in `q` when given. */
function addPairs(out: Pairs, service: string, latest: readonly LiveWindowRow[], q: KeptQuestion | undefined): void {
  if (latest.length < 2) return;
  const vs = [...latest].sort((a, b) => (a.pipeline_version < b.pipeline_version ? -1 : a.pipeline_version > b.pipeline_version ? 1 : 0));
  for (let i = 0; i < vs.length; i++) {
    for (let k = i + 1; k < vs.length; k++) {
      const a = vs[i] as LiveWindowRow;
      const b = vs[k] as LiveWindowRow;
      const pk = `${a.pipeline_version}\u0000${b.pipeline_version}`;
      let j: number;
      const m = q?.jaccard.get(pk);
      if (m !== undefined && m.a === a && m.b === b) j = m.j;
      else {
        j = jaccard(a.documents, b.documents);
        q?.jaccard.set(pk, { a, b, j });
      }
      const x = entry(out, `${service}\u0000${pk}`, () => ({ service_name: service, version_a: a.pipeline_version, version_b: b.pipeline_version, questions: 0, jaccard_sum: 0 }));
      x.questions++;
      x.jaccard_sum += j;
    }
  }
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

/** Adds to `out` the pairs of the latest rows of each service's questions. */
function addLatest(out: Pairs, latest: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, LiveWindowRow>>>): void {
  for (const [service, byQuestion] of latest) for (const of of byQuestion.values()) addPairs(out, service, [...of.values()], undefined);
}

/** The rows of minutes in time order, one after the other. */
function* each(rows: readonly (readonly LiveWindowRow[])[]): Generator<LiveWindowRow> {
  for (const xs of rows) yield* xs;
}

/** The latest rows per question of the kept minutes again (after a kept minute changed). */
function rebuild(cache: LiveWindowCache): void {
  cache.questions.clear();
  cache.stale = false;
  for (const m of [...cache.minutes.keys()].sort((a, b) => a - b)) for (const r of (cache.minutes.get(m) as KeptMinute).rows) question(cache, r);
}

/** A kept question's latest row of each version in the window: the kept one or a later one not kept (`over`). */
function latestInWindow(q: KeptQuestion, over: ReadonlyMap<string, LiveWindowRow> | undefined, sinceMs: number): LiveWindowRow[] {
  const latest: LiveWindowRow[] = [];
  for (const [v, r] of q.versions) {
    const x = over?.get(v);
    const row = x !== undefined && later(x, r) ? x : r;
    if (row.t >= sinceMs) latest.push(row);
  }
  if (over !== undefined) for (const [v, r] of over) if (!q.versions.has(v)) latest.push(r);
  return latest;
}

/** Adds to `out` the pairs of a service's questions: those kept (`kept`), later rows not kept over them (`fresh`). */
function addService(
  out: Pairs,
  service: string,
  kept: ReadonlyMap<string, KeptQuestion> = new Map(),
  fresh: ReadonlyMap<string, ReadonlyMap<string, LiveWindowRow>> = new Map(),
  sinceMs: number,
): void {
  for (const [qh, q] of kept) addPairs(out, service, latestInWindow(q, fresh.get(qh), sinceMs), q);
  for (const [qh, over] of fresh) if (!kept.has(qh)) addPairs(out, service, [...over.values()], undefined);
}

/**
 * The retrieval overlap of the versions of `services` over the window (design §3, as ./live.ts's
 * liveOverlap computes it in the engine): per service and question (its hash), the latest row (by
 * time, then trace id) of each version, and per pair of versions the questions both answered and the
 * sum of the Jaccard indexes of their documents. From the cache's latest rows per question (the
 * latest of a question in the kept minutes is its latest in the window when it is in the window at
 * all) and the window's rows not kept; from every row of the window when some were superseded.
 */
export function liveWindowOverlap(cache: LiveWindowCache, window: LiveWindow, sinceMs: number, services: ReadonlySet<string>): LiveWindowOverlap[] {
  const rows = window.rows;
  if (services.size === 0 || rows === null) return [];
  const out: Pairs = new Map();
  const gone = new Set(window.superseded?.keys ?? []);
  if (gone.size > 0) {
    // Some rows were superseded: the latest rows of each question from the window's other rows.
    addLatest(
      out,
      latestOf(each(rows), services, (r) => !gone.has(`${r.trace_id}:${r.version}`)),
    );
    return [...out.values()];
  }
  if (cache.stale) rebuild(cache);
  const recent = latestOf(window.unkept ?? [], services, () => true);
  for (const service of services) addService(out, service, cache.questions.get(service), recent.get(service), sinceMs);
  return [...out.values()];
}
