import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Judge, judgeOf } from "../../core/src/judges/types.js";
import type { ScoredTrace } from "../../core/src/scoring/trace.js";
import { openStore, type Store } from "../../store/src/client.js";
import { startScorerService } from "../../stream/src/service.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { DOCS as docs, rows, sleep, waitFor } from "../helpers/streaming.js";

let store: Store;
beforeAll(async () => {
  store = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-passes-")), database: "ragmeter" });
});
afterAll(async () => {
  await store?.close();
});

/** An LLM-kind judge whose grounding takes `ms`, recording how many traces it judges at once. */
function slowJudge(ms: number): Judge & { readonly most: () => number } {
  let now = 0;
  let most = 0;
  const cost = { input_tokens: 1, output_tokens: 1, latency_ms: ms };
  const judge = judgeOf(
    { kind: "llm", model: "slow", metered: true },
    {
      grounding: {
        version: "g",
        run: async () => {
          now++;
          most = Math.max(most, now);
          await new Promise((r) => setTimeout(r, ms));
          now--;
          return { status: "ok", value: 1, claims: [], reason: "", ...cost };
        },
      },
      relevance: { version: "r", run: async () => ({ status: "ok", value: 4, reason: "", ...cost }) },
    },
  );
  return { ...judge, most: () => most };
}

describe("the streaming scorer's passes (issue 15)", () => {
  it("scores two batches at a time, so the judge stays busy across a batch's end, and writes the batches in order", async () => {
    const judge = slowJudge(40);
    const reported: string[][] = [];
    const svc = await startScorerService({
      store,
      stream: { brokers: null, topic: "unused", quietMs: 0, liveSampleRate: 1, groupId: "unused", sessionTimeoutMs: 6000, concurrency: 2 },
      consume: false,
      log: { info() {}, warn() {}, error() {} },
      // Batches of 3 traces, at most 2 traces of a batch judged at once.
      scoring: { judge, ks: [1], quietMs: 0, liveSampleRate: 1, concurrency: 2, batchSize: 3 },
      // Passes every 100 ms; the first one scans the store (empty), the later ones take the dirty traces.
      intervalMs: 100,
      fullScanIntervalMs: 3_600_000,
      onScored: (scored: readonly ScoredTrace[]) => reported.push(scored.map((s) => s.interaction.trace_id)),
    });
    try {
      await sleep(400);
      const ids = Array.from({ length: 9 }, () => traceId());
      // One write: all nine traces become due in the same pass.
      await svc.sink.send(
        "traces",
        ids.map((t) => {
          const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
          return { key: t, value: protobufOf(traceRequest([retrieval, generation])), items: 2 };
        }),
        {},
      );
      await waitFor(async () => reported.flat().length >= 9, 20_000);
      await sleep(300);
      // One batch alone would judge at most 2 traces at once; two batches at a time, 4.
      expect(judge.most()).toBe(4);
      // Three batches of three, reported (written) in the order they were taken: oldest first.
      expect(reported.map((b) => b.length)).toEqual([3, 3, 3]);
      expect(reported.flat()).toEqual(ids);
      expect(await rows(store, "SELECT count() AS c FROM ragmeter.interactions FINAL")).toEqual([{ c: "9" }]);
    } finally {
      await svc.stop();
    }
  });

  it("a due trace waits up to the batch wait for others to share its batch (one write for all), a full batch goes at once (issue 38)", async () => {
    const judge = slowJudge(1);
    const reported: { at: number; ids: string[] }[] = [];
    const svc = await startScorerService({
      store,
      stream: { brokers: null, topic: "unused", quietMs: 0, liveSampleRate: 1, groupId: "unused", sessionTimeoutMs: 6000, concurrency: 2 },
      consume: false,
      log: { info() {}, warn() {}, error() {} },
      scoring: { judge, ks: [1], quietMs: 0, liveSampleRate: 1, concurrency: 2, batchSize: 4, batchWaitMs: 3000 },
      intervalMs: 100,
      fullScanIntervalMs: 3_600_000,
      onScored: (scored: readonly ScoredTrace[]) => reported.push({ at: Date.now(), ids: scored.map((s) => s.interaction.trace_id) }),
    });
    const send = (ids: readonly string[]) =>
      svc.sink.send(
        "traces",
        ids.map((t) => {
          const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
          return { key: t, value: protobufOf(traceRequest([retrieval, generation])), items: 2 };
        }),
        {},
      );
    try {
      await sleep(400); // the first pass (a full scan of the empty store) is behind us
      const ids = Array.from({ length: 7 }, () => traceId());
      const t0 = Date.now();
      await send(ids.slice(0, 1));
      await sleep(500);
      await send(ids.slice(1, 2));
      await waitFor(async () => reported.length >= 1, 15_000);
      // One batch for both, written once the first had waited its 3 s (not before; passes every 100 ms).
      expect(reported.map((r) => r.ids)).toEqual([ids.slice(0, 2)]);
      expect((reported[0]?.at ?? 0) - t0).toBeGreaterThanOrEqual(3000);
      // Five at once: a full batch of four at once, the fifth after its wait.
      const t1 = Date.now();
      await send(ids.slice(2));
      await waitFor(async () => reported.length >= 3, 15_000);
      expect(reported.slice(1).map((r) => r.ids)).toEqual([ids.slice(2, 6), ids.slice(6)]);
      expect((reported[1]?.at ?? 0) - t1).toBeLessThan(3000);
      expect((reported[2]?.at ?? 0) - t1).toBeGreaterThanOrEqual(3000);
    } finally {
      await svc.stop();
    }
  });

  it("computes the live view's aggregates of a minute a few seconds after its last write (migration 12)", async () => {
    const judge = slowJudge(1);
    const svc = await startScorerService({
      store,
      stream: { brokers: null, topic: "unused", quietMs: 0, liveSampleRate: 1, groupId: "unused", sessionTimeoutMs: 6000, concurrency: 2 },
      consume: false,
      log: { info() {}, warn() {}, error() {} },
      scoring: { judge, ks: [1], quietMs: 0, liveSampleRate: 1, concurrency: 2, batchSize: 100 },
      intervalMs: 100,
      fullScanIntervalMs: 3_600_000,
    });
    try {
      const ids = Array.from({ length: 3 }, () => traceId());
      await svc.sink.send(
        "traces",
        ids.map((t) => {
          const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
          return { key: t, value: protobufOf(traceRequest([retrieval, generation])), items: 2 };
        }),
        {},
      );
      // Marked when written; computed by the service once the minute's last write is 5 s old (refresh every 5 s).
      const covered = async () =>
        rows<{ m: string; t: string; c: string }>(
          store,
          `SELECT toString(minute) AS m, toString(maxIf(version, kind = 'touched')) AS t, toString(maxIf(covers, kind = 'computed')) AS c
           FROM ragmeter.live_minutes_state GROUP BY minute HAVING t != '0'`,
        );
      await waitFor(async () => {
        const m = await covered();
        return m.length > 0 && m.every((x) => x.c !== "0" && BigInt(x.c) >= BigInt(x.t));
      }, 25_000);
      // Every live trace of the store (these three and the test's above), each counted once in the
      // aggregates of the minute that holds it, at the version its computed mark covers.
      const [agg] = await rows<{ n: string }>(
        store,
        `SELECT toString(sum(n)) AS n FROM ragmeter.live_minutes FINAL WHERE kind = 't' AND (minute, covers) IN
           (SELECT minute, maxIf(covers, kind = 'computed') FROM ragmeter.live_minutes_state GROUP BY minute)`,
      );
      const [live] = await rows<{ n: string }>(store, "SELECT toString(count()) AS n FROM ragmeter.live_traces FINAL");
      expect(Number(live?.n)).toBeGreaterThanOrEqual(3);
      expect(agg?.n).toBe(live?.n);
    } finally {
      await svc.stop();
    }
  }, 40_000);
});
