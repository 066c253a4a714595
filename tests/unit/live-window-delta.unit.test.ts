import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { describe, expect, it } from "vitest";
import { deltaFloor, maxVersion, mergeMinute } from "../../store/src/liveWindowDelta.js";
import type { LiveWindowRow } from "../../store/src/liveWindowRead.js";
import { type MinuteScores, MinuteScoresBuilder, type ScoreRowIn, scoreKinds } from "../../store/src/liveWindowScores.js";

const rng = xoroshiro128plus(4211);
const int = (lo: number, hi: number) => uniformInt(rng, lo, hi);
const T0 = Date.parse("2026-12-07T10:00:00Z");

/** A write: a trace row and its score rows (a metric with no status when the scoring did not give it). */
interface Write {
  readonly row: LiveWindowRow;
  readonly scores: ScoreRowIn[];
}

function writeOf(trace: number, t: number, version: number): Write {
  const trace_id = `t${String(trace).padStart(3, "0")}${trace % 7 === 0 ? "é" : ""}`;
  const row: LiveWindowRow = {
    trace_id,
    t,
    service_name: "shop",
    pipeline_version: int(0, 1) === 0 ? "v1" : "v2",
    question_hash: String(int(1, 5)),
    documents: [`d${int(0, 3)}`],
    scored: 1,
    view_status: "ok",
    content_missing: 0,
    version,
  };
  const scores = ["grounding", "relevance"].map((metric) => ({
    trace_id,
    t,
    version,
    service_name: row.service_name,
    pipeline_version: row.pipeline_version,
    metric,
    status: int(0, 3) === 0 ? "" : "ok",
    value: int(0, 8) / 8,
    judge_model: "heuristic",
    input: 0,
    output: 0,
  }));
  return { row, scores };
}

/** The highest version of each row and of each score over the writes (a later write wins a tie), as the engine's FINAL keeps them. */
function latest(writes: readonly Write[]): { rows: LiveWindowRow[]; scores: ScoreRowIn[] } {
  const rows = new Map<string, LiveWindowRow>();
  const scores = new Map<string, ScoreRowIn>();
  for (const w of writes) {
    const k = `${w.row.t}|${w.row.trace_id}`;
    if ((rows.get(k)?.version ?? Number.NEGATIVE_INFINITY) <= w.row.version) rows.set(k, w.row);
    for (const s of w.scores) {
      const ks = `${k}|${s.metric}`;
      if ((scores.get(ks)?.version ?? Number.NEGATIVE_INFINITY) <= s.version) scores.set(ks, s);
    }
  }
  return { rows: [...rows.values()], scores: [...scores.values()] };
}

/** Key order, by a sort of its own: time, trace id's bytes, then metric. */
const order = (a: { t: number; trace_id: string; metric?: string }, b: { t: number; trace_id: string; metric?: string }) =>
  a.t - b.t || Buffer.compare(Buffer.from(a.trace_id), Buffer.from(b.trace_id)) || ((a.metric ?? "") < (b.metric ?? "") ? -1 : (a.metric ?? "") > (b.metric ?? "") ? 1 : 0);

/** What the engine's FINAL over every write gives (the highest version per key, key order; scores with a status). */
function final(writes: readonly Write[]): { rows: LiveWindowRow[]; scores: ScoreRowIn[] } {
  const l = latest(writes);
  return { rows: l.rows.sort(order), scores: l.scores.filter((s) => s.status !== "").sort(order) };
}

function built(rows: readonly ScoreRowIn[], kinds: ReturnType<typeof scoreKinds>): MinuteScores {
  const b = new MinuteScoresBuilder(kinds);
  for (const r of rows) b.push(r, r.trace_id);
  return b.build();
}

describe("a minute still being written, merged from what was read and the rows from a version on (store/liveWindowDelta.ts)", () => {
  it("gives what one read of every row gives, over random writes: new traces, rescorings in place, metrics dropped, late landings", () => {
    for (let round = 0; round < 200; round++) {
      const kinds = scoreKinds();
      const writes: Write[] = [];
      let clock = 10_000_000;
      const traces = int(3, 25);
      const write = (late = 0) => {
        const trace = int(0, traces);
        // A rescoring in place keeps the trace's time; a new trace gets one (some at the same ms).
        const earlier = writes.find((w) => w.row.trace_id.startsWith(`t${String(trace).padStart(3, "0")}`));
        clock += int(1, 400_000);
        writes.push(writeOf(trace, earlier !== undefined && int(0, 1) === 0 ? earlier.row.t : T0 + int(0, 59) * 1000, clock - late));
      };
      for (let k = int(0, 20); k > 0; k--) write();
      const first = final(writes);
      const firstScores = built(first.scores, kinds);
      const partial = { rows: first.rows, scores: firstScores, max: maxVersion({ rows: first.rows, scores: firstScores }) };
      // More writes, some landing late (a version below the read's latest, within the settling time).
      for (let k = int(0, 20); k > 0; k--) write(int(0, 3) === 0 ? int(0, 4_000_000) : 0);
      const floor = deltaFloor(partial, 5_000);
      // The delta as the statement reads it: FINAL over every write, the rows at or above the floor, scores with no status too.
      const all = latest(writes);
      const delta = {
        rows: all.rows.filter((r) => r.version >= floor).sort(order),
        scores: all.scores.filter((s) => s.version >= floor).sort(order),
      };
      const merged = mergeMinute(partial, delta, kinds);
      const want = final(writes);
      expect(merged.rows).toEqual(want.rows);
      const got = merged.scores;
      expect(Array.from({ length: got.n }, (_, i) => [got.t[i], got.trace[i], kinds.list[got.kind[i] as number]?.metric, got.version[i], got.value[i]])).toEqual(
        want.scores.map((s) => [s.t, s.trace_id, s.metric, s.version, s.value]),
      );
    }
  });

  it("reads again from the highest version read less the settling time", () => {
    const w = writeOf(1, T0, 7_000_000);
    const kinds = scoreKinds();
    const partial = { rows: [w.row], scores: built(w.scores, kinds), max: maxVersion({ rows: [w.row], scores: built([], kinds) }) };
    expect(partial.max).toBe(7_000_000);
    expect(deltaFloor(partial, 5_000)).toBe(2_000_000);
  });
});
